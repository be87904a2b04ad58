import type { AuthChange, findApiKeyByPrefix } from '@quire/db';
import { LRUCache } from 'lru-cache';

export type KeyRow = NonNullable<Awaited<ReturnType<typeof findApiKeyByPrefix>>>;

/**
 * What keys resolve to, by prefix, in this process. An entry is used only while the process listens for
 * auth changes (see `listenForAuthChanges`): a change drops the entries it concerns before the next request is
 * served, and a lost subscription drops every entry and sends each lookup to Postgres until it is back. A
 * lookup that started before a change may have read the old row, so it is not kept (the epoch moved).
 */
export class KeyCache {
  private readonly entries: LRUCache<string, KeyRow> | undefined;
  private trusted = false;
  private epoch = 0;

  constructor(
    options: { ttlMs: number; maxEntries: number },
    private readonly onLookup: (source: 'cache' | 'database') => void = () => {},
  ) {
    this.entries =
      options.ttlMs > 0
        ? new LRUCache({ max: options.maxEntries, ttl: options.ttlMs, ttlAutopurge: false })
        : undefined;
  }

  async lookup(prefix: string, load: (prefix: string) => Promise<KeyRow | undefined>): Promise<KeyRow | undefined> {
    const cached = this.trusted ? this.entries?.get(prefix) : undefined;
    this.onLookup(cached ? 'cache' : 'database');
    if (cached) return cached;
    const epoch = this.epoch;
    const row = await load(prefix);
    if (row && this.trusted && epoch === this.epoch) this.entries?.set(prefix, row);
    return row;
  }

  /** Whether cached answers are used (the subscription is in place). */
  get listening(): boolean {
    return this.trusted;
  }

  changed(change: AuthChange): void {
    this.epoch++;
    if (!this.entries) return;
    const concerned = [...this.entries.entries()].filter(([, row]) =>
      change.kind === 'key'
        ? row.id === change.id
        : change.kind === 'group'
          ? row.group_id === change.id
          : row.organization_id === change.id,
    );
    for (const [prefix] of concerned) this.entries.delete(prefix);
  }

  /** Subscribed (again): changes made while it was away were missed, so nothing cached before is kept. */
  subscribed(): void {
    this.epoch++;
    this.entries?.clear();
    this.trusted = true;
  }

  unsubscribed(): void {
    this.trusted = false;
    this.epoch++;
    this.entries?.clear();
  }
}
