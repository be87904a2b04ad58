import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { charsetOf, decodeHtml, withDeclaredCharset } from './html-encoding.ts';
import { extractTextBytes } from './text.ts';

const page = (meta: string, body: string) =>
  `<!doctype html><html><head>${meta}<title>t</title></head><body><p>${body}</p></body></html>`;

describe('decodeHtml', () => {
  it('reads the encoding a <meta> declares, in either spelling', () => {
    const latin1 = iconv.encode(
      page('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">', 'Grüße aus Köln'),
      'latin1',
    );
    expect(decodeHtml(latin1)).toMatchObject({ encoding: 'iso-8859-1' });
    expect(decodeHtml(latin1).text).toContain('Grüße aus Köln');
    const cp1250 = iconv.encode(page('<meta charset="windows-1250">', 'Zażółć gęślą jaźń'), 'windows-1250');
    expect(decodeHtml(cp1250).text).toContain('Zażółć gęślą jaźń');
    const gbk = iconv.encode(page('<meta charset="gbk">', '网页正文'), 'gbk');
    expect(decodeHtml(gbk).text).toContain('网页正文');
  });

  it('finds the declaration behind a long script at the top of the page', () => {
    const script = `<script>${'var x = 1;\n'.repeat(300)}</script>`;
    const bytes = iconv.encode(page(`${script}<meta charset="iso-8859-1">`, 'Straße'), 'latin1');
    expect(decodeHtml(bytes).text).toContain('Straße');
  });

  it('takes valid UTF-8 as UTF-8 when the page claims latin-1, and undeclared legacy bytes as windows-1252', () => {
    const mislabelled = Buffer.from(page('<meta charset="iso-8859-1">', 'Grüße – „Zitat“'));
    expect(decodeHtml(mislabelled)).toMatchObject({ encoding: 'utf-8' });
    expect(decodeHtml(mislabelled).text).toContain('Grüße – „Zitat“');
    const undeclared = iconv.encode(page('', 'Grüße – „Zitat“'), 'windows-1252');
    expect(decodeHtml(undeclared).text).toContain('Grüße – „Zitat“');
  });

  it('honours a byte-order mark over any declaration', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(page('<meta charset="iso-8859-1">', 'Grüße')),
    ]);
    expect(decodeHtml(bytes).text).toContain('Grüße');
  });

  it('reads the charset the server declared, which outranks the <meta>, and falls back to the <meta> for a label it does not know', () => {
    const koi8 = iconv.encode(page('', 'Привет, мир'), 'koi8-r');
    expect(decodeHtml(koi8, 'KOI8-R')).toMatchObject({ encoding: 'koi8-r' });
    expect(decodeHtml(koi8, 'KOI8-R').text).toContain('Привет, мир');
    const sjis = iconv.encode(page('<meta charset="iso-8859-1">', '日本語の本文'), 'shift_jis');
    expect(decodeHtml(sjis, 'shift_jis').text).toContain('日本語の本文');
    const cp1251 = iconv.encode(page('<meta charset="windows-1251">', 'Привет'), 'windows-1251');
    expect(decodeHtml(cp1251, 'no-such-charset').text).toContain('Привет');
  });

  it("takes valid UTF-8 as UTF-8 when the server's default says ISO-8859-1", () => {
    const bytes = Buffer.from(page('', 'Grüße – „Zitat“'));
    expect(decodeHtml(bytes, 'ISO-8859-1')).toMatchObject({ encoding: 'utf-8' });
    expect(decodeHtml(bytes, 'ISO-8859-1').text).toContain('Grüße – „Zitat“');
  });
});

describe('a declared charset', () => {
  it('is read from a MIME type, and kept with a sniffed text type only', () => {
    expect(charsetOf('text/html; charset="KOI8-R"')).toBe('KOI8-R');
    expect(charsetOf('text/html')).toBeUndefined();
    expect(charsetOf('not a type')).toBeUndefined();
    expect(withDeclaredCharset('text/html', 'text/html; charset=koi8-r')).toBe('text/html; charset=koi8-r');
    expect(withDeclaredCharset('application/pdf', 'text/plain; charset=koi8-r')).toBe('application/pdf');
    expect(withDeclaredCharset('text/plain', undefined)).toBe('text/plain');
  });

  it('decodes a plain text file too', async () => {
    const bytes = iconv.encode('Съешь же ещё этих мягких французских булок.', 'windows-1251');
    const result = await extractTextBytes(bytes, undefined, 'windows-1251');
    expect(result.text).toBe('Съешь же ещё этих мягких французских булок.');
    expect(result.metadata).toMatchObject({ format: 'plain', encoding: 'windows-1251' });
  });
});
