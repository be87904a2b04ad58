import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localStorageOf,
  makePdf,
  sendJson,
  startTestStack,
  waitUntil,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

/** The local driver's folder of one material: `<storage dir>/<key prefix><organization>/<material>`. */
const folderOf = (materialId: string) =>
  path.join(localStorageOf(stack).dir, `${localStorageOf(stack).keyPrefix}${tenant.organizationId}`, materialId);
const exists = (dir: string) =>
  fs.stat(dir).then(
    () => true,
    () => false,
  );

/**
 * Sends part of a body, waits until `started` holds (the server has begun writing it), then drops the connection: a
 * client that went away mid-upload.
 */
function abortedPut(url: string, started: () => Promise<boolean>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers: { 'content-length': '1000000' } });
    req.on('error', () => resolve());
    req.write(Buffer.alloc(64 * 1024, 'a'), () => {
      waitUntil(started, 5_000, 'the partial file to be written').then(() => req.destroy(), reject);
    });
  });
}

describe('per-material folders of the local storage driver', () => {
  it('are removed with the partial file of an aborted PUT', async () => {
    const [slot] = await (
      await sendJson(tenant, 'POST', '/api/v1/materials/batch', {
        materials: [{ name: 'aborted', filename: 'a.pdf', contentType: 'application/pdf' }],
      })
    ).json();
    await abortedPut(slot.uploadUrl, () => exists(folderOf(slot.materialId)));
    await waitUntil(async () => !(await exists(folderOf(slot.materialId))), 5_000, 'the material’s folder to go');
    // The URL still takes its file afterwards.
    expect((await fetch(slot.uploadUrl, { method: 'PUT', body: await makePdf(['After all']) })).status).toBe(200);
    expect(await exists(folderOf(slot.materialId))).toBe(true);
  });

  it('are removed with the last object of a deleted material, processed or still processing', async () => {
    const upload = async (wait: boolean) => {
      const form = new FormData();
      form.append('name', 'deleted');
      form.append('file', new Blob([await makePdf(['Deleted words', 'More of them'])]), 'd.pdf');
      const path = wait ? '/api/v1/materials/upload/file-and-process' : '/api/v1/materials/upload';
      const res = await tenant.request(path, { method: 'POST', body: form });
      expect(res.status).toBe(201);
      return (await res.json())._id as string;
    };
    const processed = await upload(true);
    const processing = await upload(false);
    for (const id of [processed, processing]) {
      expect(await exists(folderOf(id))).toBe(true);
      expect((await tenant.request(`/api/v1/materials/${id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    }
    for (const id of [processed, processing]) {
      await waitUntil(async () => !(await exists(folderOf(id))), 10_000, 'the deleted material’s folder to go');
    }
  });
});
