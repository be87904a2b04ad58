import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '@quire/db';
import { startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;

const ACTIVE_PLAN = {
  planValidFrom: new Date('2024-01-01T00:00:00Z'),
  planValidUntil: new Date('2100-01-01T00:00:00Z'),
};

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(() => stack?.close());

const send = (t: Tenant, body: unknown) =>
  t.request('/api/v1/usage/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const list = async (t: Tenant, query = '') => {
  const res = await t.request(`/api/v1/usage/events${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
};

const event = (eventId: string, extra: Record<string, unknown> = {}) => ({
  eventId,
  type: 'live_chat_message_sent',
  userId: 'u1',
  occurredAt: '2025-05-05T10:00:00.000Z',
  ...extra,
});

describe('POST /api/v1/usage/events validation', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await stack.newTenant({ group: ACTIVE_PLAN });
  });

  const BAD_EVENTS: [string, Record<string, unknown>, RegExp][] = [
    ['unknown type', { type: 'lecture_watched' }, /events\[2\]\.type/],
    ['unparseable timestamp', { occurredAt: 'yesterday' }, /events\[2\]\.occurredAt/],
    ['timestamp without offset', { occurredAt: '2025-05-05T10:00:00' }, /events\[2\]\.occurredAt/],
    [
      'timestamp from the future',
      { occurredAt: new Date(Date.now() + 86_400_000).toISOString() },
      /events\[2\]\.occurredAt: must not be in the future/,
    ],
    ['engagement without value', { type: 'engagement' }, /events\[2\]\.value/],
    ['engagement with negative value', { type: 'engagement', value: -1 }, /events\[2\]\.value/],
    ['engagement with fractional value', { type: 'engagement', value: 1.5 }, /events\[2\]\.value/],
    ['answer without correct', { type: 'test_question_answered' }, /events\[2\]\.properties\.correct/],
    [
      'answer with non-boolean correct',
      { type: 'test_question_answered', properties: { correct: 'yes' } },
      /events\[2\]\.properties\.correct/,
    ],
    ['empty eventId', { eventId: '' }, /events\[2\]\.eventId/],
    ['missing userId', { userId: undefined }, /events\[2\]\.userId/],
    ['unknown field', { occured_at: '2025-05-05T10:00:00Z' }, /events\[2\]/],
    ['properties that are not an object', { properties: [1, 2] }, /events\[2\]\.properties/],
  ];

  it.each(BAD_EVENTS)(
    'rejects the whole batch for one event with %s, naming its index',
    async (_what, change, message) => {
      const bad = { ...event('bad'), ...change };
      const res = await send(t, { events: [event('ok-1'), event('ok-2'), bad, event('ok-3')] });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
        index: 2,
        message: expect.stringMatching(message),
      });
      expect(body.details.every((d: { field: string }) => d.field.startsWith('events.2'))).toBe(true);
      expect((await list(t)).events).toEqual([]);
    },
  );

  it('rejects empty, oversized and malformed batches with the NestJS error body', async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => event(`e${i}`));
    for (const body of [
      { events: [] },
      { events: tooMany },
      {},
      { events: 'x' },
      [],
      { events: [event('a')], extra: 1 },
    ]) {
      const res = await send(t, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
    }
    expect((await list(t)).events).toEqual([]);
  });

  it('accepts a batch of 1000', async () => {
    const events = Array.from({ length: 1000 }, (_, i) => event(`big-${i}`, { userId: `u${i % 7}` }));
    const res = await send(t, { events });
    expect(await res.json()).toEqual({ accepted: 1000, duplicates: 0 });
  });
});

describe('idempotency and students', () => {
  it('counts a replayed or repeated eventId once, first write winning', async () => {
    const t = await stack.newTenant({ group: ACTIVE_PLAN });
    const batch = [event('e1'), event('e2'), event('e1', { type: 'test_created' })];
    expect(await (await send(t, { events: batch })).json()).toEqual({ accepted: 2, duplicates: 1 });
    expect(await (await send(t, { events: batch })).json()).toEqual({ accepted: 0, duplicates: 3 });
    expect(await (await send(t, { events: [event('e3'), event('e2')] })).json()).toEqual({
      accepted: 1,
      duplicates: 1,
    });
    const { events } = await list(t);
    expect(events.map((e: { eventId: string; type: string }) => [e.eventId, e.type]).sort()).toEqual([
      ['e1', 'live_chat_message_sent'],
      ['e2', 'live_chat_message_sent'],
      ['e3', 'live_chat_message_sent'],
    ]);
  });

  it('counts concurrent overlapping batches exactly once in events and in reports', async () => {
    const t = await stack.newTenant({ group: ACTIVE_PLAN });
    const ids = Array.from({ length: 400 }, (_, i) => i);
    const batches = [0, 100, 200, 300].map((from) =>
      ids
        .slice(from, from + 200)
        .map((i) => event(`c${i}`, { userId: `u${i % 13}`, occurredAt: `2025-05-0${1 + (i % 7)}T12:00:00.000Z` })),
    );
    const results = await Promise.all(batches.map(async (events) => (await send(t, { events })).json()));
    expect(results.reduce((sum, r) => sum + r.accepted, 0)).toBe(400);
    expect(results.reduce((sum, r) => sum + r.duplicates, 0)).toBe(700 - 400);
    const res = await t.request(
      '/api/groups/live-lecture?startDate=2025-05-01T00:00:00Z&endDate=2025-05-07T23:59:59.999Z',
      { method: 'POST' },
    );
    expect((await res.json()).reports).toEqual([
      {
        startDate: '2025-05-01T00:00:00.000Z',
        endDate: '2025-05-07T23:59:59.999Z',
        numStudentsUsed: 13,
        data: [
          { title: 'Sessions Made', value: 0 },
          { title: 'Chat Messages', value: 400 },
        ],
      },
    ]);
  });

  it('names a student from userName, by its latest event, and after userId until a name arrives', async () => {
    const t = await stack.newTenant({ group: ACTIVE_PLAN });
    const first = event('n2', { userId: 'bob', userName: 'Bob', occurredAt: '2025-05-01T00:00:00Z' });
    await send(t, { events: [event('n1', { userId: 'anon' }), first] });
    await send(t, { events: [event('n3', { userId: 'bob', userName: 'Robert', occurredAt: '2025-05-03T00:00:00Z' })] });
    // Late and replayed events carry older names; they must not undo the rename.
    await send(t, {
      events: [event('n4', { userId: 'bob', userName: 'Bobby', occurredAt: '2025-05-02T00:00:00Z' }), first],
    });
    const res = await t.request(
      '/api/groups/tests?startDate=2025-05-01T00:00:00Z&endDate=2025-05-01T00:00:00Z&students=true',
      { method: 'POST' },
    );
    expect(
      (await res.json()).reports.map((r: { studentId: string; studentName: string }) => [r.studentId, r.studentName]),
    ).toEqual([
      ['anon', 'anon'],
      ['bob', 'Robert'],
    ]);
    await send(t, { events: [event('n5', { userId: 'anon', userName: 'Ann', occurredAt: '2025-04-01T00:00:00Z' })] });
    expect((await list(t, '?userId=anon')).events.map((e: { userName: string }) => e.userName)).toEqual(['Ann', 'Ann']);
  });
});

describe('groups of events', () => {
  let groupKey: Tenant;
  let orgKey: Tenant;
  let secondGroupId: string;
  let stranger: Tenant;

  beforeAll(async () => {
    groupKey = await stack.newTenant({ group: ACTIVE_PLAN });
    secondGroupId = (
      await createGroup(stack.db, { organizationId: groupKey.organizationId, name: 'B', ...ACTIVE_PLAN })
    ).id;
    orgKey = await stack.newKey(groupKey.organizationId);
    stranger = await stack.newTenant({ group: ACTIVE_PLAN });
  });

  it('a group key files events under its group; a groupId that contradicts it is a 400 naming the event', async () => {
    expect(
      await (await send(groupKey, { events: [event('g1'), event('g2', { groupId: groupKey.groupId })] })).json(),
    ).toEqual({ accepted: 2, duplicates: 0 });
    const res = await send(groupKey, { events: [event('g3'), event('g4', { groupId: secondGroupId })] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      index: 1,
      message: "events[1].groupId: does not match the API key's group",
    });
  });

  it('a key without a group must name a group of its organization in every event', async () => {
    const missing = await send(orgKey, { events: [event('o1', { groupId: secondGroupId }), event('o2')] });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      index: 1,
      message: 'events[1].groupId: is required with an API key that has no group',
    });
    const foreign = await send(orgKey, { events: [event('o1', { groupId: stranger.groupId })] });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ index: 0, message: 'events[0].groupId: Group not found' });

    expect(
      await (await send(orgKey, { events: [event('o1', { groupId: secondGroupId, userId: 'u9' })] })).json(),
    ).toEqual({ accepted: 1, duplicates: 0 });
    // The organization key lists every group; the group key only its own; another organization nothing.
    expect(
      (await list(orgKey)).events.map((e: { eventId: string; groupId: string }) => [e.eventId, e.groupId]).sort(),
    ).toEqual([
      ['g1', groupKey.groupId],
      ['g2', groupKey.groupId],
      ['o1', secondGroupId],
    ]);
    expect((await list(groupKey)).events.map((e: { eventId: string }) => e.eventId).sort()).toEqual(['g1', 'g2']);
    expect((await list(stranger)).events).toEqual([]);
  });

  it('events are not refused for an inactive plan: the plan limits reading reports, not recording activity', async () => {
    const lapsed = await stack.newTenant({
      group: { planValidFrom: new Date('2020-01-01T00:00:00Z'), planValidUntil: new Date('2021-01-01T00:00:00Z') },
    });
    expect((await send(lapsed, { events: [event('l1')] })).status).toBe(200);
    expect((await lapsed.request('/api/groups/live-lecture', { method: 'POST' })).status).toBe(403);
  });
});

describe('GET /api/v1/usage/events', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await stack.newTenant({ group: ACTIVE_PLAN });
    const events = [
      event('l1', { userId: 'ann', userName: 'Ann', occurredAt: '2025-05-01T00:00:00.000Z' }),
      event('l2', { userId: 'ann', type: 'engagement', value: 120_000, occurredAt: '2025-05-02T00:00:00.000Z' }),
      event('l3', {
        userId: 'ben',
        type: 'test_question_answered',
        properties: { correct: true, questionId: 'q7' },
        occurredAt: '2025-05-03T00:00:00.000Z',
      }),
      event('l4', { userId: 'ben', type: 'test_created', occurredAt: '2025-05-04T00:00:00.000Z' }),
      event('l5', { userId: 'ann', occurredAt: '2025-05-05T00:00:00.000Z' }),
    ];
    await send(t, { events });
  });
  const ids = async (query: string) => (await list(t, query)).events.map((e: { eventId: string }) => e.eventId);

  it('lists newest first with every field', async () => {
    const body = await list(t);
    expect(body).toMatchObject({ limit: 100, offset: 0, hasMore: false });
    expect(body.events.map((e: { eventId: string }) => e.eventId)).toEqual(['l5', 'l4', 'l3', 'l2', 'l1']);
    expect(body.events[2]).toEqual({
      eventId: 'l3',
      type: 'test_question_answered',
      userId: 'ben',
      userName: 'ben',
      groupId: t.groupId,
      resourceId: null,
      occurredAt: '2025-05-03T00:00:00.000Z',
      value: null,
      properties: { correct: true, questionId: 'q7' },
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(body.events[3]).toMatchObject({
      eventId: 'l2',
      type: 'engagement',
      value: 120_000,
      userName: 'Ann',
      properties: null,
    });
  });

  it('filters by inclusive dates, type and user, and pages with limit and offset', async () => {
    expect(await ids('?startDate=2025-05-02T00:00:00.000Z&endDate=2025-05-04T00:00:00.000Z')).toEqual([
      'l4',
      'l3',
      'l2',
    ]);
    expect(await ids('?startDate=2025-05-02T00:00:00.001Z')).toEqual(['l5', 'l4', 'l3']);
    expect(await ids('?endDate=2025-05-01T23:59:59.999Z')).toEqual(['l1']);
    expect(await ids('?eventType=live_chat_message_sent')).toEqual(['l5', 'l1']);
    expect(await ids('?userId=ben')).toEqual(['l4', 'l3']);
    expect(await ids('?userId=nobody')).toEqual([]);
    expect(await ids('?userId=ann&eventType=engagement')).toEqual(['l2']);
    expect(await list(t, '?limit=2&offset=1')).toMatchObject({ limit: 2, offset: 1, hasMore: true });
    expect(await ids('?limit=2&offset=1')).toEqual(['l4', 'l3']);
    expect(await list(t, '?limit=2&offset=3')).toMatchObject({ hasMore: false });
  });

  it('reads dates as the analytics do: a date-only endDate is the end of its day, no zone is UTC', async () => {
    expect(await ids('?startDate=2025-05-02&endDate=2025-05-04')).toEqual(['l4', 'l3', 'l2']);
    expect(await ids('?endDate=2025-05-01')).toEqual(['l1']);
    expect(await ids('?startDate=2025-05-02T02:00:00%2B02:00&endDate=2025-05-03T00:00')).toEqual(['l3', 'l2']);
    expect(await ids('?startDate=2025-05-04T00:00:00')).toEqual(['l5', 'l4']);
  });

  it('rejects bad filters, and filters it does not know, with 400', async () => {
    for (const query of [
      'group=g1',
      'eventtype=engagement',
      'limit=0',
      'limit=1001',
      'limit=x',
      'offset=-1',
      'eventType=bogus',
      'startDate=yesterday',
      'startDate=2025-05-03T00:00:00Z&endDate=2025-05-02T00:00:00Z',
    ]) {
      const res = await t.request(`/api/v1/usage/events?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(await res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it('filters by groupId: an organization key reads one group, a group key only its own', async () => {
    const org = await stack.newTenant({ group: ACTIVE_PLAN });
    const second = await createGroup(stack.db, { organizationId: org.organizationId, name: 'Second', ...ACTIVE_PLAN });
    const orgKey = await stack.newKey(org.organizationId);
    const sent = await send(orgKey, {
      events: [
        event('g1', { groupId: org.groupId }),
        event('g2', { groupId: second.id }),
        event('g3', { groupId: org.groupId, occurredAt: '2025-05-06T00:00:00.000Z' }),
      ],
    });
    expect(sent.status).toBe(200);
    const orgIds = async (query: string) =>
      (await list(orgKey, query)).events.map((e: { eventId: string }) => e.eventId);
    expect(await orgIds('')).toEqual(['g3', 'g2', 'g1']);
    expect(await orgIds(`?groupId=${org.groupId}`)).toEqual(['g3', 'g1']);
    expect(await orgIds(`?groupId=${second.id}`)).toEqual(['g2']);
    expect((await list(org, `?groupId=${org.groupId}`)).events.map((e: { eventId: string }) => e.eventId)).toEqual([
      'g3',
      'g1',
    ]);
    const foreign = await orgKey.request(`/api/v1/usage/events?groupId=${t.groupId}`);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ message: 'Group not found' });
    const notMine = await org.request(`/api/v1/usage/events?groupId=${second.id}`);
    expect(notMine.status).toBe(400);
    expect(await notMine.json()).toMatchObject({ message: "groupId does not match the API key's group" });
  });

  it('answers 403 without a valid key', async () => {
    expect((await fetch(`${stack.url}/api/v1/usage/events`)).status).toBe(403);
    expect(
      (await fetch(`${stack.url}/api/v1/usage/events`, { method: 'POST', headers: { 'x-api-key': 'nope' } })).status,
    ).toBe(403);
  });
});
