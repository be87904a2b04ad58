import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeHtml } from './html-encoding.ts';

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
});
