import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parsePrometheusText,
  sampleValue,
  startTestStack,
  waitUntil,
  type Sample,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

const TOKEN = 'metrics-token-0123456789';
let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startTestStack({ config: { METRICS_TOKEN: TOKEN } });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

const brokenPdf = () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x41)]);

describe('metrics', () => {
  it('count a processed and a failed job in the worker, by content type, outcome and error code', async () => {
    const workerUrl = stack.workerHttp!.url;
    const jobs = (samples: Sample[], labels: Record<string, string>) =>
      sampleValue(samples, 'quire_job_duration_seconds_count', labels);
    const before = await scrape(workerUrl);

    const text = await tenant.client.POST('/api/v1/materials/upload-and-process', {
      body: { name: 'counted', content: { text: 'One more job.' } },
    });
    expect(text.data!.status).toBe('active');
    const form = new FormData();
    form.append('name', 'broken');
    form.append('file', new Blob([brokenPdf()]), 'broken.pdf');
    const failed = await tenant.request('/api/v1/materials/upload/file-and-process', { method: 'POST', body: form });
    expect(failed.status).toBe(422);

    // The worker counts a job once it has finished with it, which can be just after the api has seen the row settle
    // (a warm sandbox fails a broken PDF in milliseconds, before the api's first re-read of the row).
    let after = await scrape(workerUrl);
    await waitUntil(
      async () => {
        after = await scrape(workerUrl);
        return (
          jobs(after, { content_type: 'pdf', outcome: 'error' }) >
          jobs(before, { content_type: 'pdf', outcome: 'error' })
        );
      },
      10_000,
      'the worker to count the failed job',
    );
    expect(jobs(after, { content_type: 'text', outcome: 'active' })).toBe(
      jobs(before, { content_type: 'text', outcome: 'active' }) + 1,
    );
    expect(jobs(after, { content_type: 'pdf', outcome: 'error' })).toBe(
      jobs(before, { content_type: 'pdf', outcome: 'error' }) + 1,
    );
    expect(
      sampleValue(after, 'quire_job_duration_seconds_sum', { content_type: 'text', outcome: 'active' }),
    ).toBeGreaterThan(0);
    const failures = (samples: Sample[]) =>
      sampleValue(samples, 'quire_extraction_failures_total', { code: 'CORRUPT' });
    expect(failures(after)).toBe(failures(before) + 1);
    expect(sampleValue(after, 'quire_process_resident_memory_bytes', { process: 'worker' })).toBeGreaterThan(0);
  });

  it('count api requests by documented route template and status, and queue depth by state', async () => {
    const requests = (samples: Sample[], labels: Record<string, string>) =>
      sampleValue(samples, 'quire_http_request_duration_seconds_count', labels);
    const byId = { method: 'GET', route: '/api/v1/materials/{id}', status: '404' };
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    const before = await scrape(stack.url);

    await tenant.request('/api/v1/materials/first-unknown-id');
    await tenant.request('/api/v1/materials/second-unknown-id');
    await tenant.request('/no/such/path');
    await tenant.client.POST('/api/v1/materials/upload-and-process', {
      body: { name: 'queued', content: { text: 'Through the queue.' } },
    });

    const after = await scrape(stack.url);
    expect(requests(after, byId)).toBe(requests(before, byId) + 2);
    expect(requests(after, unmatched)).toBe(requests(before, unmatched) + 1);
    expect(
      requests(after, { method: 'POST', route: '/api/v1/materials/upload-and-process', status: '201' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      after
        .filter((s) => s.name === 'quire_http_request_duration_seconds_count')
        .every((s) => !s.labels.route!.includes('unknown-id')),
    ).toBe(true);
    expect(
      sampleValue(after, 'quire_queue_jobs', { queue: 'materials-interactive', state: 'completed' }),
    ).toBeGreaterThanOrEqual(1);
    expect(after.some((s) => s.name === 'quire_queue_jobs' && s.labels.queue === 'materials')).toBe(true);
    for (const state of ['waiting', 'active', 'delayed', 'failed']) {
      expect(
        after.some((s) => s.name === 'quire_queue_jobs' && s.labels.queue === 'webhooks' && s.labels.state === state),
        state,
      ).toBe(true);
    }
  });

  it('ask for METRICS_TOKEN when it is set, and the worker answers its health check', async () => {
    for (const url of [stack.url, stack.workerHttp!.url]) {
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(401);
      expect(
        (await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer wrong-token-000000000' } })).status,
      ).toBe(401);
    }
    const health = await fetch(`${stack.workerHttp!.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});
