import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processMaterial } from '@quire/worker';
import {
  makePdf,
  sdk,
  sdkQuery,
  sendJson,
  startTestStack,
  type StorageDriver,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

/**
 * The public SDK's usage calls (`studyfetch-sdk` 0.1.0a32) as its users make them: every literal of
 * `UsageListEventsParams` and `UsageGetSummaryParams` (`@quire/testkit` sdk-types) sent through HTTP, the events
 * quire records of its own work found by `eventType` and `resourceId`, and downloads a browser can show.
 */
const ACTIVE_PLAN = {
  planValidFrom: new Date('2024-01-01T00:00:00Z'),
  planValidUntil: new Date('2100-01-01T00:00:00Z'),
};
const EVENT_TYPES = sdk.UsageListEventsParams.shape.eventType.unwrap().options;
const PERIODS = sdk.UsageGetSummaryParams.shape.period.options;
const GROUP_BYS = [undefined, ...sdk.UsageGetSummaryParams.shape.groupBy.unwrap().options];

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  // No worker: the test runs each job itself, twice where BullMQ could.
  stack = await startTestStack({ worker: false, config: { API_CALL_EVENTS: 'all', API_CALL_FLUSH_MS: '600000' } });
  tenant = await stack.newTenant({ group: ACTIVE_PLAN });
});
afterAll(() => stack?.close());

interface ListedEvent {
  eventId: string;
  type: string;
  userId: string | null;
  groupId: string | null;
  resourceId: string | null;
  value: number | null;
  properties: Record<string, unknown> | null;
}

async function listEvents(t: Tenant, params: Parameters<typeof sdkQuery<typeof sdk.UsageListEventsParams>>[1]) {
  const res = await t.request(`/api/v1/usage/events?${sdkQuery(sdk.UsageListEventsParams, params)}`);
  expect(res.status, JSON.stringify(params)).toBe(200);
  return ((await res.json()) as { events: ListedEvent[] }).events;
}

async function summary(t: Tenant, params: Parameters<typeof sdkQuery<typeof sdk.UsageGetSummaryParams>>[1]) {
  const res = await t.request(`/api/v1/usage/summary?${sdkQuery(sdk.UsageGetSummaryParams, params)}`);
  return { status: res.status, body: await res.json() };
}

const jobFor = (materialId: string) =>
  ({
    id: materialId,
    data: { materialId },
    attemptsMade: 0,
    opts: { attempts: 3 },
    updateProgress: async () => {},
  }) as unknown as Job<{ materialId: string }>;

/** Runs a material's job twice at once, as BullMQ may after a stall, then once more. */
async function processTwice(id: string) {
  const deps = { db: stack.db, store: stack.store, config: stack.config, logger: stack.api.logger };
  const runs = await Promise.all([processMaterial(jobFor(id), deps), processMaterial(jobFor(id), deps)]);
  expect(runs.map((r) => r.status).sort()).toEqual(['active', 'skipped']);
  expect((await processMaterial(jobFor(id), deps)).status).toBe('skipped');
}

async function uploadPdf(t: Tenant, filename: string) {
  const form = new FormData();
  form.append('name', filename);
  form.append('file', new Blob([await makePdf(['Comets are icy bodies.'])]), filename);
  const res = await t.request('/api/v1/materials/upload', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as { _id: string };
}

describe("the SDK's usage.list_events", () => {
  it('sends every eventType literal the SDK allows: each is accepted, stored and found by its type', async () => {
    expect(EVENT_TYPES).toHaveLength(24);
    const occurredAt = '2026-01-05T10:00:00.000Z';
    const events = EVENT_TYPES.map((type) => ({
      eventId: `sdk-${type}`,
      type,
      userId: 'sdk-user',
      occurredAt,
      ...(type === 'test_question_answered' ? { properties: { correct: true } } : {}),
    }));
    const posted = await sendJson(tenant, 'POST', '/api/v1/usage/events', { events });
    expect(posted.status, await posted.clone().text()).toBe(200);
    expect(await posted.json()).toEqual({ accepted: 24, duplicates: 0 });
    for (const eventType of EVENT_TYPES) {
      const found = await listEvents(tenant, { eventType, userId: 'sdk-user' });
      expect({ eventType, found: found.map((e) => e.eventId) }).toEqual({ eventType, found: [`sdk-${eventType}`] });
    }
    // Every parameter the SDK sends at once, with its numbers as the SDK writes floats.
    const all = await listEvents(tenant, {
      startDate: '2026-01-05',
      endDate: '2026-01-05',
      eventType: 'sso_login',
      groupId: tenant.groupId!,
      userId: 'sdk-user',
      resourceId: 'nothing-about-this',
      limit: 10,
      offset: 0,
    });
    expect(all).toEqual([]);
  });

  it('counts none of the SDK-only types in the reports: the summary sees the two analytics types among them', async () => {
    const reporter = await stack.newTenant({ group: ACTIVE_PLAN });
    const events = EVENT_TYPES.map((type) => ({
      eventId: `r-${type}`,
      type,
      userId: 'counted',
      occurredAt: '2026-02-02T10:00:00.000Z',
      ...(type === 'test_question_answered' ? { properties: { correct: false } } : {}),
    }));
    expect((await sendJson(reporter, 'POST', '/api/v1/usage/events', { events })).status).toBe(200);
    const { status, body } = await summary(reporter, {
      period: 'daily',
      startDate: '2026-02-02',
      endDate: '2026-02-02',
    });
    expect(status).toBe(200);
    expect(body.totals.events).toBe(2);
    expect(body.totals.byType).toMatchObject({ test_created: 1, test_question_answered: 1 });
    expect(Object.keys(body.totals.byType)).not.toContain('sso_login');
  });
});

describe("the SDK's usage.get_summary", () => {
  it('answers 200 for every period and groupBy literal the SDK allows', async () => {
    for (const period of PERIODS) {
      for (const groupBy of GROUP_BYS) {
        const { status, body } = await summary(tenant, {
          period,
          startDate: '2026-01-05T00:00:00Z',
          endDate: '2026-01-05T23:59:59Z',
          ...(groupBy ? { groupBy } : {}),
        });
        expect({ period, groupBy, status }, JSON.stringify(body)).toEqual({ period, groupBy, status: 200 });
        expect(body.groupBy).toBe(groupBy ?? null);
      }
    }
  });

  it('groupBy=model files the events under one model, none', async () => {
    const { body } = await summary(tenant, {
      period: 'daily',
      startDate: '2026-01-05',
      endDate: '2026-01-05',
      groupBy: 'model',
    });
    expect(body.summary).toHaveLength(1);
    expect(body.summary[0]).toMatchObject({ model: 'none', events: 2 });
  });
});

describe("quire's own events", () => {
  it('a material created, uploaded, processed (its job run twice), reprocessed and deleted: each event once', async () => {
    const { _id: id } = await uploadPdf(tenant, 'events.pdf');
    await processTwice(id);
    const once = async (eventType: (typeof EVENT_TYPES)[number]) => {
      const found = await listEvents(tenant, { eventType, resourceId: id });
      return found;
    };
    expect((await once('material_created')).length).toBe(1);
    expect((await once('material_uploaded')).length).toBe(1);
    const [processed, ...more] = await once('material_processed');
    expect(more).toEqual([]);
    expect(processed).toMatchObject({
      type: 'material_processed',
      resourceId: id,
      userId: null,
      groupId: null,
      properties: { outcome: 'active', contentType: 'pdf', durationMs: expect.any(Number) },
    });
    expect(processed!.value).toBe(processed!.properties!.durationMs);

    // A reprocessed material is processed again: a second event, once however often its job runs.
    expect((await tenant.request(`/api/v1/materials/${id}/reprocess`, { method: 'POST' })).status).toBe(200);
    await processTwice(id);
    const twice = await once('material_processed');
    expect(twice).toHaveLength(2);
    expect(new Set(twice.map((e) => e.eventId)).size).toBe(2);

    expect((await tenant.request(`/api/v1/materials/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await tenant.request(`/api/v1/materials/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await once('material_deleted')).toHaveLength(1);

    const all = await listEvents(tenant, { resourceId: id });
    expect(all.map((e) => e.type).sort()).toEqual([
      'material_created',
      'material_deleted',
      'material_processed',
      'material_processed',
      'material_uploaded',
    ]);
    // An organization key sees them too; another organization does not.
    const orgKey = await stack.newKey(tenant.organizationId);
    expect(await listEvents(orgKey, { resourceId: id })).toHaveLength(5);
    expect(await listEvents(await stack.newTenant(), { resourceId: id })).toEqual([]);
  });

  it('an upload URL completed twice records its arrival once; a failed run is processed with outcome error', async () => {
    const res = await sendJson(tenant, 'POST', '/api/v1/materials/upload/presigned-url', {
      filename: 'broken.pdf',
      contentType: 'application/pdf',
      name: 'Broken',
    });
    expect(res.status).toBe(200);
    const handle = (await res.json()) as { materialId: string; s3Key: string; uploadUrl: string };
    expect(await listEvents(tenant, { resourceId: handle.materialId, eventType: 'material_uploaded' })).toEqual([]);
    const body = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64, 0x41)]);
    expect((await fetch(handle.uploadUrl, { method: 'PUT', body })).status).toBe(200);
    const completion = { materialId: handle.materialId, s3Key: handle.s3Key };
    expect((await sendJson(tenant, 'POST', '/api/v1/materials/upload/complete', completion)).status).toBe(200);
    const again = await sendJson(tenant, 'POST', '/api/v1/materials/upload/complete', completion);
    expect(again.status, await again.clone().text()).toBeLessThan(500);
    expect(await listEvents(tenant, { resourceId: handle.materialId, eventType: 'material_uploaded' })).toHaveLength(1);

    const deps = { db: stack.db, store: stack.store, config: stack.config, logger: stack.api.logger };
    await processMaterial(jobFor(handle.materialId), deps).catch(() => undefined);
    const material = await (await tenant.request(`/api/v1/materials/${handle.materialId}`)).json();
    expect(material.status).toBe('error');
    const [failed, ...more] = await listEvents(tenant, {
      resourceId: handle.materialId,
      eventType: 'material_processed',
    });
    expect(more).toEqual([]);
    expect(failed!.properties).toMatchObject({ outcome: 'error', errorCode: material.metadata.error.code });
  });

  it('records each API request as api_call with its endpoint template, and summarizes them by endpoint', async () => {
    const caller = await stack.newTenant({ group: ACTIVE_PLAN });
    for (let i = 0; i < 3; i++) expect((await caller.request(`/api/v1/materials/missing-${i}`)).status).toBe(404);
    expect((await caller.request('/api/v1/materials')).status).toBe(200);
    await stack.api.apiCalls.flush();

    const calls = await listEvents(caller, { eventType: 'api_call' });
    const byEndpoint = (endpoint: string) => calls.filter((e) => e.properties?.endpoint === endpoint);
    expect(byEndpoint('GET /api/v1/materials/{id}')).toHaveLength(3);
    expect(byEndpoint('GET /api/v1/materials')).toHaveLength(1);
    expect(byEndpoint('GET /api/v1/materials/{id}')[0]).toMatchObject({
      type: 'api_call',
      groupId: caller.groupId,
      userId: null,
      properties: { method: 'GET', status: 404, keyId: caller.keyId, durationMs: expect.any(Number) },
    });

    const today = new Date().toISOString().slice(0, 10);
    const { status, body } = await summary(caller, {
      period: 'daily',
      startDate: today,
      endDate: today,
      groupBy: 'endpoint',
    });
    expect(status).toBe(200);
    const rows = body.summary as { endpoint: string; events: number; durationMs: number }[];
    expect(rows.find((r) => r.endpoint === 'GET /api/v1/materials/{id}')).toMatchObject({ events: 3 });
    expect(rows.find((r) => r.endpoint === 'GET /api/v1/materials')).toMatchObject({ events: 1 });
    // The analytics figures of the same day do not move.
    const plain = await summary(caller, { period: 'daily', startDate: today, endDate: today });
    expect(plain.body.totals.events).toBe(0);
  });
});

describe.each<StorageDriver>(['local', 's3'])('downloads (%s driver)', (driver) => {
  let own: TestStack;
  let t: Tenant;
  beforeAll(async () => {
    own = driver === 'local' ? stack : await startTestStack({ worker: false, storage: driver });
    t = driver === 'local' ? tenant : await own.newTenant();
  });
  afterAll(async () => {
    if (own !== stack) await own?.close();
  });

  it("serves a PDF's download URL as application/pdf, inline with its file name; download=1 as an attachment", async () => {
    const { _id: id } = await uploadPdf(t, 'Résumé notes.pdf');
    const urlOf = async (query = '') => {
      const res = await t.request(`/api/v1/materials/${id}/download-url${query}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { downloadUrl: string }).downloadUrl;
    };
    const shown = await fetch(await urlOf());
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('application/pdf');
    expect(shown.headers.get('content-disposition')).toBe(
      `inline; filename="R?sum? notes.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20notes.pdf`,
    );
    expect(
      Buffer.from(await shown.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const saved = await fetch(await urlOf('?download=1'));
    expect(saved.status).toBe(200);
    expect(saved.headers.get('content-type')).toBe('application/pdf');
    expect(saved.headers.get('content-disposition')).toMatch(/^attachment; filename="R\?sum\? notes\.pdf"/);
    await saved.arrayBuffer();
  });
});
