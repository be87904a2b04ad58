import type { Tenant } from './test-stack.ts';

/** A request with a JSON body (or none) as this tenant. */
export const sendJson = (tenant: Tenant, method: string, pathname: string, body?: unknown) =>
  tenant.request(pathname, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Re-reads a material until its status is one of `statuses`, or returns it as it is after `timeoutMs` (as JSON). */
export async function waitForStatus(tenant: Tenant, id: string, statuses: string[], timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const material = (await (await tenant.request(`/api/v1/materials/${id}`)).json()) as { status: string };
    if (statuses.includes(material.status) || Date.now() > deadline) return material;
    await new Promise((r) => setTimeout(r, 100));
  }
}
