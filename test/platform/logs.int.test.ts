import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, waitUntil, type Tenant, type TestStack } from '@quire/testkit';

const lines: string[] = [];
let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startTestStack({
    config: { LOG_LEVEL: 'debug' },
    logStream: { write: (line: string) => void lines.push(line) },
  });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const records = () => lines.map((line) => JSON.parse(line) as Record<string, any>);

describe('logs', () => {
  it('carry the request id on every request log, job id, material id and attempt on job logs, and never a key or file contents', async () => {
    const secretText = 'CONFIDENTIAL-EXAM-ANSWERS-7f3a91';
    const form = new FormData();
    form.append('name', 'logged upload');
    form.append('file', new Blob([`${secretText} are in this file.`]), 'answers.txt');
    const res = await tenant.request('/api/v1/materials/upload/file-and-process', {
      method: 'POST',
      headers: { 'x-request-id': 'req-logs-test-1', authorization: 'Bearer not-for-logs-123' },
      body: form,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe('req-logs-test-1');
    const { _id: materialId } = (await res.json()) as { _id: string };
    const generated = await tenant.request('/api/v1/materials/not-a-material');
    const generatedId = generated.headers.get('x-request-id');
    expect(generatedId).toMatch(/^[0-9a-f-]{36}$/);

    await waitUntil(() => records().some((r) => r.req?.id === generatedId), 5_000, 'the request log');
    const requestLogs = records().filter((r) => r.req || r.requestId);
    expect(requestLogs.length).toBeGreaterThanOrEqual(2);
    for (const log of requestLogs) expect(log.req?.id ?? log.requestId, JSON.stringify(log)).toBeTruthy();
    const upload = requestLogs.find((r) => r.req?.id === 'req-logs-test-1')!;
    expect(upload).toMatchObject({ msg: 'request completed', name: 'api', res: { statusCode: 201 } });
    expect(upload.req.headers['x-api-key']).toBe('[Redacted]');
    expect(upload.req.headers.authorization).toBe('[Redacted]');

    const jobLogs = records().filter((r) => r.name === 'worker' && r.materialId === materialId);
    expect(jobLogs.length).toBeGreaterThan(0);
    for (const log of jobLogs) expect(log).toMatchObject({ jobId: materialId, materialId, attempt: 1 });
    expect(jobLogs.map((r) => r.msg)).toContain('processing finished');

    const everything = lines.join('');
    expect(everything).not.toContain(tenant.apiKey);
    expect(everything).not.toContain(tenant.apiKey.slice(-20));
    expect(everything).not.toContain('not-for-logs-123');
    expect(everything).not.toContain(secretText);
  });

  it("give what services log through the api's logger during a request that request's id, once", async () => {
    const { logger, requestScope } = stack.api;
    requestScope.run({ requestId: 'req-service-1' }, () => {
      logger.warn({ materialId: 'm1' }, 'a service speaks');
      logger.child({ requestId: 'req-service-1' }).warn('a handler speaks through req.log');
    });
    logger.warn('outside any request');
    await waitUntil(() => lines.some((line) => line.includes('outside any request')), 5_000, 'the log lines');
    const service = lines.find((line) => line.includes('a service speaks'))!;
    const handler = lines.find((line) => line.includes('a handler speaks'))!;
    expect(JSON.parse(service)).toMatchObject({ requestId: 'req-service-1', materialId: 'm1', name: 'api' });
    expect(handler.match(/"requestId"/g)).toHaveLength(1);
    expect(JSON.parse(lines.find((line) => line.includes('outside any request'))!).requestId).toBeUndefined();
  });
});
