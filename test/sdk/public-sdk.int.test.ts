import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pdfWithPictures,
  readAsSdk,
  sdk,
  sendJson,
  speechAudio,
  startTestStack,
  waitForStatus,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

/**
 * Every answer of the methods the public service's SDK (`studyfetch-sdk` 0.1.0a32) found missing or misshapen,
 * read with that SDK's own response types (`@quire/testkit` sdk-types): a drift from the public wire fails here.
 */
let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  // No worker at first: a material can be seen waiting for its turn.
  stack = await startTestStack({ worker: false });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const getJson = async (t: Tenant, pathname: string, status = 200) => {
  const res = await t.request(pathname);
  expect(res.status, pathname).toBe(status);
  return res.json();
};

async function created(t: Tenant, pathname: string, body: unknown) {
  const res = await sendJson(t, 'POST', pathname, body);
  expect(res.status, pathname).toBe(201);
  return res.json();
}

/** Uploads a file and waits for it, then reads its debug answer as the SDK's `get_debug_info` does. */
async function processedWithDebug(name: string, file: Blob, filename: string) {
  const form = new FormData();
  form.append('name', name);
  form.append('file', file, filename);
  const m = await (
    await tenant.request('/api/v1/materials/upload/file-and-process', { method: 'POST', body: form })
  ).json();
  expect(m.status).toBe('active');
  const debug = readAsSdk(
    sdk.MaterialGetDebugInfoResponse,
    await getJson(tenant, `/api/v1/materials/${m._id}/debug`),
    'debug',
  );
  return { m, debug };
}

describe('job status', () => {
  it('is pending while queued, then completed with a result summary, as the SDK reads it', async () => {
    const m = await created(tenant, '/api/v1/materials', {
      name: 'Queued',
      content: { text: 'Waiting for a worker.' },
    });
    const pending = readAsSdk(
      sdk.MaterialGetJobStatusResponse,
      await getJson(tenant, `/api/v1/materials/${m._id}/job-status`),
      'job-status',
    );
    expect(pending).toMatchObject({ jobId: m._id, status: 'pending', progress: { percentage: 0 } });
    expect(pending.startedAt).toBeUndefined();

    await stack.startWorker();
    await waitForStatus(tenant, m._id, ['active']);
    const done = readAsSdk(
      sdk.MaterialGetJobStatusResponse,
      await getJson(tenant, `/api/v1/materials/${m._id}/job-status`),
      'job-status',
    );
    expect(done).toMatchObject({
      status: 'completed',
      progress: { percentage: 100 },
      resultSummary: { textExtracted: true, textLength: 'Waiting for a worker.'.length, imagesProcessed: 0 },
    });
    expect(Date.parse(done.completedAt!)).toBeGreaterThanOrEqual(Date.parse(done.startedAt!));
    expect(done.resultSummary!.processingTimeMs).toBeGreaterThanOrEqual(0);
  });

  it('is failed with the message when processing failed, and 404 for another organization', async () => {
    const form = new FormData();
    form.append('name', 'Broken');
    form.append('file', new Blob([Buffer.from('%PDF-1.7\n this is not a PDF body at all\n%%EOF')]), 'broken.pdf');
    const m = await (await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form })).json();
    const settled = await waitForStatus(tenant, m._id, ['error', 'active']);
    expect(settled.status).toBe('error');
    const failed = readAsSdk(
      sdk.MaterialGetJobStatusResponse,
      await getJson(tenant, `/api/v1/materials/${m._id}/job-status`),
      'job-status',
    );
    expect(failed).toMatchObject({ status: 'failed', error: settled.metadata.error.message });
    const other = await stack.newTenant();
    expect((await getJson(other, `/api/v1/materials/${m._id}/job-status`, 404)).statusCode).toBe(404);
  });
});

describe('debug info', () => {
  it("shows a PDF's row as stored and its images with page index and a working URL", async () => {
    await stack.startWorker();
    const pictures = new Blob([await pdfWithPictures(2, [{ page: 2, width: 300, height: 200 }])]);
    const { m, debug } = await processedWithDebug('Pictures', pictures, 'p.pdf');
    expect(debug).toMatchObject({ materialId: m._id, name: 'Pictures', status: 'active', contentType: 'pdf' });
    expect(debug.metadata).toMatchObject({ pageCount: 2, wordCount: m.metadata.wordCount });
    expect(debug.content).toMatchObject({ s3Key: m.content.s3Key, filename: 'p.pdf' });
    expect(debug.images).toHaveLength(1);
    expect(debug.images[0]).toMatchObject({
      id: m.metadata.images[0].id,
      pageIndex: 1,
      s3Key: m.metadata.images[0].s3Key,
    });
    expect(debug.images[0]!.description).toContain('page 2');
    expect((await fetch(debug.images[0]!.s3Url!)).status).toBe(200);
    expect(debug.transcriptStructure).toBeUndefined();
  });

  it("gives a recording's transcript structure", async () => {
    const speech = new Blob([await speechAudio('wav')], { type: 'audio/wav' });
    const { debug } = await processedWithDebug('Speech', speech, 'speech.wav');
    expect(debug.transcriptStructure).toMatchObject({ engine: 'pocketsphinx', chunked: false, chunks: [] });
  });
});

describe('folders', () => {
  it('lists and nests folders as bare arrays and details one with its materials', async () => {
    const t = await stack.newTenant();
    const course = await created(t, '/api/v1/folders', { name: 'Course', metadata: { color: '#ff0000' } });
    const week = await created(t, '/api/v1/folders', { name: 'Week 1', parentFolderId: course._id });
    const notes = await created(t, '/api/v1/materials', {
      name: 'Notes',
      content: { text: 'Cells divide.' },
      folderId: course._id,
    });

    const list = readAsSdk(sdk.FolderListResponse, await getJson(t, '/api/v1/folders'), 'folders.list');
    expect(list.map((f) => f.name)).toEqual(['Course', 'Week 1']);
    const children = readAsSdk(
      sdk.FolderListResponse,
      await getJson(t, `/api/v1/folders?parentFolderId=${course._id}`),
      'folders.list(parent_folder_id=)',
    );
    expect(children.map((f) => f._id)).toEqual([week._id]);

    const tree = readAsSdk(sdk.FolderGetTreeResponse, await getJson(t, '/api/v1/folders/tree'), 'folders.get_tree');
    expect(tree.map((f) => f._id)).toEqual([course._id]);
    expect(tree[0]!.subfolders).toHaveLength(1);
    readAsSdk(sdk.FolderGetTreeResponse, tree[0]!.subfolders, 'a nested subfolder');

    await waitForStatus(t, notes._id, ['active']);
    const detail = readAsSdk(
      sdk.FolderRetrieveResponse,
      await getJson(t, `/api/v1/folders/${course._id}`),
      'folders.retrieve',
    );
    expect(detail).toMatchObject({ _id: course._id, materialCount: 1, totalSize: 0, metadata: { color: '#ff0000' } });
    expect((detail.materials as { _id: string }[]).map((m) => m._id)).toEqual([notes._id]);
    expect((detail.subfolders as { _id: string }[]).map((f) => f._id)).toEqual([week._id]);
  });
});

describe('search', () => {
  it('scores passages in 0..1, best first', async () => {
    const t = await stack.newTenant();
    for (const [name, text] of [
      ['Leaf', 'Photosynthesis in the leaf turns light energy into glucose; photosynthesis needs light.'],
      ['Sun', 'The sun gives light.'],
      ['Rocks', 'Granite is an igneous rock.'],
    ])
      await created(t, '/api/v1/materials/upload-and-process', { name, content: { text } });
    const res = await sendJson(t, 'POST', '/api/v1/materials/search', { query: 'photosynthesis light', topK: 5 });
    const body = readAsSdk(sdk.MaterialSearchResponse, await res.json(), 'materials.search');
    expect(body.results.map((r) => r.material!.name)).toEqual(['Leaf', 'Sun']);
    const scores = body.results.map((r) => r.score);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    for (const score of scores) expect(score > 0 && score < 1).toBe(true);
  });
});

describe('download URLs', () => {
  it('answers one for a text material (its text, text/plain) and for a file (its original)', async () => {
    const text = await created(tenant, '/api/v1/materials/upload-and-process', {
      name: 'Plain',
      content: { text: 'Mitochondria are the powerhouse of the cell.' },
    });
    const { downloadUrl } = readAsSdk(
      sdk.MaterialGetDownloadURLResponse,
      await getJson(tenant, `/api/v1/materials/${text._id}/download-url`),
      'materials.get_download_url',
    );
    const download = await fetch(downloadUrl);
    expect(download.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await download.text()).toBe('Mitochondria are the powerhouse of the cell.');

    const form = new FormData();
    form.append('name', 'File');
    form.append('file', new Blob(['just some words']), 'words.txt');
    const file = await (await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form })).json();
    const original = readAsSdk(
      sdk.MaterialGetDownloadURLResponse,
      await getJson(tenant, `/api/v1/materials/${file._id}/download-url`),
      'materials.get_download_url',
    );
    expect(await (await fetch(original.downloadUrl)).text()).toBe('just some words');
  });
});

describe('generation', () => {
  it('is 501 with the JSON error body, never 404, and creates nothing', async () => {
    const t = await stack.newTenant();
    for (const action of ['generate', 'generate-and-process']) {
      const res = await sendJson(t, 'POST', `/api/v1/materials/${action}`, {
        name: 'Cells',
        topic: 'Mitosis',
        type: 'notes',
      });
      expect(res.status, action).toBe(501);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body).toMatchObject({ statusCode: 501, error: 'Not Implemented' });
      expect(body.message).toMatch(/does not generate materials/);
    }
    expect((await getJson(t, '/api/v1/materials')).totalCount).toBe(0);
  });
});

describe('usage stats', () => {
  it("totals the key's group by event type with active users, filtered by user, and refuses unknown parameters", async () => {
    const t = await stack.newTenant({ group: { planValidFrom: new Date('2025-01-01T00:00:00Z') } });
    const events = [
      { eventId: 'e1', type: 'test_created', userId: 'ada', userName: 'Ada', occurredAt: '2025-03-04T10:00:00.000Z' },
      { eventId: 'e2', type: 'test_created', userId: 'bob', occurredAt: '2025-03-05T10:00:00.000Z' },
      { eventId: 'e3', type: 'engagement', userId: 'ada', occurredAt: '2025-03-05T11:00:00.000Z', value: 120_000 },
      { eventId: 'e4', type: 'test_created', userId: 'ada', occurredAt: '2025-04-01T10:00:00.000Z' },
    ];
    expect((await sendJson(t, 'POST', '/api/v1/usage/events', { events })).status).toBe(200);

    const march = await getJson(t, '/api/v1/usage/stats?startDate=2025-03-01&endDate=2025-03-31');
    expect(march).toMatchObject({
      startDate: '2025-03-01T00:00:00.000Z',
      endDate: '2025-03-31T23:59:59.999Z',
      groupId: t.groupId,
      userId: null,
      totalEvents: 3,
      engagedMs: 120_000,
      activeUsers: 2,
    });
    expect(march.eventsByType).toMatchObject({ test_created: 2, engagement: 1, live_session_created: 0 });
    const ada = await getJson(t, '/api/v1/usage/stats?userId=ada');
    expect(ada).toMatchObject({ totalEvents: 3, activeUsers: 1, userId: 'ada' });
    expect(ada.eventsByType.test_created).toBe(2);

    expect((await getJson(t, '/api/v1/usage/stats?period=daily', 400)).message).toMatch(/period/);
    expect((await getJson(t, '/api/v1/usage/stats?startDate=yesterday', 400)).statusCode).toBe(400);
    expect((await getJson(t, '/api/v1/usage/stats?startDate=2025-04-01&endDate=2025-03-01', 400)).statusCode).toBe(400);
    expect((await getJson(t, '/api/v1/usage/stats?groupId=another', 400)).statusCode).toBe(400);

    // A key without a group sees its organization, or one of its groups; another organization's group is 404.
    const orgKey = await stack.newKey(t.organizationId);
    expect((await getJson(orgKey, '/api/v1/usage/stats')).totalEvents).toBe(4);
    expect((await getJson(orgKey, `/api/v1/usage/stats?groupId=${t.groupId}`)).activeUsers).toBe(2);
    const stranger = await stack.newTenant({ group: { planValidFrom: new Date('2025-01-01T00:00:00Z') } });
    expect((await getJson(orgKey, `/api/v1/usage/stats?groupId=${stranger.groupId}`, 404)).statusCode).toBe(404);
  });
});
