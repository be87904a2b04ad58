import type { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { pendingPosition } from '@quire/queue';
import {
  parsePrometheusText,
  sampleValue,
  startTestStack,
  startWorkerProcess,
  waitUntil,
  type ServiceProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

const METRICS_TOKEN = 'fair-share-metrics-token-0123';
let stacks: TestStack[] = [];
let workers: ServiceProcess[] = [];

afterEach(async () => {
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  await Promise.all(stacks.map((s) => s.close()));
  stacks = [];
  workers = [];
});

/** A stack whose queue fills up before any worker runs, so the order jobs are taken in is the queue's alone. */
async function stackWithoutWorker(): Promise<TestStack> {
  const stack = await startTestStack({
    worker: false,
    config: { WORKER_CONCURRENCY: '1', METRICS_TOKEN, WORKER_SHUTDOWN_MS: '20000' },
  });
  stacks.push(stack);
  return stack;
}

async function createNotes(tenant: Tenant, label: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { data, response } = await tenant.client.POST('/api/v1/materials', {
      body: {
        name: `${label} ${i}`,
        content: { text: `Note ${i} of ${label}: osmosis moves water across a membrane.` },
      },
    });
    expect(response.status).toBe(201);
    ids.push(data!._id);
  }
  return ids;
}

/** A lane's events, from its event stream: ids are Redis's own clock, so they order the events exactly. */
async function laneEvents(lane: Queue, event: string): Promise<{ id: string; jobId: string }[]> {
  const client = await lane.client;
  const entries = (await client.xrange(lane.keys.events!, '-', '+')) as [string, string[]][];
  return entries
    .map(([id, fields]) => ({
      id,
      ...Object.fromEntries(fields.flatMap((f, i) => (i % 2 === 0 ? [[f, fields[i + 1]]] : []))),
    }))
    .filter((e) => e.event === event)
    .map((e) => ({ id: e.id, jobId: e.jobId as string }));
}

/** Bulk job ids in the order workers took them. */
async function takenOrder(stack: TestStack): Promise<string[]> {
  return (await laneEvents(stack.api.queue, 'active')).map((e) => e.jobId);
}

const streamTime = (id: string) => id.split('-').map(Number) as [number, number];
const before = (a: string, b: string) => {
  const [x, y] = [streamTime(a), streamTime(b)];
  return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
};

async function completedCounts(stack: TestStack): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { jobId } of await laneEvents(stack.api.queue, 'completed'))
    counts.set(jobId, (counts.get(jobId) ?? 0) + 1);
  return counts;
}

async function allActive(stack: TestStack, tenant: Tenant, ids: string[]): Promise<boolean> {
  const statuses = await Promise.all(
    ids.map(async (id) => (await tenant.client.GET('/api/v1/materials/{id}', { params: { path: { id } } })).data!),
  );
  return statuses.every((m) => m.status === 'active');
}

/** The longest run of `ids` taken one after another in `order` before every job of `others` had been taken. */
function longestRunBefore(order: string[], ids: Set<string>, others: Set<string>): number {
  let longest = 0;
  let run = 0;
  let othersLeft = others.size;
  for (const id of order) {
    if (othersLeft === 0) break;
    if (others.has(id)) {
      othersLeft--;
      run = 0;
    } else if (ids.has(id)) {
      longest = Math.max(longest, ++run);
    }
  }
  return longest;
}

describe('fair sharing of the processing slots', () => {
  it("takes organization B's material before organization A's backlog is done, and shows where each waits", async () => {
    const stack = await stackWithoutWorker();
    const a = await stack.newTenant();
    const b = await stack.newTenant();
    const backlog = await createNotes(a, 'A bulk', 12);
    const [note] = await createNotes(b, 'B note', 1);
    // Someone of A waits for this one: it goes to the interactive lane, not behind A's own import.
    const waiting = a.client.POST('/api/v1/materials/upload-and-process', {
      body: { name: 'A waits', content: { text: 'A question someone is waiting for.' }, timeoutMs: 120_000 },
    });
    let waitingId = '';
    await waitUntil(
      async () => {
        const jobs = await stack.api.queue.interactive!.getJobs(['waiting', 'prioritized']);
        waitingId = jobs[0]?.id ?? '';
        return waitingId !== '';
      },
      10_000,
      "A's waiting request to be queued",
    );

    expect((await pendingPosition(stack.api.queue, note!))?.ahead).toBeLessThanOrEqual(2);
    expect(await pendingPosition(stack.api.queue, backlog.at(-1)!)).toMatchObject({ ahead: 12, queued: 13 });
    expect(await pendingPosition(stack.api.queue, waitingId)).toMatchObject({ ahead: 0, queued: 1 });
    // What a client sees of it: job-status of a pending material says where it stands.
    const status = await b.client.GET('/api/v1/materials/{id}/job-status', { params: { path: { id: note! } } });
    expect(status.data).toMatchObject({ status: 'pending', queue: { queued: 13, estimatedWaitMs: null } });
    expect(status.data!.queue!.jobsAhead).toBeLessThanOrEqual(2);

    const res = await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const samples = parsePrometheusText(await res.text());
    const depth = (organization: string) =>
      sampleValue(samples, 'quire_queue_waiting_by_organization', { organization });
    expect(depth(a.organizationId)).toBe(13);
    expect(depth(b.organizationId)).toBe(1);

    await stack.startWorker();
    const answer = await waiting;
    expect(answer.response.status).toBe(201);
    expect(answer.data!._id).toBe(waitingId);
    await waitUntil(() => allActive(stack, a, backlog), 60_000, "A's backlog to be processed");
    await waitUntil(() => allActive(stack, b, [note!]), 60_000, "B's note to be processed");

    const order = await takenOrder(stack);
    expect(order).toHaveLength(13);
    // One queue, first in first out, took B's note 13th, after all of A's import.
    expect(order.indexOf(note!)).toBeLessThanOrEqual(2);
    const bulkTaken = await laneEvents(stack.api.queue, 'active');
    const [interactiveTaken] = await laneEvents(stack.api.queue.interactive!, 'active');
    expect(interactiveTaken?.jobId).toBe(waitingId);
    expect(before(interactiveTaken!.id, bulkTaken.at(-1)!.id)).toBe(true);
    expect(await pendingPosition(stack.api.queue, note!)).toBeNull();
  });

  it('sends an organization importing through *-and-process to the bulk slots too, without taking the lane from others', async () => {
    const stack = await stackWithoutWorker();
    const a = await stack.newTenant();
    const b = await stack.newTenant();
    const { queue } = stack.api;
    const queued = async () => {
      const [bulk, interactive] = await Promise.all(
        queue.lanes().map((lane) => lane.getJobs(['waiting', 'prioritized'])),
      );
      return { bulk: bulk!.map((j) => j.id!), interactive: interactive!.map((j) => j.id!) };
    };
    const post = (tenant: Tenant, name: string) =>
      tenant.client.POST('/api/v1/materials/upload-and-process', {
        body: { name, content: { text: `${name}: a question someone waits for.` }, timeoutMs: 120_000 },
      });
    const requests: ReturnType<typeof post>[] = [];
    const send = async (tenant: Tenant, name: string) => {
      const before = await queued();
      const count = before.bulk.length + before.interactive.length;
      requests.push(post(tenant, name));
      await waitUntil(
        async () => {
          const now = await queued();
          return now.bulk.length + now.interactive.length > count;
        },
        10_000,
        `${name} to be queued`,
      );
    };
    for (let i = 0; i < 4; i++) await send(a, `A ${i}`);
    await send(b, 'B');

    const lanes = await queued();
    expect(lanes.interactive).toHaveLength(2);
    expect(lanes.bulk).toHaveLength(3);
    await stack.startWorker();
    const answers = await Promise.all(requests);
    expect(answers.map((r) => r.response.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = answers.map((r) => r.data!._id);
    // A's first waits in the interactive lane, its next three go to the bulk lane; B still gets the interactive lane.
    expect(lanes.interactive).toEqual(expect.arrayContaining([ids[0], ids[4]]));
    expect(lanes.bulk).toEqual(expect.arrayContaining(ids.slice(1, 4)));
  });

  it('interleaves two organizations with two worker processes taking jobs', async () => {
    const stack = await stackWithoutWorker();
    const a = await stack.newTenant();
    const b = await stack.newTenant();
    const backlog = await createNotes(a, 'A bulk', 20);
    const notes = await createNotes(b, 'B note', 5);

    workers.push(await startWorkerProcess({ ...stack.env, WORKER_CONCURRENCY: '1' }));
    workers.push(await startWorkerProcess({ ...stack.env, WORKER_CONCURRENCY: '1' }));
    await waitUntil(() => allActive(stack, a, backlog), 60_000, "A's backlog to be processed");
    await waitUntil(() => allActive(stack, b, notes), 60_000, "B's notes to be processed");

    const order = await takenOrder(stack);
    expect(new Set(order)).toEqual(new Set([...backlog, ...notes]));
    const lastOfB = Math.max(...notes.map((id) => order.indexOf(id)));
    // Turn about: B's five are all taken within the first dozen, not after A's twenty.
    expect(lastOfB).toBeLessThan(12);
    expect(longestRunBefore(order, new Set(backlog), new Set(notes))).toBeLessThanOrEqual(2);
  });

  it('gives an organization of weight 3 three turns for each of an organization of weight 1', async () => {
    const stack = await stackWithoutWorker();
    const heavy = await stack.newTenant();
    const light = await stack.newTenant();
    // As FAIR_SHARE_WEIGHTS=<heavy>=3 would at startup (the organization only exists now).
    stack.api.queue.fairShare = { weights: new Map([[heavy.organizationId, 3]]) };
    const heavyIds = new Set(await createNotes(heavy, 'Heavy', 24));
    const lightIds = new Set(await createNotes(light, 'Light', 8));

    await stack.startWorker();
    await waitUntil(() => allActive(stack, heavy, [...heavyIds]), 60_000, "the heavy organization's notes");
    await waitUntil(() => allActive(stack, light, [...lightIds]), 60_000, "the light organization's notes");

    const firstSixteen = (await takenOrder(stack)).slice(0, 16);
    const heavyTurns = firstSixteen.filter((id) => heavyIds.has(id)).length;
    expect(heavyTurns).toBeGreaterThanOrEqual(11);
    expect(heavyTurns).toBeLessThanOrEqual(13);
  });

  it('loses and duplicates nothing when the worker restarts mid-backlog, and keeps the turns', async () => {
    const stack = await stackWithoutWorker();
    const a = await stack.newTenant();
    const b = await stack.newTenant();
    const backlog = await createNotes(a, 'A bulk', 40);
    const notes = await createNotes(b, 'B note', 10);
    const all = [...backlog, ...notes];

    const first = await startWorkerProcess({ ...stack.env, WORKER_CONCURRENCY: '1' });
    workers.push(first);
    await waitUntil(async () => (await takenOrder(stack)).length >= 4, 30_000, 'the first worker to take jobs');
    first.child.kill('SIGTERM');
    await first.exited;
    const takenBeforeRestart = (await takenOrder(stack)).length;
    expect(takenBeforeRestart).toBeLessThan(all.length);

    workers.push(await startWorkerProcess({ ...stack.env, WORKER_CONCURRENCY: '1' }));
    await waitUntil(() => allActive(stack, a, backlog), 60_000, "A's backlog to be processed");
    await waitUntil(() => allActive(stack, b, notes), 60_000, "B's notes to be processed");

    // (A material is active once its job has published it; the job's completion is recorded after that.)
    await waitUntil(async () => (await completedCounts(stack)).size >= all.length, 10_000, 'every job to complete');
    const order = await takenOrder(stack);
    expect(order).toHaveLength(all.length);
    expect(new Set(order)).toEqual(new Set(all));
    const completed = await completedCounts(stack);
    expect([...completed.values()].every((n) => n === 1)).toBe(true);
    expect(completed.size).toBe(all.length);
    expect(longestRunBefore(order, new Set(backlog), new Set(notes))).toBeLessThanOrEqual(2);
  });
});
