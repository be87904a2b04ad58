import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiCallEvent } from '@quire/db';
import { ApiCallRecorder, type ApiCall, type ApiCallTable } from './api-call-recorder.ts';

const SETTINGS = { mode: 'all', sampleRate: 0.1, retentionDays: 30, flushIntervalMs: 1000, batchMax: 3 } as const;

const call = (n: number): ApiCall => ({
  organizationId: 'org',
  groupId: null,
  occurredAt: new Date('2026-01-01T00:00:00Z'),
  durationMs: n,
  properties: { endpoint: 'GET /api/v1/materials', method: 'GET', status: 200, durationMs: n, keyId: 'k' },
});

function fakeTable(fail = false) {
  const batches: ApiCallEvent[][] = [];
  const deletes: Date[] = [];
  let left = 12_000;
  const table: ApiCallTable = {
    insert: async (events) => {
      if (fail) throw new Error('database down');
      batches.push(events);
    },
    deleteBefore: async (before, limit) => {
      deletes.push(before);
      const deleted = Math.min(left, limit);
      left -= deleted;
      return deleted;
    },
  };
  return { table, batches, deletes };
}

const silent = pino({ level: 'silent' });

describe('ApiCallRecorder', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes nothing on the request path: a batch when batchMax wait, the rest after flushIntervalMs', async () => {
    const { table, batches } = fakeTable();
    const recorder = new ApiCallRecorder(table, SETTINGS, silent);
    for (let n = 1; n <= 4; n++) recorder.record(call(n));
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.map((b) => b.map((e) => e.durationMs))).toEqual([[1, 2, 3]]);
    await vi.advanceTimersByTimeAsync(999);
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches.map((b) => b.map((e) => e.durationMs))).toEqual([[1, 2, 3], [4]]);
    expect(new Set(batches.flat().map((e) => e.eventId)).size).toBe(4);
    expect(batches[0]![0]!.eventId).toMatch(/^api_call:[0-9a-f]{16}:0{9}0$/);
    await recorder.close();
  });

  it('writes what waits at shutdown', async () => {
    const { table, batches } = fakeTable();
    const recorder = new ApiCallRecorder(table, SETTINGS, silent);
    recorder.record(call(1));
    await recorder.close();
    expect(batches.flat()).toHaveLength(1);
  });

  it('drops a batch it cannot write, without failing, and keeps recording', async () => {
    const { table } = fakeTable(true);
    const recorder = new ApiCallRecorder(table, SETTINGS, silent);
    for (let n = 1; n <= 3; n++) recorder.record(call(n));
    await expect(recorder.flush()).resolves.toBeUndefined();
    recorder.record(call(4));
    await expect(recorder.close()).resolves.toBeUndefined();
  });

  it('records every request, a sample of them, or none, as configured', () => {
    const { table } = fakeTable();
    const draws = [0.05, 0.5, 0.09, 0.1];
    const sampled = new ApiCallRecorder(table, { ...SETTINGS, mode: 'sampled' }, silent, () => draws.shift()!);
    expect([sampled.wants(), sampled.wants(), sampled.wants(), sampled.wants()]).toEqual([true, false, true, false]);
    expect(new ApiCallRecorder(table, SETTINGS, silent).wants()).toBe(true);
    expect(new ApiCallRecorder(table, { ...SETTINGS, mode: 'off' }, silent).wants()).toBe(false);
  });

  it('deletes the events past their retention a batch at a time, hourly', async () => {
    const { table, deletes } = fakeTable();
    const recorder = new ApiCallRecorder(table, SETTINGS, silent);
    const now = Date.parse('2026-03-01T00:00:00Z');
    expect(await recorder.prune(now)).toBe(12_000);
    expect(deletes).toHaveLength(3);
    expect(deletes[0]!.toISOString()).toBe('2026-01-30T00:00:00.000Z');
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(deletes).toHaveLength(4);
    await recorder.close();
  });
});
