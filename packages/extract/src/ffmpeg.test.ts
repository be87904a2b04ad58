import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestHttpServer } from '@quire/testkit';
import { createMediaTools } from './ffmpeg.ts';

const tools = createMediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });

let dir: string;
let server: TestHttpServer;
let origin: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-ffmpeg-test-'));
  server = await startHttpServer({});
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('media tools', () => {
  it('never follow a network reference inside a file', async () => {
    const playlist = path.join(dir, 'remote.m3u8');
    const key = `${origin}/key.bin`;
    await fs.writeFile(
      playlist,
      [
        '#EXTM3U',
        '#EXT-X-TARGETDURATION:10',
        `#EXT-X-KEY:METHOD=AES-128,URI="${key}"`,
        '#EXTINF:10,',
        `${origin}/segment-0.ts`,
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
    );
    // The playlist does reach the server when ffprobe is allowed to: the fixture is live.
    await promisify(execFile)('ffprobe', [
      '-v',
      'error',
      '-protocol_whitelist',
      'file,http,tcp,crypto',
      playlist,
    ]).catch(() => {});
    expect(server.hits.length).toBeGreaterThan(0);
    server.hits.length = 0;

    await expect(tools.probe(playlist)).rejects.toMatchObject({ code: 'CORRUPT' });
    const frame = path.join(dir, 'frame.webp');
    await expect(tools.frameAt(playlist, 0, frame, 0, 100)).rejects.toMatchObject({ code: 'CORRUPT' });
    await expect(tools.toSpeechWav(playlist, 0, path.join(dir, 'speech.wav'))).rejects.toMatchObject({
      code: 'CORRUPT',
    });
    expect(server.hits).toEqual([]);
  });

  it('say a missing binary is the machine’s fault, not the file’s', async () => {
    const missing = createMediaTools({ ffmpegPath: '/nonexistent/ffmpeg', ffprobePath: '/nonexistent/ffprobe' });
    const input = path.join(dir, 'anything.mp3');
    await fs.writeFile(input, 'x');
    await expect(missing.probe(input)).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});
