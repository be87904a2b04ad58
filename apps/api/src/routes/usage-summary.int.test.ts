import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '@quire/db';
import { startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let classKey: Tenant;
let orgKey: Tenant;
let g1: string;
let g2: string;

const ACTIVE_PLAN = {
  planValidFrom: new Date('2024-01-01T00:00:00Z'),
  planValidUntil: new Date('2100-01-01T00:00:00Z'),
};

const TYPES = [
  'live_session_created',
  'live_chat_message_sent',
  'test_created',
  'test_question_created',
  'test_question_answered',
  'test_chat_question',
  'engagement',
  'tutor_me_message_sent',
  'material_chat_message_sent',
  'main_chat_message_sent',
  'flashcard_set_created',
  'flashcard_created',
  'flashcard_chat_question',
  'explainer_video_created',
];
/** Figures as the summary shows them, written by hand: every type listed, zeros included. */
const figures = (byType: Record<string, number> = {}, engagedMs = 0) => ({
  events: Object.values(byType).reduce((a, b) => a + b, 0),
  byType: Object.fromEntries(TYPES.map((t) => [t, byType[t] ?? 0])),
  engagedMs,
});

const send = async (t: Tenant, events: Record<string, unknown>[]) => {
  const res = await t.request('/api/v1/usage/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
};
const summary = async (t: Tenant, query: Record<string, string>) => {
  const res = await t.request(`/api/v1/usage/summary?${new URLSearchParams(query)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
};

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  classKey = await stack.newTenant({ group: ACTIVE_PLAN });
  g1 = classKey.groupId!;
  g2 = (await createGroup(stack.db, { organizationId: classKey.organizationId, name: 'Second class', ...ACTIVE_PLAN }))
    .id;
  orgKey = await stack.newKey(classKey.organizationId);
  const e = (
    eventId: string,
    userId: string,
    type: string,
    occurredAt: string,
    extra: Record<string, unknown> = {},
  ) => ({
    eventId,
    userId,
    userName: { u1: 'Ann', u2: 'Ben', u3: 'Cy' }[userId],
    type,
    occurredAt,
    ...extra,
  });
  await send(classKey, [
    e('s1', 'u1', 'live_chat_message_sent', '2025-06-01T00:00:00.000Z'),
    e('s2', 'u1', 'engagement', '2025-06-01T10:30:00.000Z', { value: 60_000 }),
    e('s3', 'u2', 'tutor_me_message_sent', '2025-06-01T10:45:00.000Z'),
    e('s4', 'u2', 'test_question_answered', '2025-06-02T23:59:59.999Z', { properties: { correct: false } }),
    e('s5', 'u1', 'flashcard_created', '2025-06-30T12:00:00.000Z'),
    e('s6', 'u1', 'explainer_video_created', '2025-07-01T00:00:00.000Z'),
  ]);
  await send(orgKey, [
    e('t1', 'u3', 'main_chat_message_sent', '2025-06-01T10:15:00.000Z', { groupId: g2 }),
    e('t2', 'u1', 'live_chat_message_sent', '2025-06-02T08:00:00.000Z', { groupId: g2 }),
  ]);
});
afterAll(() => stack?.close());

describe('GET /api/v1/usage/summary', () => {
  it("daily, with a group key: that group's events per UTC day, the date-only endDate's day included and zero-filled", async () => {
    expect(await summary(classKey, { period: 'daily', startDate: '2025-06-01', endDate: '2025-06-03' })).toEqual({
      period: 'daily',
      startDate: '2025-06-01T00:00:00.000Z',
      endDate: '2025-06-03T23:59:59.999Z',
      groupBy: null,
      totals: figures(
        { live_chat_message_sent: 1, engagement: 1, tutor_me_message_sent: 1, test_question_answered: 1 },
        60_000,
      ),
      summary: [
        {
          periodStart: '2025-06-01T00:00:00.000Z',
          periodEnd: '2025-06-01T23:59:59.999Z',
          ...figures({ live_chat_message_sent: 1, engagement: 1, tutor_me_message_sent: 1 }, 60_000),
        },
        {
          periodStart: '2025-06-02T00:00:00.000Z',
          periodEnd: '2025-06-02T23:59:59.999Z',
          ...figures({ test_question_answered: 1 }),
        },
        { periodStart: '2025-06-03T00:00:00.000Z', periodEnd: '2025-06-03T23:59:59.999Z', ...figures() },
      ],
    });
  });

  it('hourly, cut to a range given without zone, per user', async () => {
    const query = { period: 'hourly', startDate: '2025-06-01T10:20:00', endDate: '2025-06-01T11:59:59' };
    const hours = [
      ['2025-06-01T10:20:00.000Z', '2025-06-01T10:59:59.999Z'],
      ['2025-06-01T11:00:00.000Z', '2025-06-01T11:59:59.000Z'],
    ];
    const total = await summary(classKey, query);
    expect(total.summary).toEqual([
      {
        periodStart: hours[0]![0],
        periodEnd: hours[0]![1],
        ...figures({ engagement: 1, tutor_me_message_sent: 1 }, 60_000),
      },
      { periodStart: hours[1]![0], periodEnd: hours[1]![1], ...figures() },
    ]);
    const perUser = await summary(classKey, { ...query, groupBy: 'user' });
    expect(perUser.groupBy).toBe('user');
    expect(perUser.summary).toEqual([
      {
        periodStart: hours[0]![0],
        periodEnd: hours[0]![1],
        userId: 'u1',
        userName: 'Ann',
        ...figures({ engagement: 1 }, 60_000),
      },
      {
        periodStart: hours[0]![0],
        periodEnd: hours[0]![1],
        userId: 'u2',
        userName: 'Ben',
        ...figures({ tutor_me_message_sent: 1 }),
      },
    ]);
  });

  it('monthly, with an organization key: every group, in total, per group and per user', async () => {
    const query = { period: 'monthly', startDate: '2025-06-01', endDate: '2025-07-31' };
    const june = { periodStart: '2025-06-01T00:00:00.000Z', periodEnd: '2025-06-30T23:59:59.999Z' };
    const july = { periodStart: '2025-07-01T00:00:00.000Z', periodEnd: '2025-07-31T23:59:59.999Z' };
    const whole = await summary(orgKey, query);
    expect(whole.summary).toEqual([
      {
        ...june,
        ...figures(
          {
            live_chat_message_sent: 2,
            engagement: 1,
            tutor_me_message_sent: 1,
            test_question_answered: 1,
            flashcard_created: 1,
            main_chat_message_sent: 1,
          },
          60_000,
        ),
      },
      { ...july, ...figures({ explainer_video_created: 1 }) },
    ]);
    expect(whole.totals.events).toBe(8);

    const perGroup = (await summary(orgKey, { ...query, groupBy: 'group' })).summary;
    const juneGroups = [
      {
        ...june,
        groupId: g1,
        ...figures(
          {
            live_chat_message_sent: 1,
            engagement: 1,
            tutor_me_message_sent: 1,
            test_question_answered: 1,
            flashcard_created: 1,
          },
          60_000,
        ),
      },
      { ...june, groupId: g2, ...figures({ main_chat_message_sent: 1, live_chat_message_sent: 1 }) },
    ].sort((a, b) => (a.groupId < b.groupId ? -1 : 1));
    expect(perGroup).toEqual([...juneGroups, { ...july, groupId: g1, ...figures({ explainer_video_created: 1 }) }]);

    expect((await summary(orgKey, { ...query, groupBy: 'user' })).summary).toEqual([
      {
        ...june,
        userId: 'u1',
        userName: 'Ann',
        ...figures({ live_chat_message_sent: 2, engagement: 1, flashcard_created: 1 }, 60_000),
      },
      { ...june, userId: 'u2', userName: 'Ben', ...figures({ tutor_me_message_sent: 1, test_question_answered: 1 }) },
      { ...june, userId: 'u3', userName: 'Cy', ...figures({ main_chat_message_sent: 1 }) },
      { ...july, userId: 'u1', userName: 'Ann', ...figures({ explainer_video_created: 1 }) },
    ]);
    // The group key never sees the other group's events.
    expect((await summary(classKey, query)).totals.events).toBe(6);
  });

  it('refuses what it cannot answer with 400, and a bad key with 403', async () => {
    const ok = { period: 'daily', startDate: '2025-06-01', endDate: '2025-06-03' };
    const cases: [Record<string, string>, RegExp][] = [
      [{ startDate: ok.startDate, endDate: ok.endDate }, /period/],
      [{ ...ok, period: 'weekly' }, /period/],
      [{ period: 'daily', startDate: ok.startDate }, /endDate/],
      [{ ...ok, endDate: 'soon' }, /endDate/],
      [{ ...ok, startDate: '2025-06-04' }, /startDate/],
      [{ ...ok, groupBy: 'class' }, /groupBy/],
      [{ ...ok, userId: 'u1' }, /userId|Unrecognized/i],
      [{ period: 'hourly', startDate: '2025-01-01', endDate: '2025-12-31' }, /at most 4000 periods/],
      [{ period: 'monthly', startDate: '2000-01-01', endDate: '2025-12-31' }, /at most \d+ days/],
    ];
    for (const [query, message] of cases) {
      const res = await classKey.request(`/api/v1/usage/summary?${new URLSearchParams(query)}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      const body = await res.json();
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(JSON.stringify(body)).toMatch(message);
    }
    expect((await fetch(`${stack.url}/api/v1/usage/summary?${new URLSearchParams(ok)}`)).status).toBe(403);
  });
});
