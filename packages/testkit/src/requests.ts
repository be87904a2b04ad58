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

/** Uploads a file and waits for its processing (`/upload/file-and-process`): 201 active, 422 error, 202 still processing. */
export function uploadAndProcess(
  tenant: Tenant,
  body: Buffer,
  filename: string,
  options: { type?: string; extractImages?: boolean; timeoutMs?: number } = {},
): Promise<Response> {
  const form = new FormData();
  form.append('name', filename);
  form.append('timeoutMs', String(options.timeoutMs ?? 110_000));
  if (options.extractImages !== undefined) form.append('extractImages', String(options.extractImages));
  form.append('file', new Blob([body], options.type ? { type: options.type } : {}), filename);
  return tenant.request('/api/v1/materials/upload/file-and-process', { method: 'POST', body: form });
}
