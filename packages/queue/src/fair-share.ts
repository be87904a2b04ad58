import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * How urgently a material is wanted: `interactive` when a client holds a request open for it (the
 * `*-and-process` endpoints), `bulk` for everything else (uploads answered at once, batch slots, URL imports,
 * reprocessing, the sweeper's re-enqueues, a recording's chunks).
 */
export type ProcessingClass = 'interactive' | 'bulk';

/** Per-organization weights: an organization of weight 2 gets twice the slots of one of weight 1 while both wait. */
export interface FairShareSettings {
  weights: ReadonlyMap<string, number>;
}

export const DEFAULT_WEIGHT = 1;

/** BullMQ 5 accepts priorities 1..2^21; lower runs first, first in first out within one priority. */
export const MAX_PRIORITY = 2 ** 21;
/** Virtual time after which the next drained queue starts priorities again from 1 (far below MAX_PRIORITY). */
const REBASE_AFTER = 2 ** 20;

/**
 * Start-time fair queuing on BullMQ priorities. Every (organization, class) is a flow with the tag of its last
 * job; a new job's tag is max(virtual time, flow's last tag) + 1/weight, and its BullMQ priority is that tag
 * (rounded down, relative to a base). The virtual time is the tag of the job at the front of the queue (read
 * from BullMQ's own prioritized set, so it advances as any worker takes jobs), or the largest tag handed out
 * once nothing waits. A flow that has waited long is therefore never behind another flow's backlog: its next
 * job lands right behind the job at the front. All of it is one script, so any number of api and worker
 * processes compute consistent tags; nothing runs when a job starts or ends.
 *
 * KEYS: prioritized zset, wait list, this module's hash. ARGV: flow, cost (1/weight), jobs, ceiling, rebase-after,
 * and 1 to refuse (return no priorities, change nothing) when the flow already has a job waiting here.
 * Returns one priority per job.
 */
const ASSIGN_PRIORITIES = `
local state = KEYS[3]
local cost = tonumber(ARGV[2])
local jobs = tonumber(ARGV[3])
local ceiling = tonumber(ARGV[4])
local v = tonumber(redis.call('HGET', state, 'v')) or 0
local base = tonumber(redis.call('HGET', state, 'base')) or 0
local maxTag = tonumber(redis.call('HGET', state, 'max')) or 0
local front = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if front[2] then
  v = math.max(v, base + math.floor(tonumber(front[2]) / 4294967296) - 1)
else
  v = math.max(v, maxTag)
  if v - base >= tonumber(ARGV[5]) and redis.call('LLEN', KEYS[2]) == 0 then
    redis.call('DEL', state)
    base = v
    maxTag = v
  end
end
local field = 'flow:' .. ARGV[1]
local last = tonumber(redis.call('HGET', state, field)) or 0
if ARGV[6] == '1' and front[2] and last >= v then
  return {}
end
local tag = math.max(v, last)
local priorities = {}
for i = 1, jobs do
  tag = tag + cost
  priorities[i] = math.min(ceiling, math.max(1, math.floor(tag - base) + 1))
end
redis.call('HSET', state, field, tostring(tag), 'v', tostring(v), 'base', tostring(base), 'max', tostring(math.max(maxTag, tag)))
return priorities
`;

/**
 * Where a waiting job stands. KEYS: prioritized zset, wait list, active list, completed zset.
 * ARGV: job id, window (ms) of completions the throughput is measured over.
 * Returns {found (0/1), jobs ahead, waiting in all, active, completions in the window, oldest of them (ms), now (ms)}.
 */
const POSITION = `
local waiting = redis.call('LLEN', KEYS[2])
local queued = waiting + redis.call('ZCARD', KEYS[1])
local active = redis.call('LLEN', KEYS[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local since = now - tonumber(ARGV[2])
local done = redis.call('ZCOUNT', KEYS[4], since, '+inf')
local oldest = redis.call('ZRANGEBYSCORE', KEYS[4], since, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
local oldestAt = oldest[2] or now
local ahead = -1
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score then
  ahead = waiting + redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. score)
else
  local index = redis.call('LPOS', KEYS[2], ARGV[1])
  if index then ahead = waiting - 1 - index end
end
return {ahead, queued, active, done, oldestAt, now}
`;

/**
 * Jobs waiting for a slot, by the organization in their data. Only the first \`limit\` are read (the script
 * blocks Redis while it runs); the rest are reported unscanned. KEYS: wait list, prioritized zset.
 * ARGV: job key prefix, limit. Returns {queued, organization, count, organization, count, ...}.
 */
const BY_ORGANIZATION = `
local limit = tonumber(ARGV[2])
local counts = {}
local function count(id)
  local data = redis.call('HGET', ARGV[1] .. id, 'data')
  local org = data and string.match(data, '"organizationId":"([^"]+)"') or ''
  counts[org] = (counts[org] or 0) + 1
end
local waiting = redis.call('LRANGE', KEYS[1], 0, limit - 1)
for _, id in ipairs(waiting) do count(id) end
if #waiting < limit then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, limit - #waiting - 1)) do count(id) end
end
local result = {redis.call('LLEN', KEYS[1]) + redis.call('ZCARD', KEYS[2])}
for org, n in pairs(counts) do
  result[#result + 1] = org
  result[#result + 1] = n
end
return result
`;

type AnyQueue = Pick<Queue, 'client' | 'keys' | 'toKey'>;
/** The materials queue and its interactive lane (see materials-queue.ts). */
interface Lanes {
  lanes(): AnyQueue[];
}

/** BullMQ's connection is the ioredis client quire hands it; its interface type just omits EVAL. */
async function redisOf(queue: AnyQueue): Promise<Redis> {
  return (await queue.client) as unknown as Redis;
}

export function weightOf(settings: FairShareSettings | undefined, organizationId: string): number {
  return settings?.weights.get(organizationId) ?? DEFAULT_WEIGHT;
}

/**
 * The BullMQ priorities of the next `jobs` jobs of one organization's class, in order. One Redis round trip.
 * With `unlessWaiting`, none (an empty list) when the flow already has a job waiting in this queue.
 */
export async function assignPriorities(
  queue: AnyQueue,
  flow: { organizationId: string; processingClass: ProcessingClass; weight: number },
  jobs = 1,
  options: { unlessWaiting?: boolean } = {},
): Promise<number[]> {
  if (jobs === 0) return [];
  const client = await redisOf(queue);
  const priorities = (await client.eval(
    ASSIGN_PRIORITIES,
    3,
    queue.keys.prioritized!,
    queue.keys.wait!,
    queue.toKey('fair-share'),
    `${flow.organizationId}:${flow.processingClass}`,
    String(1 / flow.weight),
    String(jobs),
    String(MAX_PRIORITY),
    String(REBASE_AFTER),
    options.unlessWaiting ? '1' : '0',
  )) as number[];
  return priorities;
}

export interface PendingPosition {
  /** Jobs that will be taken before this one (0: it is next). */
  ahead: number;
  /** Jobs waiting for a slot, this one included. */
  queued: number;
  /** Jobs running now, on every worker. */
  active: number;
  /**
   * `ahead + 1` jobs at the rate the fleet finished jobs over the last minutes; null when it finished too
   * few to tell. Other organizations' jobs that arrive meanwhile may still go ahead (fair sharing), so it
   * is an estimate, not a promise.
   */
  estimatedWaitMs: number | null;
}

const THROUGHPUT_WINDOW_MS = 10 * 60_000;
const MIN_COMPLETIONS = 3;

/**
 * Where the material's job stands among the jobs of its lane waiting for a slot; null when it is not waiting
 * (running, done, gone). One Redis round trip per lane.
 */
export async function pendingPosition(queue: Lanes, materialId: string): Promise<PendingPosition | null> {
  for (const lane of queue.lanes()) {
    const position = await lanePosition(lane, materialId);
    if (position) return position;
  }
  return null;
}

async function lanePosition(queue: AnyQueue, materialId: string): Promise<PendingPosition | null> {
  const client = await redisOf(queue);
  const [ahead, queued, active, done, oldestAt, now] = (
    (await client.eval(
      POSITION,
      4,
      queue.keys.prioritized!,
      queue.keys.wait!,
      queue.keys.active!,
      queue.keys.completed!,
      materialId,
      String(THROUGHPUT_WINDOW_MS),
    )) as (number | string)[]
  ).map(Number) as [number, number, number, number, number, number];
  if (ahead < 0) return null;
  const span = now - oldestAt;
  const estimatedWaitMs = done >= MIN_COMPLETIONS && span > 0 ? Math.round(((ahead + 1) * span) / done) : null;
  return { ahead, queued, active, estimatedWaitMs };
}

export interface OrganizationDepth {
  /** Jobs waiting for a slot, by organization id ('unknown' for jobs enqueued without one). */
  byOrganization: Map<string, number>;
  /** Waiting jobs beyond the scan limit, not attributed to an organization. */
  unscanned: number;
}

/** Jobs waiting for a slot per organization, in both lanes, reading at most `limit` of each. One Redis round trip a lane. */
export async function queuedByOrganization(queue: Lanes, limit = 10_000): Promise<OrganizationDepth> {
  const total: OrganizationDepth = { byOrganization: new Map(), unscanned: 0 };
  for (const lane of queue.lanes()) {
    const { byOrganization, unscanned } = await laneDepth(lane, limit);
    for (const [org, count] of byOrganization)
      total.byOrganization.set(org, (total.byOrganization.get(org) ?? 0) + count);
    total.unscanned += unscanned;
  }
  return total;
}

async function laneDepth(queue: AnyQueue, limit: number): Promise<OrganizationDepth> {
  const client = await redisOf(queue);
  const [queued, ...pairs] = (await client.eval(
    BY_ORGANIZATION,
    2,
    queue.keys.wait!,
    queue.keys.prioritized!,
    queue.toKey(''),
    String(limit),
  )) as (number | string)[];
  const byOrganization = new Map<string, number>();
  let scanned = 0;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const count = Number(pairs[i + 1]);
    byOrganization.set(String(pairs[i]) || 'unknown', count);
    scanned += count;
  }
  return { byOrganization, unscanned: Number(queued) - scanned };
}
