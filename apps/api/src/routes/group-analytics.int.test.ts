import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGroupMembers, createGroup, revokeApiKey, upsertStudents } from '@quire/db';
import { startTestStack, type Tenant, type TestStack } from '@quire/testkit';
import { buildGroupReport, REPORT_NAMES, type ReportName } from '../services/group-analytics.service.ts';

let stack: TestStack;
let school: Tenant;
let otherGroup: Tenant;
let otherOrg: Tenant;

const ACTIVE_PLAN = {
  planValidFrom: new Date('2024-01-01T00:00:00Z'),
  planValidUntil: new Date('2100-01-01T00:00:00Z'),
};

type EventSpec = { id: string; user: string; type: string; at: string; value?: number; correct?: boolean };

const ev = ({ id, user, type, at, value, correct }: EventSpec) => ({
  eventId: id,
  type,
  userId: user,
  userName: NAMES[user],
  occurredAt: at,
  ...(value !== undefined ? { value } : {}),
  ...(correct !== undefined ? { properties: { correct } } : {}),
});

const NAMES: Record<string, string> = { u1: 'Bob', u2: 'Carol', u3: 'Alice', u5: 'Eve' };

/**
 * The school's group. Every event sits on or next to a boundary of one of the two ranges the tests ask for:
 * range 1 from 2025-03-03T00:00:00.000Z, range 2 from 2025-03-03T10:30:00.000Z, both to 2025-03-19T12:00:00.000Z.
 */
const SCHOOL_EVENTS: EventSpec[] = [
  { id: 'a1', user: 'u3', type: 'live_session_created', at: '2025-03-03T00:00:00.000Z' },
  { id: 'a2', user: 'u3', type: 'live_chat_message_sent', at: '2025-03-04T23:59:59.999Z' },
  { id: 'a3', user: 'u3', type: 'live_chat_message_sent', at: '2025-03-09T23:59:59.999Z' },
  { id: 'a4', user: 'u3', type: 'engagement', at: '2025-03-10T00:00:00.000Z', value: 90_000 },
  { id: 'a5', user: 'u3', type: 'test_question_answered', at: '2025-03-10T10:29:59.999Z', correct: true },
  { id: 'a6', user: 'u3', type: 'test_question_answered', at: '2025-03-10T10:30:00.000Z', correct: false },
  { id: 'a7', user: 'u3', type: 'engagement', at: '2025-03-19T12:00:00.000Z', value: 30_000 },
  { id: 'a8', user: 'u3', type: 'live_session_created', at: '2025-03-19T12:00:00.001Z' },
  { id: 'b1', user: 'u1', type: 'test_created', at: '2025-03-02T23:59:59.999Z' },
  { id: 'b2', user: 'u1', type: 'test_question_created', at: '2025-03-03T10:29:59.999Z' },
  { id: 'b3', user: 'u1', type: 'test_question_created', at: '2025-03-03T10:30:00.000Z' },
  { id: 'b4', user: 'u1', type: 'test_chat_question', at: '2025-03-12T08:00:00.000Z' },
  { id: 'b5', user: 'u1', type: 'engagement', at: '2025-03-12T09:00:00.000Z', value: 45 },
  { id: 'b6', user: 'u1', type: 'live_chat_message_sent', at: '2025-03-17T10:29:59.999Z' },
  { id: 'b7', user: 'u1', type: 'live_chat_message_sent', at: '2025-03-17T10:30:00.000Z' },
  { id: 'c1', user: 'u2', type: 'engagement', at: '2025-03-05T12:00:00.000Z', value: 1_234_567 },
  { id: 'c2', user: 'u2', type: 'engagement', at: '2025-03-05T13:00:00.000Z', value: 600_000 },
  { id: 'c3', user: 'u2', type: 'test_created', at: '2025-03-18T00:00:00.000Z' },
  { id: 'c4', user: 'u2', type: 'test_question_answered', at: '2025-03-18T01:00:00.000Z', correct: true },
  { id: 'c5', user: 'u2', type: 'test_question_answered', at: '2025-03-18T02:00:00.000Z', correct: true },
];

/** Activity that must never reach the school group's reports: the same students and ids elsewhere. */
const OTHER_GROUP_EVENTS: EventSpec[] = [
  { id: 'x1', user: 'u3', type: 'live_session_created', at: '2025-03-05T00:00:00.000Z' },
  { id: 'x2', user: 'u5', type: 'engagement', at: '2025-03-05T00:00:00.000Z', value: 600_000 },
  { id: 'x3', user: 'u5', type: 'test_created', at: '2025-03-11T00:00:00.000Z' },
];
const OTHER_ORG_EVENTS: EventSpec[] = [
  { id: 'a1', user: 'u3', type: 'live_session_created', at: '2025-03-05T00:00:00.000Z' },
  { id: 'a2', user: 'u1', type: 'test_created', at: '2025-03-05T00:00:00.000Z' },
  { id: 'o3', user: 'u2', type: 'engagement', at: '2025-03-12T00:00:00.000Z', value: 6_000_000 },
];

const post = (t: Tenant, path: string, body?: unknown) =>
  t.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function sendEvents(t: Tenant, events: EventSpec[]) {
  const res = await post(t, '/api/v1/usage/events', { events: events.map(ev) });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

async function report(t: Tenant, name: ReportName, query: Record<string, string>) {
  const res = await post(t, `/api/groups/${name}?${new URLSearchParams(query)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await res.json();
  expect(body.success).toBe(true);
  return body.reports;
}

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  school = await stack.newTenant({ group: ACTIVE_PLAN });
  const second = await createGroup(stack.db, {
    organizationId: school.organizationId,
    name: 'Other class',
    ...ACTIVE_PLAN,
  });
  otherGroup = await stack.newKey(school.organizationId, second.id);
  otherOrg = await stack.newTenant({ group: ACTIVE_PLAN });

  expect(await sendEvents(school, SCHOOL_EVENTS)).toEqual({ accepted: SCHOOL_EVENTS.length, duplicates: 0 });
  // Replayed whole, and once more mixed with a new-looking copy of an old id: nothing counts twice.
  expect(await sendEvents(school, SCHOOL_EVENTS)).toEqual({ accepted: 0, duplicates: SCHOOL_EVENTS.length });
  expect(await sendEvents(school, [{ ...SCHOOL_EVENTS[0]!, type: 'test_created' }, SCHOOL_EVENTS[1]!])).toEqual({
    accepted: 0,
    duplicates: 2,
  });
  await sendEvents(otherGroup, OTHER_GROUP_EVENTS);
  await sendEvents(otherOrg, OTHER_ORG_EVENTS);

  // Dave joins the group without ever producing an event, as the admin CLI's `student add` does.
  const dave = await upsertStudents(stack.db, school.organizationId, [{ userId: 'u4', name: 'Dave' }]);
  await addGroupMembers(stack.db, school.organizationId, [{ groupId: school.groupId!, studentId: dave.get('u4')! }]);
});
afterAll(() => stack?.close());

const RANGE_1 = { startDate: '2025-03-03T00:00:00.000Z', endDate: '2025-03-19T12:00:00.000Z' };
const RANGE_2 = { startDate: '2025-03-03T10:30:00.000Z', endDate: '2025-03-19T12:00:00.000Z' };
const WINDOWS_1 = [
  ['2025-03-03T00:00:00.000Z', '2025-03-09T23:59:59.999Z'],
  ['2025-03-10T00:00:00.000Z', '2025-03-16T23:59:59.999Z'],
  ['2025-03-17T00:00:00.000Z', '2025-03-19T12:00:00.000Z'],
] as const;
const WINDOWS_2 = [
  ['2025-03-03T10:30:00.000Z', '2025-03-10T10:29:59.999Z'],
  ['2025-03-10T10:30:00.000Z', '2025-03-17T10:29:59.999Z'],
  ['2025-03-17T10:30:00.000Z', '2025-03-19T12:00:00.000Z'],
] as const;

const live = (sessions: number, chat: number) => [
  { title: 'Sessions Made', value: sessions },
  { title: 'Chat Messages', value: chat },
];
const tests = (made: number, questions: number, correct: number, incorrect: number, chat: number) => [
  { title: 'Tests Made', value: made },
  { title: 'Questions Made', value: questions },
  { title: 'Questions Answered Correctly', value: correct },
  { title: 'Questions Answered Incorrectly', value: incorrect },
  { title: 'Chat Questions Asked', value: chat },
];
const engagement = (minutes: number) => [{ title: 'Minutes Engaged', value: minutes }];

type Data = ReturnType<typeof live>;
const groupLevel = (windows: readonly (readonly [string, string])[], rows: [number, Data][]) =>
  rows.map(([numStudentsUsed, data], i) => ({
    startDate: windows[i]![0],
    endDate: windows[i]![1],
    numStudentsUsed,
    data,
  }));

/** Per window, the data of Alice, Bob, Carol and Dave: the order of their names, not of their ids. */
const STUDENTS = [
  ['Alice', 'u3'],
  ['Bob', 'u1'],
  ['Carol', 'u2'],
  ['Dave', 'u4'],
] as const;
const studentLevel = (windows: readonly (readonly [string, string])[], perWindow: Data[][]) =>
  perWindow.flatMap((students, i) =>
    students.map((data, s) => ({
      startDate: windows[i]![0],
      endDate: windows[i]![1],
      studentName: STUDENTS[s]![0],
      studentId: STUDENTS[s]![1],
      data,
    })),
  );

const L0 = live(0, 0);
const T0 = tests(0, 0, 0, 0, 0);
const E0 = engagement(0);

describe('a range starting at midnight (range 1)', () => {
  it('live lecture, group level: events at the start, at 23:59:59.999, at a window end and at endDate count; after endDate not', async () => {
    expect(await report(school, 'live-lecture', RANGE_1)).toEqual(
      groupLevel(WINDOWS_1, [
        [1, live(1, 2)],
        [0, L0],
        [1, live(0, 2)],
      ]),
    );
  });

  it('tests, group level: before startDate excluded, correct and incorrect answers apart', async () => {
    expect(await report(school, 'tests', RANGE_1)).toEqual(
      groupLevel(WINDOWS_1, [
        [1, tests(0, 2, 0, 0, 0)],
        [2, tests(0, 0, 1, 1, 1)],
        [1, tests(1, 0, 2, 0, 0)],
      ]),
    );
  });

  it('engagement, group level: minutes from milliseconds to 2 decimals; 45 ms is activity worth 0.00 minutes', async () => {
    expect(await report(school, 'engagement', RANGE_1)).toEqual(
      groupLevel(WINDOWS_1, [
        [1, engagement(30.58)],
        [2, engagement(1.5)],
        [1, engagement(0.5)],
      ]),
    );
  });

  it('student level: every member in every window sorted by name, zero-activity members included', async () => {
    const students = { ...RANGE_1, students: 'true' };
    expect(await report(school, 'live-lecture', students)).toEqual(
      studentLevel(WINDOWS_1, [
        [live(1, 2), L0, L0, L0],
        [L0, L0, L0, L0],
        [L0, live(0, 2), L0, L0],
      ]),
    );
    expect(await report(school, 'tests', students)).toEqual(
      studentLevel(WINDOWS_1, [
        [T0, tests(0, 2, 0, 0, 0), T0, T0],
        [tests(0, 0, 1, 1, 0), tests(0, 0, 0, 0, 1), T0, T0],
        [T0, T0, tests(1, 0, 2, 0, 0), T0],
      ]),
    );
    expect(await report(school, 'engagement', students)).toEqual(
      studentLevel(WINDOWS_1, [
        [E0, E0, engagement(30.58), E0],
        [engagement(1.5), E0, E0, E0],
        [engagement(0.5), E0, E0, E0],
      ]),
    );
  });
});

describe('a range starting at 10:30 (range 2): windows cut through days', () => {
  it('group level, all three endpoints', async () => {
    expect(await report(school, 'live-lecture', RANGE_2)).toEqual(
      groupLevel(WINDOWS_2, [
        [1, live(0, 2)],
        [1, live(0, 1)],
        [1, live(0, 1)],
      ]),
    );
    expect(await report(school, 'tests', RANGE_2)).toEqual(
      groupLevel(WINDOWS_2, [
        [2, tests(0, 1, 1, 0, 0)],
        [2, tests(0, 0, 0, 1, 1)],
        [1, tests(1, 0, 2, 0, 0)],
      ]),
    );
    expect(await report(school, 'engagement', RANGE_2)).toEqual(
      groupLevel(WINDOWS_2, [
        [2, engagement(32.08)],
        [1, E0],
        [1, engagement(0.5)],
      ]),
    );
  });

  it('student level, all three endpoints', async () => {
    const students = { ...RANGE_2, students: 'true' };
    expect(await report(school, 'live-lecture', students)).toEqual(
      studentLevel(WINDOWS_2, [
        [live(0, 2), L0, L0, L0],
        [L0, live(0, 1), L0, L0],
        [L0, live(0, 1), L0, L0],
      ]),
    );
    expect(await report(school, 'tests', students)).toEqual(
      studentLevel(WINDOWS_2, [
        [tests(0, 0, 1, 0, 0), tests(0, 1, 0, 0, 0), T0, T0],
        [tests(0, 0, 0, 1, 0), tests(0, 0, 0, 0, 1), T0, T0],
        [T0, T0, tests(1, 0, 2, 0, 0), T0],
      ]),
    );
    expect(await report(school, 'engagement', students)).toEqual(
      studentLevel(WINDOWS_2, [
        [engagement(1.5), E0, engagement(30.58), E0],
        [E0, E0, E0, E0],
        [engagement(0.5), E0, E0, E0],
      ]),
    );
  });

  it('a date-only endDate includes its whole day; a date-only startDate begins at midnight', async () => {
    // By hand: range 1 to the end of 2025-03-18 is windows 03-03..03-09, 03-10..03-16, 03-17..03-18T23:59:59.999;
    // the last holds b6, b7 (chat, Bob) and nothing of Alice's 03-19 events.
    expect(await report(school, 'live-lecture', { startDate: '2025-03-03', endDate: '2025-03-18' })).toEqual(
      groupLevel(
        [WINDOWS_1[0], WINDOWS_1[1], ['2025-03-17T00:00:00.000Z', '2025-03-18T23:59:59.999Z']],
        [
          [1, live(1, 2)],
          [0, L0],
          [1, live(0, 2)],
        ],
      ),
    );
    // 03-19 as a date reaches a8 (12:00:00.001), which endDate=...T12:00:00.000Z leaves out.
    expect(await report(school, 'live-lecture', { startDate: '2025-03-17', endDate: '2025-03-19' })).toEqual(
      groupLevel([['2025-03-17T00:00:00.000Z', '2025-03-19T23:59:59.999Z']], [[2, live(1, 2)]]),
    );
  });

  it.each([
    ['no zone, read as UTC', '2025-03-03T00:00:00', '2025-03-19T12:00:00'],
    ['no seconds', '2025-03-03T00:00Z', '2025-03-19T12:00Z'],
    ['an offset, converted to UTC', '2025-03-03T02:00:00+02:00', '2025-03-19T07:00:00-05:00'],
    ['an offset without seconds or colon', '2025-03-03T01:00+0100', '2025-03-19T12:00:00.000+00:00'],
  ])('an ISO 8601 timestamp with %s gives the same report as its Z form', async (_what, startDate, endDate) => {
    for (const name of REPORT_NAMES) {
      for (const students of ['false', 'true']) {
        expect(await report(school, name, { startDate, endDate, students })).toEqual(
          await report(school, name, { ...RANGE_1, students }),
        );
      }
    }
  });

  it('reads the same from a date, or a timestamp with an offset, as from the UTC timestamp', async () => {
    expect(await report(school, 'tests', { startDate: '2025-03-03', endDate: RANGE_1.endDate })).toEqual(
      await report(school, 'tests', RANGE_1),
    );
    expect(
      await report(school, 'tests', { startDate: '2025-03-03T11:30:00.000+01:00', endDate: RANGE_2.endDate }),
    ).toEqual(await report(school, 'tests', RANGE_2));
  });
});

describe('other ranges', () => {
  it('a range with no activity: every window zero-filled, every member listed', async () => {
    const quiet = { startDate: '2025-06-01T00:00:00.000Z', endDate: '2025-06-10T00:00:00.000Z' };
    const windows = [
      ['2025-06-01T00:00:00.000Z', '2025-06-07T23:59:59.999Z'],
      ['2025-06-08T00:00:00.000Z', '2025-06-10T00:00:00.000Z'],
    ] as const;
    expect(await report(school, 'live-lecture', quiet)).toEqual(
      groupLevel(windows, [
        [0, L0],
        [0, L0],
      ]),
    );
    expect(await report(school, 'tests', { ...quiet, students: 'true' })).toEqual(
      studentLevel(windows, [
        [T0, T0, T0, T0],
        [T0, T0, T0, T0],
      ]),
    );
  });

  it('a range of one millisecond holds exactly the event at that millisecond', async () => {
    const at = '2025-03-09T23:59:59.999Z';
    expect(await report(school, 'live-lecture', { startDate: at, endDate: at })).toEqual(
      groupLevel([[at, at]], [[1, live(0, 1)]]),
    );
  });

  it('defaults: from 2025-01-01 to now, group level', async () => {
    const before = Date.now();
    const reports = await report(school, 'live-lecture', {});
    const after = Date.now();
    expect(reports[0].startDate).toBe('2025-01-01T00:00:00.000Z');
    expect(reports).toHaveLength(
      Math.floor((Date.parse(reports.at(-1).endDate) - Date.parse('2025-01-01T00:00:00.000Z')) / (7 * 86_400_000)) + 1,
    );
    expect(Date.parse(reports.at(-1).endDate)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(reports.at(-1).endDate)).toBeLessThanOrEqual(after);
    expect(
      reports.every(
        (r: { numStudentsUsed?: number; studentId?: string }) =>
          r.numStudentsUsed !== undefined && r.studentId === undefined,
      ),
    ).toBe(true);
    // Everything the school did, a8 (after range 1) included, and nothing of the other group or organization.
    const total = (title: string) =>
      reports.reduce((sum: number, r: { data: Data }) => sum + r.data.find((d) => d.title === title)!.value, 0);
    expect([total('Sessions Made'), total('Chat Messages')]).toEqual([2, 4]);
  });

  it('students=false is the group level', async () => {
    expect(await report(school, 'engagement', { ...RANGE_1, students: 'false' })).toEqual(
      await report(school, 'engagement', RANGE_1),
    );
  });

  it('the other group of the organization sees only its own members and events', async () => {
    expect(await report(otherGroup, 'engagement', { ...RANGE_1, students: 'true' })).toEqual([
      ...[
        ['Alice', 'u3', 0],
        ['Eve', 'u5', 10],
      ].map(([studentName, studentId, minutes]) => ({
        startDate: WINDOWS_1[0][0],
        endDate: WINDOWS_1[0][1],
        studentName,
        studentId,
        data: engagement(minutes as number),
      })),
      ...[1, 2].flatMap((w) =>
        [
          ['Alice', 'u3'],
          ['Eve', 'u5'],
        ].map(([studentName, studentId]) => ({
          startDate: WINDOWS_1[w]![0],
          endDate: WINDOWS_1[w]![1],
          studentName,
          studentId,
          data: E0,
        })),
      ),
    ]);
  });
});

describe('exactness of the daily counters', () => {
  it('agree with a count over the raw events for many random boundaries', async () => {
    let seed = 42;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const scope = { organizationId: school.organizationId, groupId: school.groupId! };
    const from = Date.parse('2025-03-01T00:00:00.000Z');
    for (let i = 0; i < 12; i++) {
      const start = from + Math.floor(random() * 10 * 86_400_000);
      const end = start + Math.floor(random() * 20 * 86_400_000);
      for (const name of REPORT_NAMES) {
        for (const students of [false, true]) {
          const query = { start: new Date(start), end: new Date(end), students };
          expect(await buildGroupReport(stack.api, scope, name, query, 'counters')).toEqual(
            await buildGroupReport(stack.api, scope, name, query, 'raw'),
          );
        }
      }
    }
  });
});

describe('refusals', () => {
  const bodyOf = async (res: Response) => ({ status: res.status, body: await res.json() });
  const unauthorized = { status: 403, body: { error: 'Unauthorized' } };

  it('403 for a missing, malformed, unknown or revoked key, on every endpoint, before looking at the parameters', async () => {
    const revoked = await stack.newKey(school.organizationId, school.groupId);
    await revokeApiKey(stack.db, revoked.keyId);
    for (const name of REPORT_NAMES) {
      const path = `${stack.url}/api/groups/${name}?startDate=garbage`;
      expect(await bodyOf(await fetch(path, { method: 'POST' }))).toEqual(unauthorized);
      expect(await bodyOf(await fetch(path, { method: 'POST', headers: { 'x-api-key': 'not-a-key' } }))).toEqual(
        unauthorized,
      );
      expect(
        await bodyOf(
          await fetch(path, { method: 'POST', headers: { 'x-api-key': `qk_${'a'.repeat(12)}_${'b'.repeat(43)}` } }),
        ),
      ).toEqual(unauthorized);
      expect(await bodyOf(await revoked.request(`/api/groups/${name}?startDate=garbage`, { method: 'POST' }))).toEqual(
        unauthorized,
      );
    }
  });

  it('403 for a key without a group, or whose group plan has ended, has not begun or was never set', async () => {
    const day = 86_400_000;
    const noGroup = await stack.newKey(school.organizationId);
    const ended = await stack.newTenant({
      group: { planValidFrom: new Date(Date.now() - 10 * day), planValidUntil: new Date(Date.now() - day) },
    });
    const notYet = await stack.newTenant({
      group: { planValidFrom: new Date(Date.now() + day), planValidUntil: new Date(Date.now() + 10 * day) },
    });
    const never = await stack.newTenant({ group: {} });
    for (const key of [noGroup, ended, notYet, never]) {
      for (const name of REPORT_NAMES)
        expect(await bodyOf(await post(key, `/api/groups/${name}`))).toEqual(unauthorized);
    }
    // An open-ended plan that has begun is active.
    const openEnded = await stack.newTenant({ group: { planValidFrom: new Date(Date.now() - day) } });
    expect((await post(openEnded, '/api/groups/tests')).status).toBe(200);
  });

  it('400 "Missing params" naming the parameter for unparseable values and for startDate after endDate', async () => {
    const cases: [string, RegExp][] = [
      ['startDate=garbage', /startDate/],
      ['startDate=', /startDate/],
      ['endDate=2025-13-01T00:00:00Z', /endDate/],
      ['endDate=2025-03-01T10:00:00+25:00', /endDate/],
      ['endDate=March 1', /endDate/],
      ['startDate=2025-01-01T00:00:00Z&startDate=2025-02-01T00:00:00Z', /startDate/],
      ['students=yes', /students/],
      ['students=', /students/],
      ['startDate=2025-03-02T00:00:00.001Z&endDate=2025-03-02T00:00:00.000Z', /startDate must not be after endDate/],
      ['startDate=2026-01-01T00:00:00Z&endDate=2025-12-31T23:59:59.999Z', /startDate must not be after endDate/],
      ['startDate=1990-01-01T00:00:00Z&endDate=2025-01-01T00:00:00Z', /at most \d+ days/],
    ];
    for (const name of REPORT_NAMES) {
      for (const [query, message] of cases) {
        const { status, body } = await bodyOf(await post(school, `/api/groups/${name}?${query}`));
        expect({ query, status }).toEqual({ query, status: 400 });
        expect(body).toEqual({ error: 'Missing params', message: expect.stringMatching(message) });
      }
    }
  });
});
