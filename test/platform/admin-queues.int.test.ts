import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@quire/testkit';

const ADMIN_TOKEN = 'admin-token-0123456789';
const stacks: TestStack[] = [];
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ config: { ADMIN_TOKEN } });
  stacks.push(stack);
});
afterAll(() => Promise.all(stacks.map((s) => s.close())));

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('the queue dashboard at /admin/queues', () => {
  it('asks a browser for the admin token and lets it in with the token as a bearer or as the basic-auth password', async () => {
    const anonymous = await fetch(`${stack.url}/admin/queues`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="quire admin"/);
    for (const authorization of [`Bearer ${ADMIN_TOKEN}x`, basic('admin', 'wrong'), basic(ADMIN_TOKEN, ''), 'Bearer']) {
      expect((await fetch(`${stack.url}/admin/queues`, { headers: { authorization } })).status, authorization).toBe(
        401,
      );
    }
    // An API key is no admin token.
    const tenant = await stack.newTenant();
    expect((await fetch(`${stack.url}/admin/queues`, { headers: { 'x-api-key': tenant.apiKey } })).status).toBe(401);

    for (const authorization of [`Bearer ${ADMIN_TOKEN}`, basic('anyone', ADMIN_TOKEN)]) {
      const page = await fetch(`${stack.url}/admin/queues`, { headers: { authorization } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    }
  });

  it('shows every queue and their jobs', async () => {
    const tenant = await stack.newTenant();
    const { data } = await tenant.client.POST('/api/v1/materials/upload-and-process', {
      body: { name: 'on the board', content: { text: 'Seen by bull-board.' } },
    });
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const res = await fetch(
      `${stack.url}/admin/queues/api/queues?activeQueue=materials-interactive&status=completed&page=1`,
      { headers },
    );
    const queues = (await res.json()) as { queues: { name: string; jobs: { id: string }[] }[] };
    expect(queues.queues.map((q) => q.name).sort()).toEqual(['materials', 'materials-interactive', 'webhooks']);
    // upload-and-process: someone waits for it, so it ran in the interactive lane.
    const interactive = queues.queues.find((q) => q.name === 'materials-interactive')!;
    expect(interactive.jobs.map((j) => j.id)).toContain(data!._id);
  });

  it('does not exist without ADMIN_TOKEN', async () => {
    const bare = await startTestStack({ worker: false });
    stacks.push(bare);
    const res = await fetch(`${bare.url}/admin/queues`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(404);
  });
});
