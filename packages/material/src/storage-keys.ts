import { randomBytes } from 'node:crypto';

/**
 * Every object key of a material, in one place (as Immich's StorageCore owns its paths). The store adds
 * its own deployment prefix; these keys are what rows and API answers carry.
 */
export const storageKeys = {
  /** The bytes as uploaded or fetched. */
  original: (organizationId: string, materialId: string) => `${organizationId}/${materialId}/original`,
  /** A text material's text as a file, written when a download URL is first asked for. */
  text: (organizationId: string, materialId: string) => `${organizationId}/${materialId}/text.txt`,
  /**
   * A folder of one processing run's output. Each run gets its own, so a run never overwrites what a
   * concurrent or previous run published; the old folder is removed once the new result is committed.
   */
  derivedRun: (organizationId: string, materialId: string) =>
    `${organizationId}/${materialId}/derived/${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
  /** A file inside a run's folder. */
  derived: (runKey: string, name: string) => `${runKey}/${name}`,
};
