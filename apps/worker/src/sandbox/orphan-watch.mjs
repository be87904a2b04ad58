// The worker that started this process died (SIGKILL, OOM): stop at once, with every tool this process started
// (it leads its own process group), instead of working for nobody. The channel closing says so; the parent
// pid changing is the belt for when the channel is not noticed, checked from a thread of its own, because an
// extractor can hold the main thread for seconds (PDFium decoding a large image is one synchronous call).
// In JavaScript so that both entry points share it.
import { Worker } from 'node:worker_threads';

const WATCHER = `
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid === workerData.parent) return;
  try { process.kill(-workerData.pid, 'SIGKILL'); } catch {}
  process.kill(workerData.pid, 'SIGKILL');
}, 250);
`;

export function watchParent() {
  const parent = process.ppid;
  process.on('disconnect', () => {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } finally {
      process.exit(75);
    }
  });
  new Worker(WATCHER, { eval: true, workerData: { parent, pid: process.pid } }).unref();
}
