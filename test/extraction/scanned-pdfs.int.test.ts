import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blankScan,
  scannedPdf,
  scanOf,
  sendJson,
  startTestStack,
  uploadAndProcess,
  wordF1,
  type Tenant,
  type TestStack,
} from '@quire/testkit';

const OCR_MAX_PAGES = 12;

let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startTestStack({ config: { OCR_LANGUAGES: 'eng,fra', OCR_MAX_PAGES: String(OCR_MAX_PAGES) } });
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

const FRENCH = [
  "L'élève a déjà révisé où le garçon était",
  'Le château médiéval près de la forêt',
  'Une journée agréable à la bibliothèque',
];

function uploadWith(body: Buffer, fields: Record<string, string>): Promise<Response> {
  const form = new FormData();
  form.append('name', 'scan.pdf');
  form.append('timeoutMs', '110000');
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([body], { type: 'application/pdf' }), 'scan.pdf');
  return tenant.request('/api/v1/materials/upload/file-and-process', { method: 'POST', body: form });
}

describe('scanned PDFs', () => {
  it('reads a French scan in the languages the upload asked for', async () => {
    const res = await uploadWith(await scannedPdf([await scanOf(FRENCH)]), { ocrLanguages: 'fra' });
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material.metadata).toMatchObject({ ocrLanguages: ['fra'], ocr: { language: 'fra', pages: 1 } });
    expect(wordF1(material.metadata.extractedText, FRENCH.join(' '))).toBeGreaterThanOrEqual(0.9);
  });

  it('refuses OCR languages that are not installed with 400, naming them', async () => {
    const res = await uploadWith(await scannedPdf(['A page of text.']), { ocrLanguages: 'eng,deu' });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toMatch(/deu not installed; installed: eng, fra/);
    expect(body.details).toEqual([expect.objectContaining({ field: 'ocrLanguages' })]);

    const json = await sendJson(tenant, 'POST', '/api/v1/materials', {
      name: 'Note',
      content: { text: 'Some words.' },
      ocrLanguages: ['zzz'],
    });
    expect(json.status).toBe(400);

    const slot = { name: 'scan.pdf', filename: 'scan.pdf', contentType: 'application/pdf' };
    const refused = await sendJson(tenant, 'POST', '/api/v1/materials/upload/presigned-url', {
      ...slot,
      ocrLanguages: ['deu'],
    });
    expect(refused.status).toBe(400);
    const batch = await sendJson(tenant, 'POST', '/api/v1/materials/batch', {
      materials: [{ ...slot, ocrLanguages: ['fra'] }],
    });
    expect(batch.status).toBe(201);
    const [handle] = await batch.json();
    const waiting = await (await tenant.request(`/api/v1/materials/${handle.materialId}`)).json();
    expect(waiting.metadata.ocrLanguages).toEqual(['fra']);
  });

  it('settles a PDF of 500 blank scanned pages inside its page budget, saying what it left unread', async () => {
    const blank = await blankScan();
    const pdf = await scannedPdf(Array.from({ length: 500 }, () => blank));
    const res = await uploadAndProcess(tenant, pdf, 'blank.pdf', { extractImages: false });
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material.status).toBe('active');
    expect(material.metadata).toMatchObject({
      pageCount: 500,
      textless: true,
      wordCount: 0,
      ocr: { engine: 'tesseract', pages: OCR_MAX_PAGES, skippedPages: 500 - OCR_MAX_PAGES },
    });
    expect(material.metadata.ocr.skipped[0]).toEqual({ page: OCR_MAX_PAGES + 1, reason: 'page-budget' });
  }, 180_000);
});
