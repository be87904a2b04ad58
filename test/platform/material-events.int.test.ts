import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MaterialEvent } from '@quire/client';
import { makePdf, OpenApiResponseChecker, startTestStack, type Tenant, type TestStack } from '@quire/testkit';

const HEARTBEAT_MS = 300;
let stack: TestStack;
let tenant: Tenant;
const schemas = new OpenApiResponseChecker();

beforeAll(async () => {
  stack = await startTestStack({ worker: false, config: { SSE_HEARTBEAT_MS: String(HEARTBEAT_MS) } });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

async function uploadPdf(t: Tenant, name: string): Promise<string> {
  const form = new FormData();
  form.append('name', name);
  form.append(
    'file',
    new Blob([await makePdf(['The first page.', 'The second page.', 'The third page.'])]),
    `${name}.pdf`,
  );
  const { data, response } = await t.client.POST('/api/v1/materials/upload', { body: form as never });
  expect(response.status).toBe(201);
  return data!._id;
}

/** Collects a stream's events; `first` resolves with the first one, `done` when the server closes the stream. */
function follow(t: Tenant, id: string) {
  const events: MaterialEvent[] = [];
  let seeFirst = () => {};
  const first = new Promise<void>((resolve) => (seeFirst = resolve));
  const done = (async () => {
    for await (const event of t.client.materialEvents(id, { signal: AbortSignal.timeout(60_000) })) {
      schemas.checkComponent(event.event === 'status' ? 'MaterialStatusEvent' : 'MaterialProgressEvent', event.data);
      events.push(event);
      seeFirst();
    }
  })();
  return { events, first, done };
}

describe('GET /api/v1/materials/{id}/events', () => {
  it('streams the status, then rising progress, then active, and closes the stream', async () => {
    const id = await uploadPdf(tenant, 'followed');
    const stream = follow(tenant, id);
    await stream.first;
    expect(stream.events).toEqual([{ event: 'status', data: { _id: id, status: 'processing', progress: 0 } }]);

    // Nothing runs the job until now, so every change below happens while the stream is open.
    await stack.startWorker();
    await stream.done;

    const { events } = stream;
    expect(events.at(-1)).toEqual({ event: 'status', data: { _id: id, status: 'active' } });
    const progress = events.slice(1, -1);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((e) => e.event === 'progress')).toBe(true);
    const values = progress.map((e) => (e.data as { progress: number }).progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    expect((await tenant.client.GET('/api/v1/materials/{id}', { params: { path: { id } } })).data!.status).toBe(
      'active',
    );
  });

  it('sends one status and closes at once for a material that has settled', async () => {
    await stack.startWorker();
    const { data } = await tenant.client.POST('/api/v1/materials/upload-and-process', {
      body: { name: 'done', content: { text: 'Already processed.' } },
    });
    const stream = follow(tenant, data!._id);
    await stream.done;
    expect(stream.events).toEqual([{ event: 'status', data: { _id: data!._id, status: 'active' } }]);
  });

  it('reports a failure with its error and closes', async () => {
    await stack.startWorker();
    const form = new FormData();
    form.append('name', 'broken');
    form.append('file', new Blob([Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x41)])]), 'broken.pdf');
    const { data } = await tenant.client.POST('/api/v1/materials/upload', { body: form as never });
    const stream = follow(tenant, data!._id);
    await stream.done;
    const last = stream.events.at(-1)!;
    expect(last).toMatchObject({
      event: 'status',
      data: { _id: data!._id, status: 'error', error: { code: 'CORRUPT' } },
    });
  });

  it('keeps an idle stream alive with heartbeats, and notices a deletion that no job reports', async () => {
    const { data } = await tenant.client.POST('/api/v1/materials/batch', {
      body: { materials: [{ name: 'waiting', filename: 'w.txt', contentType: 'text/plain' }] },
    });
    const id = data![0]!.materialId;
    const res = await tenant.request(`/api/v1/materials/${id}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while ((text.match(/: heartbeat\n\n/g) ?? []).length < 2) text += (await reader.read()).value ?? '';
    expect(text).toMatch(/^event: status\ndata: \{"_id":"[^"]+","status":"pending_upload"\}\n\n/);

    expect((await tenant.client.DELETE('/api/v1/materials/{id}', { params: { path: { id } } })).response.status).toBe(
      200,
    );
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
    expect(text.trimEnd().endsWith(`event: status\ndata: {"_id":"${id}","status":"deleted"}`)).toBe(true);
  });

  it("answers 404 for another organization's material and for an unknown id", async () => {
    const id = await uploadPdf(tenant, 'private');
    const other = await stack.newTenant();
    for (const [t, materialId] of [
      [other, id],
      [tenant, 'no-such-material'],
    ] as const) {
      const res = await t.request(`/api/v1/materials/${materialId}/events`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Material not found' });
    }
    expect((await fetch(`${stack.url}/api/v1/materials/${id}/events`)).status).toBe(403);
  });
});
