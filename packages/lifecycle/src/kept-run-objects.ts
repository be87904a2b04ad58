import type { Material } from '@quire/material';
import type { LifecycleDeps } from './deps.ts';
import { forgetObjects, recordObject } from './material-writes.ts';

/**
 * Stores an object a run needs before its result is published (a long recording's chunk audio) and records
 * it as the material's, so deleting the material, or its next run, removes what a crashed run left behind.
 */
export async function keepRunObject(
  deps: Pick<LifecycleDeps, 'db' | 'store'>,
  material: Material,
  key: string,
  body: Buffer,
  contentType: string,
): Promise<void> {
  await deps.store.put(key, body, { contentType });
  await recordObject(deps.db, material.id, key, 'derived', body.length);
}

/**
 * Removes objects a run no longer needs. Those that could not be removed stay recorded as the material's,
 * for its next run or its deletion to remove; returns whether they were removed.
 */
export async function dropRunObjects(
  deps: Pick<LifecycleDeps, 'db' | 'store'>,
  material: Material,
  keys: string[],
  onError: (err: unknown) => void,
): Promise<boolean> {
  const removed = await deps.store.remove(keys).then(
    () => true,
    (err) => {
      onError(err);
      return false;
    },
  );
  if (removed) await forgetObjects(deps.db, material.id, keys);
  return removed;
}
