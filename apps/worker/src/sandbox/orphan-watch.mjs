// The worker that started this process died (SIGKILL, OOM): stop at once, with every tool this process started
// (it leads its own process group), instead of working for nobody. The channel closing says so; the parent
// pid changing is the belt for when the channel is not noticed, checked from a thread of its own, because an
// extractor can hold the main thread for seconds (PDFium decoding a large image is one synchronous call).
// In JavaScript so that both entry points share it.
// Its OCR folders go first, synchronously: the worker that would have removed them after it is gone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** `ocrDirPrefixOf(pid)` of @quire/extract (this file is plain JavaScript, loaded before TypeScript is). */
const ocrDirPrefix = (pid) => `quire-ocr-${pid}-`;

function removeOwnOcrDirs(pid) {
  try {
    for (const name of fs.readdirSync(os.tmpdir())) {
      if (name.startsWith(ocrDirPrefix(pid))) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
  } catch {
    // The next worker's start-up removes what is left (sweepStaleOcrDirs).
  }
}

const WATCHER = `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid === workerData.parent) return;
  try {
    for (const name of fs.readdirSync(os.tmpdir())) {
      if (name.startsWith(workerData.ocrDirPrefix)) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
  } catch {}
  try { process.kill(-workerData.pid, 'SIGKILL'); } catch {}
  process.kill(workerData.pid, 'SIGKILL');
}, 250);
`;

export function watchParent() {
  const parent = process.ppid;
  process.on('disconnect', () => {
    try {
      removeOwnOcrDirs(process.pid);
      process.kill(-process.pid, 'SIGKILL');
    } finally {
      process.exit(75);
    }
  });
  new Worker(WATCHER, {
    eval: true,
    workerData: { parent, pid: process.pid, ocrDirPrefix: ocrDirPrefix(process.pid) },
  }).unref();
}
