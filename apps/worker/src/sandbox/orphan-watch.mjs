// The worker that started this process died (SIGKILL, OOM): stop at once, with every tool this process started
// (it leads its own process group), instead of working for nobody. The channel closing says so; the parent
// pid changing is the belt for when the channel is not noticed. In JavaScript so both entry points share it.
export function watchParent() {
  const parent = process.ppid;
  const orphaned = () => {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } finally {
      process.exit(75);
    }
  };
  process.on('disconnect', orphaned);
  setInterval(() => process.ppid !== parent && orphaned(), 250).unref();
}
