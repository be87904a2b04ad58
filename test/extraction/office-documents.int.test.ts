import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTOR_VERSIONS } from '@quire/extract';
import {
  makeDocx,
  makeEncryptedOffice,
  makeOdt,
  makeOfficeZipBomb,
  makePptx,
  makeRtf,
  makeXlsx,
  readAsSdk,
  sdk,
  startTestStack,
  uploadAndProcess,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack({ storage: 's3' });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

/** Uploads through the api and waits for the real worker: 201 active, 422 error (with the material). */
async function processFile(body: Buffer, filename: string, type?: string) {
  const res = await uploadAndProcess(tenant, body, filename, { extractImages: true, ...(type ? { type } : {}) });
  const json = await res.json();
  return { status: res.status, material: res.status === 422 ? json.material : json };
}

describe('office documents through the api', () => {
  it('reads a Word document: its text, its picture stored, its comments in metadata, the original downloadable unchanged', async () => {
    const docx = await makeDocx();
    const { status, material } = await processFile(docx, 'lesson.docx', DOCX);
    expect(status).toBe(201);
    expect(material).toMatchObject({ status: 'active', contentType: 'text', content: { mimeType: DOCX } });
    expect(material.metadata).toMatchObject({
      format: 'docx',
      comments: [{ author: 'Reviewer', text: 'Check this figure' }],
      extractor: EXTRACTOR_VERSIONS.text,
    });
    const text = material.metadata.extractedText as string;
    for (const words of ['Photosynthesis', 'Light reactions', 'Oxygen is released', 'Calvin cycle\tCO2\tGlucose'])
      expect(text).toContain(words);
    expect(text).toContain('Chlorophyll absorbs red and blue light.');
    expect(text).not.toContain('Check this figure');
    expect(material.metadata.images).toHaveLength(1);
    expect(material.metadata.images[0]).toMatchObject({ width: 320, height: 200 });

    const url = await tenant.request(`/api/v1/materials/${material._id}/download-url`);
    const { downloadUrl } = readAsSdk(sdk.MaterialGetDownloadURLResponse, await url.json(), 'download-url');
    expect(Buffer.from(await (await fetch(downloadUrl)).arrayBuffer()).equals(docx)).toBe(true);
  });

  it('reads a deck slide by slide, speaker notes included, and search finds a word said only in the notes', async () => {
    const { status, material } = await processFile(await makePptx(), 'chloroplast.pptx');
    expect(status).toBe(201);
    expect(material).toMatchObject({ contentType: 'text', content: { mimeType: PPTX } });
    expect(material.metadata).toMatchObject({ format: 'pptx', slideCount: 3, hiddenSlides: [2] });
    const text = material.metadata.extractedText as string;
    expect(text.indexOf('Upper text frame')).toBeLessThan(text.indexOf('Lower text frame'));
    expect(text.indexOf('Grouped left')).toBeLessThan(text.indexOf('Grouped right'));
    expect(text).toContain('Organelle\tJob\nChloroplast\tMakes sugar');
    expect(text).toContain('Ask about chemiosmosis before the break');

    const res = await tenant.request('/api/v1/materials/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'chemiosmosis' }),
    });
    const body = (await res.json()) as { results: { material?: { id: string }; slide?: number }[] };
    const found = readAsSdk(sdk.MaterialSearchResponse, body, 'search');
    const hits = found.results.filter((hit) => hit.material?.id === material._id);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.text).toContain('chemiosmosis');
    // The notes are the third slide's: a hit says which slide to open (a field beyond the SDK's, which it keeps).
    expect(body.results.find((hit) => hit.material?.id === material._id)?.slide).toBe(3);
  });

  it('reads a workbook of two sheets with the cached value of its formula and its dates formatted', async () => {
    const { status, material } = await processFile(await makeXlsx(), 'grades.xlsx');
    expect(status).toBe(201);
    expect(material).toMatchObject({ contentType: 'text', content: { mimeType: XLSX } });
    expect(material.metadata).toMatchObject({ format: 'xlsx', sheetCount: 2 });
    const text = material.metadata.extractedText as string;
    expect(text).toContain('Ada\t0.3\t2024-01-01');
    expect(text).toContain('Total\t17.3');
    expect(text).toContain('Lab\t2024-01-01 12:00:00\tRoom 4');
  });

  it('reads an ODT, an RTF and a CSV', async () => {
    const odt = await processFile(await makeOdt(), 'cells.odt');
    expect(odt.status).toBe(201);
    expect(odt.material).toMatchObject({
      content: { mimeType: 'application/vnd.oasis.opendocument.text' },
      metadata: { format: 'odt' },
    });
    expect(odt.material.metadata.extractedText).toContain('Chromosomes condense');

    const rtf = await processFile(makeRtf(), 'enzymes.rtf', 'application/rtf');
    expect(rtf.status).toBe(201);
    expect(rtf.material).toMatchObject({ content: { mimeType: 'application/rtf' }, metadata: { format: 'rtf' } });
    expect(rtf.material.metadata.extractedText).toBe(
      'Enzymes\n\nEnzymes speed up reactions in the café of the cell.\n\nThey are proteins — mostly.',
    );

    const csv = await processFile(Buffer.from('name,score\nAda,17\nGrace,12\n'), 'scores.csv', 'text/csv');
    expect(csv.status).toBe(201);
    expect(csv.material).toMatchObject({
      content: { mimeType: 'text/csv' },
      metadata: { format: 'csv', sheetCount: 1 },
    });
    expect(csv.material.metadata.extractedText).toBe('name\tscore\nAda\t17\nGrace\t12');
  });

  it('ends an encrypted document ENCRYPTED and a zip bomb named .docx TOO_LARGE, and refuses a docx claimed as a PDF', async () => {
    const locked = await processFile(makeEncryptedOffice(), 'locked.docx', DOCX);
    expect(locked.status).toBe(422);
    expect(locked.material).toMatchObject({
      status: 'error',
      contentType: 'text',
      metadata: { error: { code: 'ENCRYPTED', message: 'The document is password-protected' } },
    });

    const bomb = await processFile(await makeOfficeZipBomb(), 'bomb.docx', DOCX);
    expect(bomb.status).toBe(422);
    expect(bomb.material.metadata.error.code).toBe('TOO_LARGE');

    const res = await uploadAndProcess(tenant, await makeDocx(), 'lesson.pdf', { type: 'application/pdf' });
    expect(res.status).toBe(415);
  });

  // LibreOffice is part of the test environment (scripts/setup-system.sh installs it): it writes the legacy file.
  it('reads a legacy Word 97 document through LibreOffice', async () => {
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'legacy-'));
    try {
      await fs.writeFile(path.join(work, 'lesson.docx'), await makeDocx());
      const soffice = '/usr/bin/soffice';
      await promisify(execFile)(
        soffice,
        [
          `-env:UserInstallation=file://${work}/profile`,
          '--headless',
          '--convert-to',
          'doc',
          '--outdir',
          work,
          path.join(work, 'lesson.docx'),
        ],
        { timeout: 120_000 },
      );
      const { status, material } = await processFile(await fs.readFile(path.join(work, 'lesson.doc')), 'lesson.doc');
      expect(status).toBe(201);
      expect(material).toMatchObject({
        contentType: 'text',
        metadata: { format: 'doc', convertedBy: 'libreoffice' },
      });
      // The sniffer sees the head of the file: LibreOffice writes the stream directory at the end, so the
      // container is all the head shows and the reader named the format from the whole file.
      expect(material.content.mimeType).toMatch(/^application\/(msword|x-cfb)$/);
      expect(material.metadata.extractedText).toContain('Oxygen is released');
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  });
});
