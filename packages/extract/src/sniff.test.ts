import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makePdf } from '@quire/testkit';
import { claimContradicts, sniff } from './sniff.ts';

describe('sniff', () => {
  it('recognises documents and images from their bytes, whatever their name', async () => {
    expect(await sniff(await makePdf(['x']))).toMatchObject({
      supported: true,
      contentType: 'pdf',
      mimeType: 'application/pdf',
    });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect(await sniff(png)).toMatchObject({ supported: true, contentType: 'image', mimeType: 'image/png' });
  });

  it('takes UTF-8 without NUL bytes as text, HTML as text/html', async () => {
    expect(await sniff(Buffer.from('Grüße, naïve café — plain text'))).toMatchObject({
      contentType: 'text',
      mimeType: 'text/plain',
    });
    expect(await sniff(Buffer.from('<!DOCTYPE html><html><title>t</title></html>'))).toMatchObject({
      contentType: 'text',
      mimeType: 'text/html',
    });
    // A multi-byte character cut by the sniff window is still text.
    expect(await sniff(Buffer.from('ab€').subarray(0, 4))).toMatchObject({ contentType: 'text' });
  });

  it('takes a web page in a legacy encoding, one with a PHP warning or a script first, and XHTML with its XML declaration as text/html', async () => {
    const latin1 = Buffer.from(
      '<!doctype html><html><head><meta charset="iso-8859-1"><title>Gr\xfc\xdfe</title></head><body>\xe4</body></html>',
      'latin1',
    );
    expect(await sniff(latin1)).toMatchObject({ supported: true, mimeType: 'text/html' });
    for (const start of [
      '<br /><b>Deprecated</b>: on line 5<br /><html><body>x</body></html>',
      '<script>var a = 1;</script><div>x</div>',
    ]) {
      expect(await sniff(Buffer.from(start))).toMatchObject({ supported: true, mimeType: 'text/html' });
    }
    const xhtml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body><p>x</p></body></html>';
    expect(await sniff(Buffer.from(xhtml))).toMatchObject({
      supported: true,
      contentType: 'text',
      mimeType: 'text/html',
    });
    // Legacy bytes that are not a page stay refused: nothing says how to read them.
    expect(await sniff(Buffer.from('plain \xe4\xf6\xfc text', 'latin1'))).toMatchObject({ supported: false });
  });

  it('refuses binary it cannot place and formats quire does not process', async () => {
    expect(await sniff(Buffer.from([0, 1, 2, 3, 0, 255, 254, 0]))).toMatchObject({ supported: false });
    expect(await sniff(Buffer.alloc(0))).toMatchObject({ supported: false });
    const zip = Buffer.concat([Buffer.from('504b0304140000000800', 'hex'), Buffer.alloc(100, 1)]);
    expect(await sniff(zip)).toMatchObject({ supported: false, mimeType: 'application/zip' });
  });
});

describe('claimContradicts', () => {
  it('ignores generic claims, accepts matching kinds and audio/video container overlap', () => {
    expect(claimContradicts('application/octet-stream', 'pdf')).toBe(false);
    expect(claimContradicts(undefined, 'image')).toBe(false);
    expect(claimContradicts('application/pdf; charset=binary', 'pdf')).toBe(false);
    expect(claimContradicts('audio/mp4', 'video')).toBe(false);
    expect(claimContradicts('text/markdown', 'text')).toBe(false);
  });

  it('flags a claim of another kind', () => {
    expect(claimContradicts('image/png', 'pdf')).toBe(true);
    expect(claimContradicts('application/msword', 'pdf')).toBe(true);
    expect(claimContradicts('text/plain', 'image')).toBe(true);
  });
});
