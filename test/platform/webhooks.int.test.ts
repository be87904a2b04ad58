import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertWebhook, newId } from '@quire/db';
import {
  OpenApiResponseChecker,
  startHttpServer,
  startTestStack,
  waitUntil,
  type Tenant,
  type TestHttpServer,
  type TestStack,
} from '@quire/testkit';

type Verify = (secret: string, rawBody: string, header: string, toleranceSeconds?: number) => boolean;

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

const BACKOFF_MS = 200;
let stack: TestStack;
let receiver: TestHttpServer;
let privateTarget: TestHttpServer;
const received: Received[] = [];
let flakyAnswers: number[] = [];
let verifyQuireSignature: Verify;
const schemas = new OpenApiResponseChecker();

/** Records what arrives, then answers with `status()`. */
const record = (status: () => number) => (req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    received.push({ path: req.url ?? '', headers: req.headers, body, at: Date.now() });
    res.writeHead(status()).end();
  });
};

/** The verification recipe of docs/api.md, imported exactly as written there. */
async function documentedRecipe(): Promise<Verify> {
  const page = await fs.readFile(path.join(import.meta.dirname, '../../docs/api.md'), 'utf8');
  const block = /<!-- webhook-verification[^>]*-->\n```js\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error('docs/api.md has no webhook-verification block');
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'quire-recipe-')), 'verify.mjs');
  await fs.writeFile(file, block);
  return ((await import(pathToFileURL(file).href)) as { verifyQuireSignature: Verify }).verifyQuireSignature;
}

beforeAll(async () => {
  verifyQuireSignature = await documentedRecipe();
  receiver = await startHttpServer({
    '/hook': record(() => 204),
    '/flaky': record(() => flakyAnswers.shift() ?? 200),
  });
  privateTarget = await startHttpServer({ '/hook': record(() => 200) });
  stack = await startTestStack({
    config: {
      WEBHOOK_BACKOFF_MS: String(BACKOFF_MS),
      WEBHOOK_ATTEMPTS: '4',
      // The receiver is on this machine: allowed by name. privateTarget is not, so it counts as private.
      WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${receiver.port}`,
    },
  });
});
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
  await privateTarget?.close();
});

const admin = (...args: string[]) => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    env: { ...process.env, DATABASE_URL: stack.env.DATABASE_URL },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

async function processText(t: Tenant, text: string): Promise<string> {
  const { data, response } = await t.client.POST('/api/v1/materials/upload-and-process', {
    body: { name: 'hooked', content: { text } },
  });
  expect(response.status).toBe(201);
  return data!._id;
}

async function settledDelivery(webhookId: string) {
  let delivery;
  await waitUntil(
    async () => {
      delivery = await stack.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', webhookId)
        .executeTakeFirst();
      return delivery !== undefined && delivery.status !== 'pending';
    },
    30_000,
    'the webhook delivery to settle',
  );
  const attempts = await stack.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', delivery!.id)
    .orderBy('attempt')
    .execute();
  return { delivery: delivery!, attempts };
}

describe('webhooks', () => {
  it('POSTs material.processed, signed so that the documented recipe verifies it, to a URL registered with the admin CLI', async () => {
    const tenant = await stack.newTenant();
    const hook = admin(
      'webhook',
      'add',
      '--org',
      tenant.organizationId,
      '--url',
      `http://127.0.0.1:${receiver.port}/hook`,
    );
    expect(hook).toMatchObject({
      url: `http://127.0.0.1:${receiver.port}/hook`,
      events: ['material.processed', 'material.failed'],
    });
    expect(hook.secret).toMatch(/^whsec_[\w-]{43}$/);
    const failuresOnly = admin(
      'webhook',
      'add',
      '--org',
      tenant.organizationId,
      '--url',
      `http://127.0.0.1:${receiver.port}/hook`,
      '--events',
      'material.failed',
    );
    expect(admin('webhook', 'list', '--org', tenant.organizationId).map((w: { id: string }) => w.id)).toEqual([
      hook.id,
      failuresOnly.id,
    ]);
    expect(JSON.stringify(admin('webhook', 'list', '--org', tenant.organizationId))).not.toContain(hook.secret);

    const materialId = await processText(tenant, 'Signed and delivered.');
    const { delivery, attempts } = await settledDelivery(hook.id);
    expect(delivery.status).toBe('delivered');
    expect(attempts.map((a) => a.status_code)).toEqual([204]);

    const arrived = received.find((r) => r.headers['quire-delivery'] === delivery.id)!;
    expect(arrived.headers['quire-event']).toBe('material.processed');
    expect(arrived.headers['content-type']).toBe('application/json');
    const signature = String(arrived.headers['quire-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyQuireSignature(hook.secret, arrived.body, signature)).toBe(true);
    expect(verifyQuireSignature(hook.secret, arrived.body.replace('hooked', 'HOOKED'), signature)).toBe(false);
    expect(verifyQuireSignature('whsec_another', arrived.body, signature)).toBe(false);
    expect(
      verifyQuireSignature(
        hook.secret,
        arrived.body,
        signature.replace(/t=\d+/, `t=${Math.floor(Date.now() / 1000) - 3600}`),
      ),
    ).toBe(false);

    const event = JSON.parse(arrived.body);
    schemas.checkComponent('WebhookEvent', event);
    expect(event).toMatchObject({
      type: 'material.processed',
      data: { material: { _id: materialId, status: 'active', organizationId: tenant.organizationId } },
    });

    // Subscribed to failures only: nothing was recorded for it.
    expect(
      await stack.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', failuresOnly.id).execute(),
    ).toEqual([]);
    const history = admin('webhook', 'deliveries', '--id', hook.id);
    expect(history).toMatchObject([
      {
        id: delivery.id,
        event: 'material.processed',
        status: 'delivered',
        attempts: [{ attempt: 1, statusCode: 204, error: null }],
      },
    ]);

    expect(admin('webhook', 'remove', '--id', hook.id)).toEqual({ id: hook.id, removed: true });
    expect(admin('webhook', 'list', '--org', tenant.organizationId).map((w: { id: string }) => w.id)).toEqual([
      failuresOnly.id,
    ]);
  });

  it('retries a failing receiver with exponential backoff until it answers 2xx, every attempt recorded and signed afresh', async () => {
    const tenant = await stack.newTenant();
    const secret = 'whsec_retry-test-secret';
    const webhook = await insertWebhook(stack.db, {
      id: newId(),
      organizationId: tenant.organizationId,
      url: `http://127.0.0.1:${receiver.port}/flaky`,
      secret,
      events: ['material.failed'],
    });
    flakyAnswers = [500, 503];
    const form = new FormData();
    form.append('name', 'broken');
    form.append('file', new Blob([Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x41)])]), 'broken.pdf');
    expect((await tenant.client.POST('/api/v1/materials/upload', { body: form as never })).response.status).toBe(201);

    const { delivery, attempts } = await settledDelivery(webhook.id);
    expect(delivery.status).toBe('delivered');
    expect(attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'The receiver answered 500'],
      [2, 503, 'The receiver answered 503'],
      [3, 200, null],
    ]);
    const arrivals = received.filter((r) => r.headers['quire-delivery'] === delivery.id);
    expect(arrivals).toHaveLength(3);
    // Waits of at least BACKOFF_MS, then twice that.
    expect(arrivals[1]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(BACKOFF_MS);
    expect(arrivals[2]!.at - arrivals[1]!.at).toBeGreaterThanOrEqual(2 * BACKOFF_MS);
    for (const arrival of arrivals) {
      expect(arrival.body).toBe(arrivals[0]!.body);
      expect(verifyQuireSignature(secret, arrival.body, String(arrival.headers['quire-signature']))).toBe(true);
    }
    expect(JSON.parse(arrivals[0]!.body)).toMatchObject({
      type: 'material.failed',
      data: { material: { status: 'error', error: { code: 'CORRUPT' } } },
    });
  });

  it('refuses a private target (127.0.0.1 without an allow-list entry) on the first attempt, without reaching it or retrying', async () => {
    const tenant = await stack.newTenant();
    const webhooks = [];
    for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
      webhooks.push(
        await insertWebhook(stack.db, {
          id: newId(),
          organizationId: tenant.organizationId,
          url: `http://${host}:${privateTarget.port}/hook`,
          secret: 'whsec_private',
          events: ['material.processed'],
        }),
      );
    }
    await processText(tenant, 'Nobody inside may hear of this.');
    for (const webhook of webhooks) {
      const { delivery, attempts } = await settledDelivery(webhook.id);
      expect(delivery.status, webhook.url).toBe('failed');
      expect(attempts).toHaveLength(1);
      expect(attempts[0]!.status_code).toBeNull();
      expect(attempts[0]!.error).toMatch(/^Refused to fetch .*not a public address/);
    }
    expect(privateTarget.hits).toEqual([]);
  });
});
