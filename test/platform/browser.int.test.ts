import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@quire/testkit';

// Debian's chromium, installed by .ci/run; playwright-core downloads no browser of its own.
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(import.meta.dirname, '../../test-artifacts');
const ADMIN_TOKEN = 'browser-admin-token-0123';

let stack: TestStack;
let browser: BrowserContext;
let userDataDir: string;
let materialId: string;

beforeAll(async () => {
  stack = await startTestStack({ config: { ADMIN_TOKEN } });
  const tenant = await stack.newTenant();
  const { data } = await tenant.client.POST('/api/v1/materials/upload-and-process', {
    body: { name: 'Seen in the browser', content: { text: 'A material processed before the browser looks.' } },
  });
  expect(data!.status).toBe('active');
  materialId = data!._id;

  await fs.mkdir(ARTIFACTS, { recursive: true });
  userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-chromium-'));
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 1000 },
    // What a person types into the dashboard's login prompt: any user name, the admin token as password.
    httpCredentials: { username: 'admin', password: ADMIN_TOKEN },
  });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  if (userDataDir) await fs.rm(userDataDir, { recursive: true, force: true });
});

/** Opens a page that records every URL it asks for, and why any of them failed. */
async function openPage() {
  const page = await browser.newPage();
  const requested: string[] = [];
  const failed = new Map<string, string>();
  page.on('request', (request) => void requested.push(request.url()));
  page.on('requestfailed', (request) => void failed.set(request.url(), request.failure()?.errorText ?? 'unknown'));
  return { page, requested, failed };
}

const foreign = (urls: string[]) => urls.filter((url) => !url.startsWith(`${stack.url}/`) && !url.startsWith('data:'));

describe('in a browser', () => {
  it('/docs shows the materials endpoints, with everything loaded from quire itself', async () => {
    const { page, requested } = await openPage();
    await page.goto(`${stack.url}/docs`);
    await page
      .getByText('/api/v1/materials/upload/file-and-process', { exact: true })
      .first()
      .waitFor({ timeout: 30_000 });
    await page.getByText('/api/v1/materials/{id}/events', { exact: true }).first().waitFor();
    expect(await page.getByText('Follow processing live (Server-Sent Events)').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs.png'), fullPage: false });
    expect(requested).toContain(`${stack.url}/openapi.json`);
    expect(foreign(requested)).toEqual([]);
    await page.close();
  });

  it('/admin/queues shows the processed job behind the admin token', async () => {
    const { page, requested, failed } = await openPage();
    // Processed through upload-and-process, so in the interactive lane.
    const response = await page.goto(`${stack.url}/admin/queues/queue/materials-interactive?status=completed`);
    expect(response?.status()).toBe(200);
    await page.getByText(materialId).first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'admin-queues.png'), fullPage: false });
    // bull-board's page links Google Fonts; the dashboard's Content-Security-Policy stops that request in the browser.
    for (const url of foreign(requested)) expect(failed.get(url), url).toBe('csp');
    await page.close();

    // Without credentials the browser gets the login challenge, which headless Chromium cannot answer.
    const stranger = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    await expect((await stranger.newPage()).goto(`${stack.url}/admin/queues`)).rejects.toThrow(
      /ERR_INVALID_AUTH_CREDENTIALS/,
    );
    await stranger.close();
  });
});
