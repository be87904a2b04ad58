import { countListedMaterials, materialCounters, type Db } from '@quire/db';
import { LRUCache } from 'lru-cache';

/**
 * How many materials a name search (within a folder or not) matches, kept per organization listing version
 * (migration 0013): a count found with the version the organization still has is exact, so paging through a
 * search counts its matches once, not once a page. Reading the version is one primary-key lookup.
 */
export class ListingCounts {
  private readonly counts: LRUCache<string, { listingVersion: number; total: number }> | undefined;

  constructor(maxEntries: number) {
    this.counts = maxEntries > 0 ? new LRUCache({ max: maxEntries }) : undefined;
  }

  /** `listingVersion`: the organization's, when the caller has just read it. */
  async count(
    db: Db,
    organizationId: string,
    q: { folderId?: string; search?: string },
    listingVersion?: number,
  ): Promise<number> {
    if (!this.counts) return (await countListedMaterials(db, organizationId, q)).total;
    const id = `${organizationId}\n${q.folderId ?? ''}\n${q.search ?? ''}`;
    const kept = this.counts.get(id);
    const current = async () => listingVersion ?? (await materialCounters(db, organizationId)).listingVersion;
    if (kept && kept.listingVersion === (await current())) return kept.total;
    const counted = await countListedMaterials(db, organizationId, q);
    this.counts.set(id, counted);
    return counted.total;
  }
}
