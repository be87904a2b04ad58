import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestStack, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
let textId: string;

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
  const res = await sendJson(tenant, 'POST', '/api/v1/materials/upload-and-process', {
    name: 'Notes',
    content: { text: 'Some words to read back.' },
  });
  expect(res.status).toBe(201);
  textId = (await res.json())._id;
});
afterAll(() => stack?.close());

const BOUNDARY = 'quire-input-rules';
/** A multipart body built by hand, so the test controls every byte of the file part's header. */
const multipart = (fields: Record<string, string>, disposition: string, content = 'plain words here') =>
  Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\n` +
      `Content-Type: text/plain\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`,
    'utf8',
  );

const upload = (body: Buffer, headers: Record<string, string> = {}) =>
  tenant.request('/api/v1/materials/upload', {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body,
  });

describe('multipart bodies with a Content-Encoding', () => {
  it('decodes a gzipped multipart body and stores the file inside it', async () => {
    const res = await upload(gzipSync(multipart({ name: 'zipped' }, 'filename="zipped.txt"', 'words inside gzip')), {
      'content-encoding': 'gzip',
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.content).toMatchObject({ filename: 'zipped.txt', fileSize: 'words inside gzip'.length });
  });

  it('refuses with 400 a plain body labelled gzip, and with 415 an encoding quire does not speak', async () => {
    const plain = await upload(multipart({ name: 'liar' }, 'filename="liar.txt"'), { 'content-encoding': 'gzip' });
    expect(plain.status).toBe(400);
    expect((await plain.json()).message).toMatch(/Content-Encoding/);
    const unknown = await upload(multipart({ name: 'odd' }, 'filename="odd.txt"'), { 'content-encoding': 'compress' });
    expect(unknown.status).toBe(415);
  });

  it('answers 400 for a truncated form inside a correct gzip stream, and for a cut gzip stream', async () => {
    const whole = multipart({ name: 'cut' }, 'filename="cut.txt"', 'x'.repeat(100_000));
    const truncatedForm = await upload(gzipSync(whole.subarray(0, 50_000)), { 'content-encoding': 'gzip' });
    expect(truncatedForm.status).toBe(400);
    expect((await truncatedForm.json()).message).toMatch(/multipart/i);
    const gzipped = gzipSync(whole);
    const cutStream = await upload(gzipped.subarray(0, gzipped.length - 10), { 'content-encoding': 'gzip' });
    expect(cutStream.status).toBe(400);
    expect((await tenant.request('/api/v1/materials?search=cut')).status).toBe(200);
  });
});

describe('multipart file names', () => {
  it('keeps a UTF-8 file name exactly, sent raw or as RFC 5987 filename*', async () => {
    const raw = await upload(multipart({ name: 'raw' }, 'filename="ü€😀.txt"'));
    expect(raw.status).toBe(201);
    expect((await raw.json()).content.filename).toBe('ü€😀.txt');
    const extended = await upload(
      multipart({ name: 'extended' }, `filename*=UTF-8''${encodeURIComponent('Größe €5 😀.txt')}`),
    );
    expect(extended.status).toBe(201);
    expect((await extended.json()).content.filename).toBe('Größe €5 😀.txt');
  });

  it('cuts a name longer than 255 bytes at a character boundary and keeps its extension', async () => {
    const long = await upload(multipart({ name: 'long' }, `filename="${'ü'.repeat(300)}.txt"`));
    expect(long.status).toBe(201);
    const { filename } = (await long.json()).content;
    expect(filename).toBe(`${'ü'.repeat(125)}.txt`);
    expect(Buffer.byteLength(filename)).toBeLessThanOrEqual(255);

    const emoji = await upload(multipart({ name: 'emoji' }, `filename="${'😀'.repeat(100)}"`));
    const cut = (await emoji.json()).content.filename as string;
    expect(cut).toBe('😀'.repeat(63));
  });
});

describe('ocrLanguages', () => {
  it('stores a language given more than once once, in JSON and in a multipart field', async () => {
    const json = await sendJson(tenant, 'POST', '/api/v1/materials', {
      name: 'Thrice',
      content: { text: 'eng eng eng' },
      ocrLanguages: ['eng', 'eng', 'eng'],
    });
    expect(json.status).toBe(201);
    expect((await json.json()).metadata.ocrLanguages).toEqual(['eng']);

    const form = await upload(multipart({ name: 'Thrice', ocrLanguages: 'eng,eng,eng' }, 'filename="t.txt"'));
    expect(form.status).toBe(201);
    expect((await form.json()).metadata.ocrLanguages).toEqual(['eng']);
  });
});

describe('query parameters', () => {
  const paths = () => [
    `/api/v1/materials/${textId}/text`,
    '/api/v1/folders',
    '/api/v1/folders/tree',
    '/api/v1/materials',
    `/api/v1/materials/${textId}`,
  ];

  it('answers 400 naming a parameter the endpoint does not take', async () => {
    for (const path of paths()) {
      const res = await tenant.request(`${path}?limt=5`);
      expect(res.status, path).toBe(400);
      const body = await res.json();
      expect(body.message, path).toMatch(/Unknown query parameter "limt"/);
      expect(body.details, path).toEqual([expect.objectContaining({ field: 'limt' })]);
    }
    expect((await tenant.request(`/api/v1/materials/${textId}/text?format=json&limit=1`)).status).toBe(200);
  });

  it('answers 400 saying a parameter was given twice', async () => {
    for (const path of [`/api/v1/materials/${textId}/text?format=json`, '/api/v1/materials?page=1']) {
      const res = await tenant.request(`${path}&limit=1&limit=2`);
      expect(res.status, path).toBe(400);
      const body = await res.json();
      expect(body.message, path).toMatch(/"limit" was given 2 times; give it once/);
      expect(body.details, path).toEqual([expect.objectContaining({ field: 'limit' })]);
    }
  });

  it('answers 400 for a number not written in decimal digits (page=0x10, limit=+5)', async () => {
    for (const query of ['page=0x10', 'limit=+5', 'limit=1e1', 'page=1.0']) {
      for (const path of [`/api/v1/materials/${textId}/text?format=json&${query}`, `/api/v1/materials?${query}`]) {
        const res = await tenant.request(path);
        expect(res.status, path).toBe(400);
        expect((await res.json()).message, path).toMatch(/must be written in decimal digits/);
      }
    }
    expect((await tenant.request('/api/v1/materials?page=16&limit=5')).status).toBe(200);
  });

  it('answers 406 on /text when Accept takes none of its media types', async () => {
    const res = await tenant.request(`/api/v1/materials/${textId}/text`, { headers: { accept: 'image/png' } });
    expect(res.status).toBe(406);
    expect((await res.json()).message).toMatch(/text\/plain/);
    const text = await tenant.request(`/api/v1/materials/${textId}/text`, { headers: { accept: 'text/*' } });
    expect(await text.text()).toBe('Some words to read back.');
  });
});

describe('folder metadata', () => {
  it('takes a #rrggbb or palette colour and a short icon name', async () => {
    const res = await sendJson(tenant, 'POST', '/api/v1/folders', {
      name: 'Painted',
      metadata: { color: '#3B82F6', icon: 'book-open' },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).metadata).toMatchObject({ color: '#3B82F6', icon: 'book-open' });
    const named = await sendJson(tenant, 'POST', '/api/v1/folders', { name: 'Named', metadata: { color: 'teal' } });
    expect(named.status).toBe(201);
  });

  it('refuses anything else with 400 naming the field, on create and on update', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ color: 'javascript:alert(1)' }, 'metadata.color'],
      [{ color: '#12345' }, 'metadata.color'],
      [{ color: 'url(#a)' }, 'metadata.color'],
      [{ icon: '<script>alert(1)</script>' }, 'metadata.icon'],
      [{ icon: 'a'.repeat(33) }, 'metadata.icon'],
      [{ icon: 'Folder Open' }, 'metadata.icon'],
    ];
    const folder = await (await sendJson(tenant, 'POST', '/api/v1/folders', { name: 'Plain' })).json();
    for (const [metadata, field] of bad) {
      const created = await sendJson(tenant, 'POST', '/api/v1/folders', { name: 'x', metadata });
      expect(created.status, JSON.stringify(metadata)).toBe(400);
      expect((await created.json()).details, JSON.stringify(metadata)).toEqual([expect.objectContaining({ field })]);
      const updated = await sendJson(tenant, 'PATCH', `/api/v1/folders/${folder._id}`, { metadata });
      expect(updated.status, JSON.stringify(metadata)).toBe(400);
    }
  });
});

describe('references', () => {
  it('take http and https URLs only: any other scheme is a 400 naming the field, in JSON and in a form', async () => {
    const ok = await sendJson(tenant, 'POST', '/api/v1/materials', {
      name: 'Linked',
      content: { text: 'x' },
      references: [
        { title: 'Web', url: 'https://example.com/a' },
        { title: 'Plain', url: 'http://example.com/b' },
      ],
    });
    expect(ok.status).toBe(201);
    const linked = (await ok.json())._id;
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,<script>1</script>',
      'ftp://x.org/f',
    ]) {
      const created = await sendJson(tenant, 'POST', '/api/v1/materials', {
        name: 'Bad link',
        content: { text: 'x' },
        references: [{ title: 'Bad', url }],
      });
      expect(created.status, url).toBe(400);
      expect((await created.json()).details, url).toEqual([
        expect.objectContaining({ field: 'references.0.url', message: 'must be an http or https URL' }),
      ]);
      const updated = await sendJson(tenant, 'PATCH', `/api/v1/materials/${linked}`, {
        references: [{ title: 'Bad', url }],
      });
      expect(updated.status, url).toBe(400);
    }
    const form = await upload(
      multipart({ name: 'form', references: '[{"title":"Bad","url":"javascript:alert(1)"}]' }, 'filename="f.txt"'),
    );
    expect(form.status).toBe(400);
    expect((await form.json()).details).toEqual([expect.objectContaining({ field: 'references.0.url' })]);
  });
});
