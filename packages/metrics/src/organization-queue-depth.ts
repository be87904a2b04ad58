import { Gauge, type Registry } from 'prom-client';

export interface OrganizationDepthReading {
  /** Jobs waiting for a slot, by organization id. */
  byOrganization: Map<string, number>;
  /** Waiting jobs that were not read (beyond the scan limit). */
  unscanned: number;
}

/**
 * Jobs waiting for a slot per organization, read from Redis when scraped. Only the `top` organizations with
 * the most waiting are named; the rest (and jobs beyond the scan limit) add up as `other`, so the label's
 * values stay bounded however many organizations there are. Organizations with nothing waiting are absent.
 */
export function registerOrganizationQueueDepth(
  registry: Registry,
  read: () => Promise<OrganizationDepthReading>,
  top: number,
): void {
  new Gauge({
    name: 'quire_queue_waiting_by_organization',
    help: 'Materials jobs waiting for a processing slot, by organization (the busiest ones; the rest as "other")',
    labelNames: ['organization'],
    registers: [registry],
    async collect() {
      this.reset();
      const reading = await read().catch(() => undefined);
      if (!reading) return;
      const ranked = [...reading.byOrganization].sort((a, b) => b[1] - a[1]);
      for (const [organization, count] of ranked.slice(0, top)) this.set({ organization }, count);
      const other = ranked.slice(top).reduce((sum, [, count]) => sum + count, reading.unscanned);
      if (other > 0) this.set({ organization: 'other' }, other);
    },
  });
}
