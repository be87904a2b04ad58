import type { LifecycleDeps } from './deps.ts';
import { patchProcessingMetadata } from './material-writes.ts';

/** Records how far a processing material's run has got (0-100) in its metadata; nothing once it has settled. */
export async function recordProgress(deps: Pick<LifecycleDeps, 'db'>, materialId: string, percent: number) {
  await patchProcessingMetadata(deps.db, materialId, { progress: percent });
}
