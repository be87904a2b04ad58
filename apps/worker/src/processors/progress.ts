const MIN_STEP = 5;
const MIN_INTERVAL_MS = 500;

/** Forwards progress at most every 5 points and 500 ms, so a chatty extractor does not hammer the database. */
export function progressReporter(
  write: (percent: number) => Promise<unknown>,
  onError: (err: unknown) => void,
): (percent: number) => void {
  let last = 0;
  let lastAt = 0;
  return (percent) => {
    const value = Math.max(0, Math.min(99, Math.round(percent)));
    const now = Date.now();
    if (value - last < MIN_STEP || now - lastAt < MIN_INTERVAL_MS) return;
    last = value;
    lastAt = now;
    write(value).catch(onError);
  };
}
