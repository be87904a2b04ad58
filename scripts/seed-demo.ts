import { generateApiKey, parseEventBatch, recordUsageEvents } from '@quire/api';
import { loadConfig } from '@quire/config';
import { createGroup, createOrganization, insertApiKey } from '@quire/db';
import { openDatabase } from './database.ts';

const DAY_MS = 86_400_000;
const SEMESTER_WEEKS = 16;
const BATCH = 1000;

const NAMES = [
  'Amara Okafor',
  'Ben Carter',
  'Chloé Dubois',
  'Daniel Kim',
  'Elif Yılmaz',
  'Farah Haddad',
  'Gabriel Silva',
  'Hana Sato',
  'Isaac Cohen',
  'Jade Nguyen',
  'Kofi Mensah',
  'Lena Müller',
  'Mateo Rossi',
  'Nadia Petrova',
  'Omar Farouk',
  'Priya Raman',
  'Quinn Murphy',
  'Rosa Martínez',
  'Samuel Adeyemi',
  'Tara Singh',
  'Uma Patel',
  'Victor Lindqvist',
  'Wen Li',
  'Ximena López',
  'Yusuf Demir',
  'Zoe Williams',
  'Aiden Walsh',
  'Bianca Costa',
  'Caleb Johnson',
  'Dara Byrne',
];

/** Deterministic, so every run tells the same semester. */
function prng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

/**
 * A semester as the platform would report it: three live lectures a week with chat, weekly practice tests,
 * study time every few days; students differ in how active and how accurate they are, a midterm week
 * draws everyone in, and two students stop coming halfway.
 */
function semesterEvents(start: number, now: number) {
  const random = prng(20250901);
  const pick = (n: number) => Math.floor(random() * n);
  const students = NAMES.map((name, i) => ({
    userId: `demo-student-${String(i + 1).padStart(2, '0')}`,
    name,
    activity: 0.3 + random() * 0.7,
    accuracy: 0.5 + random() * 0.45,
    leavesInWeek: i === 7 || i === 19 ? 8 : Infinity,
  }));
  const events: Record<string, unknown>[] = [];
  const add = (type: string, student: (typeof students)[number], at: number, extra: Record<string, unknown> = {}) => {
    if (at > now) return;
    events.push({
      eventId: `demo-${events.length + 1}`,
      type,
      userId: student.userId,
      userName: student.name,
      occurredAt: new Date(at).toISOString(),
      ...extra,
    });
  };
  for (let week = 0; week < SEMESTER_WEEKS; week++) {
    const intensity = week === 7 ? 1.6 : week === 12 ? 0.5 : 1;
    const weekStart = start + week * 7 * DAY_MS;
    for (const student of students) {
      if (week >= student.leavesInWeek) continue;
      const active = () => random() < student.activity * intensity;
      for (const lectureDay of [0, 2, 4]) {
        const lecture = weekStart + lectureDay * DAY_MS + 14 * 3_600_000;
        if (!active()) continue;
        if (random() < 0.15) add('live_session_created', student, lecture - pick(3_600_000));
        for (let m = pick(8); m > 0; m--) add('live_chat_message_sent', student, lecture + pick(90 * 60_000));
        add('engagement', student, lecture + 90 * 60_000, { value: (45 + pick(45)) * 60_000 });
      }
      const testDay = weekStart + 3 * DAY_MS + 10 * 3_600_000;
      if (active() && random() < 0.3) {
        add('test_created', student, testDay - DAY_MS + pick(8 * 3_600_000));
        for (let q = 1 + pick(5); q > 0; q--)
          add('test_question_created', student, testDay - DAY_MS + pick(10 * 3_600_000));
      }
      if (active()) {
        for (let q = 5 + pick(16); q > 0; q--) {
          add('test_question_answered', student, testDay + pick(4 * 3_600_000), {
            properties: { correct: random() < student.accuracy },
          });
        }
        for (let c = pick(4); c > 0; c--) add('test_chat_question', student, testDay + pick(6 * 3_600_000));
      }
      // Chat outside lectures and tests: the Tutor Me, material and main chats.
      for (const [type, most] of [
        ['tutor_me_message_sent', 6],
        ['material_chat_message_sent', 4],
        ['main_chat_message_sent', 3],
      ] as const) {
        if (active())
          for (let m = pick(most + 1); m > 0; m--)
            add(type, student, weekStart + pick(7) * DAY_MS + (9 + pick(13)) * 3_600_000 + pick(3_600_000));
      }
      if (active() && random() < 0.4) {
        const made = weekStart + (1 + pick(5)) * DAY_MS + (15 + pick(6)) * 3_600_000;
        add('flashcard_set_created', student, made);
        for (let f = 5 + pick(16); f > 0; f--) add('flashcard_created', student, made + 1000 + pick(20 * 60_000));
        for (let c = pick(3); c > 0; c--) add('flashcard_chat_question', student, made + 30 * 60_000 + pick(3_600_000));
      }
      if (active() && random() < 0.1)
        add('explainer_video_created', student, weekStart + pick(7) * DAY_MS + (10 + pick(10)) * 3_600_000);
      for (let s = pick(4); s > 0; s--) {
        if (active())
          add('engagement', student, weekStart + pick(7) * DAY_MS + (16 + pick(6)) * 3_600_000, {
            value: (5 + pick(85)) * 60_000 + pick(60_000),
          });
      }
    }
  }
  return events;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const { db, close } = await openDatabase();
  try {
    const now = Date.now();
    const semesterStart = Math.floor(now / DAY_MS) * DAY_MS - (SEMESTER_WEEKS * 7 - 1) * DAY_MS;
    const organization = await createOrganization(db, 'Demo school');
    const group = await createGroup(db, {
      organizationId: organization.id,
      name: 'Demo class',
      planValidFrom: new Date(semesterStart - 30 * DAY_MS),
      planValidUntil: new Date(now + 365 * DAY_MS),
    });
    const key = generateApiKey();
    const { id: keyId } = await insertApiKey(db, {
      organizationId: organization.id,
      groupId: group.id,
      prefix: key.prefix,
      keyHash: key.hash,
    });
    const principal = {
      keyId,
      organizationId: organization.id,
      groupId: group.id,
      planValidFrom: null,
      planValidUntil: null,
    };

    // Through the same validation and service as POST /api/v1/usage/events, so the counters are the product's.
    const events = semesterEvents(semesterStart, now);
    for (let i = 0; i < events.length; i += BATCH) {
      await recordUsageEvents({ db }, principal, parseEventBatch({ events: events.slice(i, i + BATCH) }));
    }

    const base = config.server.publicUrl;
    const startDate = new Date(semesterStart).toISOString();
    console.log(
      [
        `Demo school: organization ${organization.id}, group ${group.id} ("Demo class", plan active until ${new Date(now + 365 * DAY_MS).toISOString()})`,
        `${NAMES.length} students, ${events.length.toLocaleString('en')} usage events over ${SEMESTER_WEEKS} weeks from ${startDate}`,
        '',
        `API key (Demo class): ${key.apiKey}`,
        '',
        'With quire running (npm start), try:',
        `  curl -X POST -H "x-api-key: ${key.apiKey}" "${base}/api/groups/engagement?startDate=${startDate}"`,
        `  curl -X POST -H "x-api-key: ${key.apiKey}" "${base}/api/groups/tests?startDate=${startDate}&students=true"`,
        `  curl -X POST -H "x-api-key: ${key.apiKey}" "${base}/api/groups/chat?startDate=${startDate.slice(0, 10)}"`,
        `  curl -H "x-api-key: ${key.apiKey}" "${base}/api/v1/usage/events?limit=5"`,
      ].join('\n'),
    );
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(`seed:demo failed: ${(err as Error).message}`);
  process.exit(1);
});
