import type { ApiContext } from '../context.ts';

type Signers = Pick<ApiContext, 'signUrl' | 'store'> & { config: { limits: { uploadUrlTtlSeconds: number } } };

/**
 * A stored answer with its signed URLs minted again: an `Idempotency-Key` is honoured for a day, a URL for an
 * hour, so a replay must not hand back the first answer's URLs, which may be about to expire. Every URL in an
 * answer sits beside the storage key it was signed for (`s3Key` + `s3Url` of a material's file and images,
 * `s3Key` + `uploadUrl` of an upload slot), so the key is all it takes; the rest of the answer is kept as stored.
 */
export async function withFreshUrls(ctx: Signers, body: unknown): Promise<unknown> {
  if (Array.isArray(body)) return Promise.all(body.map((item) => withFreshUrls(ctx, item)));
  if (body === null || typeof body !== 'object') return body;
  const fresh: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) fresh[field] = await withFreshUrls(ctx, value);
  const { s3Key, filename } = fresh;
  if (typeof s3Key !== 'string') return fresh;
  if (typeof fresh.s3Url === 'string') {
    fresh.s3Url = await ctx.signUrl(s3Key, typeof filename === 'string' ? filename : undefined);
  }
  if (typeof fresh.uploadUrl === 'string') {
    fresh.uploadUrl = await ctx.store.presignPut(s3Key, ctx.config.limits.uploadUrlTtlSeconds);
  }
  return fresh;
}
