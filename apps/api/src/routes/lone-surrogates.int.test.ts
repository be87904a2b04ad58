import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  tenant = await stack.newTenant({
    group: { planValidFrom: new Date('2024-01-01T00:00:00Z'), planValidUntil: new Date('2100-01-01T00:00:00Z') },
  });
});
afterAll(() => stack?.close());

const event = (extra: Record<string, unknown>) => ({
  eventId: 'e1',
  type: 'live_chat_message_sent',
  userId: 'u1',
  occurredAt: '2025-05-05T10:00:00.000Z',
  ...extra,
});

/** JSON.stringify writes a lone surrogate as its `\uXXXX` escape, as a client's JSON encoder does. */
const cases: [string, string, unknown, string][] = [
  ['POST', '/api/v1/materials', { name: 'Notes', content: { text: 'a \ud800 b' } }, 'content.text'],
  [
    'POST',
    '/api/v1/materials',
    { name: 'Notes', content: { text: 'ok' }, references: [{ title: 'x\udfff', url: 'https://example.com' }] },
    'references.0.title',
  ],
  ['POST', '/api/v1/materials', { name: '\udc00 name', content: { text: 'ok' } }, 'name'],
  [
    'POST',
    '/api/v1/materials/batch',
    { materials: [{ name: 'Batch', filename: 'a\ud800.pdf', contentType: 'application/pdf' }] },
    'materials.0.filename',
  ],
  [
    'POST',
    '/api/v1/usage/events',
    { events: [event({ properties: { note: 'x\ud800' } })] },
    'events.0.properties.note',
  ],
  ['POST', '/api/v1/usage/events', { events: [event({ userId: 'u\ud800' })] }, 'events.0.userId'],
  ['POST', '/api/v1/usage/events', { events: [event({ eventId: 'e\ud800' })] }, 'events.0.eventId'],
];

describe('a lone UTF-16 surrogate in a request body', () => {
  it.each(cases)('%s %s is a 400 naming %j', async (method, path, body, field) => {
    const res = await sendJson(tenant, method, path, body);
    const answer = await res.json();
    expect(res.status, JSON.stringify(answer)).toBe(400);
    expect(answer.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(answer.message).toMatch(/surrogate/);
  });

  it('never lets two event ids that differ only in a lone surrogate become one', async () => {
    for (const eventId of ['e\ud800', 'e\udc00']) {
      expect((await sendJson(tenant, 'POST', '/api/v1/usage/events', { events: [event({ eventId })] })).status).toBe(
        400,
      );
    }
    expect((await (await tenant.request('/api/v1/usage/events')).json()).events).toEqual([]);
  });

  // A multipart text field arrives as UTF-8, which cannot spell a lone surrogate; the JSON in one can.
  it('is a 400 naming the field inside the JSON a multipart field holds', async () => {
    const data = new FormData();
    data.set('name', 'Referenced');
    data.set('references', '[{"title":"t\\udfff","url":"https://example.com"}]');
    data.set('file', new Blob(['plain words']), 'notes.txt');
    const res = await tenant.request('/api/v1/materials/upload', { method: 'POST', body: data });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([expect.objectContaining({ field: 'references.0.title' })]);
  });
});
