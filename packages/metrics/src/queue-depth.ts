import { Gauge, type Registry } from 'prom-client';

interface CountableQueue {
  name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed', 'paused'];

/** Jobs per queue and state, read from Redis when scraped (a Redis outage leaves the gauge empty, not the scrape failed). */
export function registerQueueDepth(registry: Registry, queues: CountableQueue[]): void {
  new Gauge({
    name: 'quire_queue_jobs',
    help: 'Jobs in each queue by state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      await Promise.all(
        queues.map(async (queue) => {
          const counts = await queue.getJobCounts(...STATES).catch(() => undefined);
          for (const [state, count] of Object.entries(counts ?? {})) this.set({ queue: queue.name, state }, count);
        }),
      );
    },
  });
}
