import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type Tenant, type TestStack } from '@quire/testkit';

/** The chat, flashcards and explainers reports, on a hand-built set of events with every expectation counted by hand. */
let stack: TestStack;
let school: Tenant;

const ACTIVE_PLAN = {
  planValidFrom: new Date('2024-01-01T00:00:00Z'),
  planValidUntil: new Date('2100-01-01T00:00:00Z'),
};
const NAMES: Record<string, string> = { u1: 'Zed', u2: 'Amy', u3: 'Mia' };

const EVENTS: [id: string, user: string, type: string, at: string][] = [
  ['e1', 'u1', 'tutor_me_message_sent', '2025-04-07T00:00:00.000Z'],
  ['e2', 'u1', 'tutor_me_message_sent', '2025-04-13T23:59:59.999Z'],
  ['e3', 'u1', 'live_chat_message_sent', '2025-04-14T00:00:00.000Z'],
  ['e4', 'u1', 'flashcard_set_created', '2025-04-15T10:00:00.000Z'],
  ['e5', 'u1', 'flashcard_created', '2025-04-15T10:01:00.000Z'],
  ['e6', 'u1', 'flashcard_created', '2025-04-15T10:02:00.000Z'],
  ['e7', 'u1', 'flashcard_created', '2025-04-15T10:03:00.000Z'],
  ['e8', 'u1', 'explainer_video_created', '2025-04-06T23:59:59.999Z'],
  ['a1', 'u2', 'test_chat_question', '2025-04-08T09:00:00.000Z'],
  ['a2', 'u2', 'flashcard_chat_question', '2025-04-09T09:00:00.000Z'],
  ['a3', 'u2', 'material_chat_message_sent', '2025-04-09T10:00:00.000Z'],
  ['a4', 'u2', 'main_chat_message_sent', '2025-04-20T23:59:59.999Z'],
  ['a5', 'u2', 'explainer_video_created', '2025-04-10T12:00:00.000Z'],
  ['a6', 'u2', 'explainer_video_created', '2025-04-27T23:59:59.999Z'],
  ['a7', 'u2', 'flashcard_created', '2025-04-28T00:00:00.000Z'],
];

const post = (t: Tenant, path: string, body?: unknown) =>
  t.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function report(name: string, query: Record<string, string>) {
  const res = await post(school, `/api/groups/${name}?${new URLSearchParams(query)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await res.json();
  expect(body.success).toBe(true);
  return body.reports;
}

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  school = await stack.newTenant({ group: ACTIVE_PLAN });
  const events = EVENTS.map(([eventId, userId, type, occurredAt]) => ({
    eventId,
    userId,
    userName: NAMES[userId],
    type,
    occurredAt,
  }));
  // Mia is a member whose only activity counts in none of these reports.
  events.push({
    eventId: 'm1',
    userId: 'u3',
    userName: 'Mia',
    type: 'engagement',
    occurredAt: '2025-04-16T00:00:00.000Z',
    value: 60_000,
  } as (typeof events)[number]);
  const res = await post(school, '/api/v1/usage/events', { events });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(await res.json()).toEqual({ accepted: 16, duplicates: 0 });
});
afterAll(() => stack?.close());

const chat = (
  total: number,
  tutorMe: number,
  test: number,
  flashcard: number,
  material: number,
  liveLecture: number,
  main: number,
) => [
  { title: 'Total Messages', value: total },
  { title: 'Tutor Me Messages', value: tutorMe },
  { title: 'Test Messages', value: test },
  { title: 'Flashcard Messages', value: flashcard },
  { title: 'Material Messages', value: material },
  { title: 'Live Lecture Messages', value: liveLecture },
  { title: 'Main Chat Messages', value: main },
];
const flashcards = (sets: number, cards: number, questions: number) => [
  { title: 'Sets Made', value: sets },
  { title: 'Flashcards Made', value: cards },
  { title: 'Chat Questions', value: questions },
];
const explainers = (videos: number) => [{ title: 'Explainers Videos Made', value: videos }];
const C0 = chat(0, 0, 0, 0, 0, 0, 0);
const F0 = flashcards(0, 0, 0);
const X0 = explainers(0);

/** Dates alone: from the start of 2025-04-07 to the end of 2025-04-27, three whole weeks. */
const WEEKS = { startDate: '2025-04-07', endDate: '2025-04-27' };
const WINDOWS = [
  ['2025-04-07T00:00:00.000Z', '2025-04-13T23:59:59.999Z'],
  ['2025-04-14T00:00:00.000Z', '2025-04-20T23:59:59.999Z'],
  ['2025-04-21T00:00:00.000Z', '2025-04-27T23:59:59.999Z'],
] as const;

type Data = { title: string; value: number }[];
const groupLevel = (rows: [number, Data][]) =>
  rows.map(([numStudentsUsed, data], i) => ({
    startDate: WINDOWS[i]![0],
    endDate: WINDOWS[i]![1],
    numStudentsUsed,
    data,
  }));
/** Per window: Amy (u2), Mia (u3), Zed (u1), the order of their names. */
const STUDENTS = [
  ['Amy', 'u2'],
  ['Mia', 'u3'],
  ['Zed', 'u1'],
] as const;
const studentLevel = (perWindow: Data[][]) =>
  perWindow.flatMap((students, i) =>
    students.map((data, s) => ({
      startDate: WINDOWS[i]![0],
      endDate: WINDOWS[i]![1],
      studentName: STUDENTS[s]![0],
      studentId: STUDENTS[s]![1],
      data,
    })),
  );

describe('POST /api/groups/chat', () => {
  it('group level: the total first, then each chat in the documented order; window edges included, empty weeks zero-filled', async () => {
    expect(await report('chat', WEEKS)).toEqual(
      groupLevel([
        [2, chat(5, 2, 1, 1, 1, 0, 0)],
        [2, chat(2, 0, 0, 0, 0, 1, 1)],
        [0, C0],
      ]),
    );
  });

  it('student level: every member in every window, sorted by name', async () => {
    expect(await report('chat', { ...WEEKS, students: 'true' })).toEqual(
      studentLevel([
        [chat(3, 0, 1, 1, 1, 0, 0), C0, chat(2, 2, 0, 0, 0, 0, 0)],
        [chat(1, 0, 0, 0, 0, 0, 1), C0, chat(1, 0, 0, 0, 0, 1, 0)],
        [C0, C0, C0],
      ]),
    );
  });
});

describe('POST /api/groups/flashcards', () => {
  it('group level: sets, flashcards and chat questions; after endDate not counted', async () => {
    expect(await report('flashcards', WEEKS)).toEqual(
      groupLevel([
        [1, flashcards(0, 0, 1)],
        [1, flashcards(1, 3, 0)],
        [0, F0],
      ]),
    );
  });

  it('student level', async () => {
    expect(await report('flashcards', { ...WEEKS, students: 'true' })).toEqual(
      studentLevel([
        [flashcards(0, 0, 1), F0, F0],
        [F0, F0, flashcards(1, 3, 0)],
        [F0, F0, F0],
      ]),
    );
  });
});

describe('POST /api/groups/explainers', () => {
  it('group level: before startDate not counted, the last millisecond of a date-only endDate counted', async () => {
    expect(await report('explainers', WEEKS)).toEqual(
      groupLevel([
        [1, explainers(1)],
        [0, X0],
        [1, explainers(1)],
      ]),
    );
  });

  it('student level', async () => {
    expect(await report('explainers', { ...WEEKS, students: 'true' })).toEqual(
      studentLevel([
        [explainers(1), X0, X0],
        [X0, X0, X0],
        [explainers(1), X0, X0],
      ]),
    );
  });
});

describe('a range that starts and ends mid-day, given with an offset', () => {
  // 09:30+02:00 is 07:30Z; the 6-day range is one window ending at endDate, whose own millisecond counts:
  // e2, a2, a3, e3 for chat (a1 and e1 are before it), e4, e5, e6 and a2 for flashcards (e7 is after it), a5.
  const range = { startDate: '2025-04-09T09:30:00+02:00', endDate: '2025-04-15T10:02:00Z' };
  const window = { startDate: '2025-04-09T07:30:00.000Z', endDate: '2025-04-15T10:02:00.000Z' };

  it('counts only what lies inside, on every endpoint', async () => {
    expect(await report('chat', range)).toEqual([{ ...window, numStudentsUsed: 2, data: chat(4, 1, 0, 1, 1, 1, 0) }]);
    expect(await report('flashcards', range)).toEqual([{ ...window, numStudentsUsed: 2, data: flashcards(1, 2, 1) }]);
    expect(await report('explainers', range)).toEqual([{ ...window, numStudentsUsed: 1, data: explainers(1) }]);
  });
});

describe('the new event types', () => {
  it('are listed back by type, and an unknown type is still a 400 naming the event', async () => {
    const listed = await (await school.request('/api/v1/usage/events?eventType=flashcard_created')).json();
    expect(listed.events.map((e: { eventId: string }) => e.eventId)).toEqual(['a7', 'e7', 'e6', 'e5']);
    const res = await post(school, '/api/v1/usage/events', {
      events: [{ eventId: 'z1', userId: 'u1', type: 'flashcard_studied', occurredAt: '2025-04-10T00:00:00.000Z' }],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ index: 0, message: expect.stringMatching(/^events\[0\]\.type/) });
  });
});
