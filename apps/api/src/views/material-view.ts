import {
  toMaterialListItem,
  toMaterialView,
  type ListInclude,
  type Material,
  type MaterialView,
  type SignUrl,
} from '@quire/material';
import type { ObjectStore } from '@quire/storage';
import { LRUCache } from 'lru-cache';
import { MaterialJson } from './material-json.ts';

/** The longest a presigned S3 URL may live (SigV4). */
const MAX_URL_SECONDS = 7 * 24 * 3600;

/**
 * Signs GET URLs valid for at least `ttlSeconds` from the response that carries them. Signing costs 5 µs (local
 * disk) to 60 µs (S3 SigV4) a URL, up to a hundred a list page; so a URL is signed for `reuseSeconds` longer
 * and reused by the responses of that span (0: one per response).
 */
export function urlSigner(store: ObjectStore, ttlSeconds: number, reuseSeconds: number): SignUrl {
  const reuse = Math.min(reuseSeconds, MAX_URL_SECONDS - ttlSeconds);
  const sign = (key: string, filename: string | undefined, seconds: number) =>
    store.presignGet(key, seconds, filename ? { filename } : {});
  if (reuse <= 0) return (key, filename) => sign(key, filename, ttlSeconds);
  const signed = new LRUCache<string, string>({ max: 50_000, ttl: reuse * 1000 });
  return async (key, filename) => {
    const id = `${key}\n${filename ?? ''}`;
    const cached = signed.get(id);
    if (cached) return cached;
    const url = await sign(key, filename, ttlSeconds + reuse);
    signed.set(id, url);
    return url;
  };
}

/**
 * Rendered materials kept for `reuseSeconds` (as URLs are reused, see `urlSigner`), their URLs signed for
 * `ttlSeconds` beyond that, so that a response built from an entry at its last moment still carries URLs valid
 * for `ttlSeconds`.
 */
export function materialJsonFor(store: ObjectStore, ttlSeconds: number, reuseSeconds: number, maxBytes: number) {
  const keepSeconds = Math.max(0, Math.min(reuseSeconds, MAX_URL_SECONDS - ttlSeconds));
  return new MaterialJson({
    maxBytes,
    ttlMs: keepSeconds * 1000,
    sign: (key, filename) => store.presignGet(key, ttlSeconds + keepSeconds, filename ? { filename } : {}),
  });
}

/** Renders one material whole, as `GET /{id}` and every answer about one material carry it. */
export const materialViewer =
  (sign: SignUrl) =>
  (material: Material): Promise<MaterialView> =>
    toMaterialView(material, sign);

/** Renders materials as lists show them: without the heavy fields `include` does not name. */
export const listItemViewer =
  (sign: SignUrl, include: readonly ListInclude[] = []) =>
  (material: Material): Promise<MaterialView> =>
    toMaterialListItem(material, new Set(include), sign);

/** The JSON of a page of materials, as the list endpoints answer it, from its items' JSON. */
export function materialPageJson(page: { rows: string[]; totalCount: number; page: number; totalPages: number }) {
  const { totalCount, totalPages } = page;
  return `{"materials":[${page.rows.join(',')}],"totalCount":${totalCount},"page":${page.page},"totalPages":${totalPages}}`;
}
