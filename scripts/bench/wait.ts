import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { createRedis, INTERACTIVE_QUEUE, MATERIALS_QUEUE } from '@quire/queue';
import { startBenchStack } from './bench-stack.ts';
import { machine, positiveInt, printTable, reportWritten, summarize } from './results.ts';

interface Options {
  materials: number;
  concurrency: number;
  pollIntervalMs: number;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      materials: { type: 'string', default: '200' },
      concurrency: { type: 'string', default: '8' },
      // The longest the api allows: a figure far below it cannot come from the database re-read.
      'poll-interval-ms': { type: 'string', default: '60000' },
    },
  });
  const int = (name: keyof typeof values) => positiveInt(values[name], name);
  return { materials: int('materials'), concurrency: int('concurrency'), pollIntervalMs: int('poll-interval-ms') };
}

interface Sample {
  /** Response fully received minus BullMQ's `finishedOn` (the worker marking the job completed). */
  afterFinishedMs: number;
  /** Response fully received minus the row's `updatedAt` (set by the worker's update that made it active). */
  afterSettledMs: number;
  roundTripMs: number;
}

/** Wall-clock milliseconds with sub-millisecond resolution, comparable with other processes' Date.now(). */
const epochNow = () => performance.timeOrigin + performance.now();

export async function run(args: string[]): Promise<void> {
  const o = parseOptions(args);
  const began = performance.now();
  const loadBefore = machine().loadAverage;
  console.log(
    `wait benchmark: ${o.materials} text materials through upload-and-process, one at a time and ${o.concurrency} at a time`,
  );
  const stack = await startBenchStack();
  const redis = createRedis(stack.env.REDIS_URL!, 'producer');
  // upload-and-process: someone waits, so the job runs in the interactive lane, or in the bulk queue when the lane's
  // slots are all taken (8 in flight).
  const queues = [INTERACTIVE_QUEUE, MATERIALS_QUEUE].map(
    (name) => new Queue(name, { connection: redis, prefix: stack.env.QUEUE_PREFIX }),
  );
  try {
    const { url } = await stack.startApi();
    await stack.startWorker();
    const { apiKey } = await stack.newTenant();

    // The worker commits the row before BullMQ marks the job completed; a read landing in between answers
    // before finishedOn exists (a negative overhead), so wait for it here.
    const finishedOnOf = async (jobId: string) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        for (const queue of queues) {
          const job = await queue.getJob(jobId);
          if (job?.finishedOn) return job.finishedOn;
        }
        if (Date.now() > deadline) throw new Error(`job ${jobId} has no finishedOn after 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };

    let sequence = 0;
    const once = async (): Promise<Sample> => {
      const n = ++sequence;
      const sent = epochNow();
      const res = await fetch(`${url}/api/v1/materials/upload-and-process`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({
          name: `Wait ${n}`,
          content: { text: `Note ${n}: the mitochondria is the powerhouse of the cell. `.repeat(4) },
          pollIntervalMs: o.pollIntervalMs,
          timeoutMs: 120_000,
        }),
      });
      const body = (await res.json()) as { _id: string; updatedAt: string; status: string };
      const received = epochNow();
      if (res.status !== 201 || body.status !== 'active')
        throw new Error(`expected 201 active, got ${res.status}: ${JSON.stringify(body)}`);
      const finishedOn = await finishedOnOf(body._id);
      return {
        afterFinishedMs: received - finishedOn,
        afterSettledMs: received - Date.parse(body.updatedAt),
        roundTripMs: received - sent,
      };
    };

    for (let i = 0; i < 5; i++) await once();
    const sequential: Sample[] = [];
    for (let i = 0; i < o.materials; i++) sequential.push(await once());
    const concurrent: Sample[] = [];
    let remaining = o.materials;
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (remaining-- > 0) concurrent.push(await once());
      }),
    );

    const phases = [
      { mode: 'sequential', samples: sequential },
      { mode: `${o.concurrency} concurrent`, samples: concurrent },
    ].map(({ mode, samples }) => ({
      mode,
      afterJobFinished: summarize(samples.map((s) => s.afterFinishedMs)),
      answeredBeforeJobFinished: samples.filter((s) => s.afterFinishedMs < 0).length,
      afterRowSettled: summarize(samples.map((s) => s.afterSettledMs)),
      roundTrip: summarize(samples.map((s) => s.roundTripMs)),
    }));
    const summary = {
      benchmark: 'wait',
      date: new Date().toISOString(),
      machine: { ...machine(), loadAverageBefore: loadBefore },
      pollIntervalMs: o.pollIntervalMs,
      measuredThrough:
        'POST /api/v1/materials/upload-and-process with a content.text of about 240 characters, api and one worker as processes; ' +
        "overhead = time the whole response was received (bench process clock) minus the job's BullMQ finishedOn " +
        "(worker's Date.now() when it marked the job completed; whole milliseconds, so up to 1 ms is truncation); " +
        'negative when the api read the committed row before BullMQ marked the job. ' +
        "afterRowSettled counts from the row's updatedAt instead (set by the worker in the update that made it active).",
      phases,
      totalSeconds: Math.round((performance.now() - began) / 100) / 10,
    };
    console.log('');
    printTable(
      phases.flatMap((p) =>
        (
          [
            ['after job finishedOn', p.afterJobFinished],
            ['after row settled', p.afterRowSettled],
            ['whole round trip', p.roundTrip],
          ] as const
        ).map(([from, s]) => ({
          mode: p.mode,
          measured: from,
          'p50 ms': s.p50,
          'p95 ms': s.p95,
          'p99 ms': s.p99,
          'max ms': s.max,
          n: s.samples,
        })),
      ),
    );
    for (const p of phases) {
      if (p.answeredBeforeJobFinished)
        console.log(
          `${p.mode}: ${p.answeredBeforeJobFinished} answered from the committed row before BullMQ marked the job (negative overhead)`,
        );
    }
    console.log(
      `\npollIntervalMs ${o.pollIntervalMs}: a database re-read cannot explain anything under ${o.pollIntervalMs} ms`,
    );
    await reportWritten('wait', summary, loadBefore);
  } finally {
    await Promise.all(queues.map((queue) => queue.close().catch(() => {})));
    redis.disconnect();
    await stack.stop();
  }
}
