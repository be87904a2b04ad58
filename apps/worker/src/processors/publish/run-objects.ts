import { createReadStream } from 'node:fs';
import path from 'node:path';
import { storageKeys, type Material } from '@quire/material';
import type { WrittenObject } from '@quire/lifecycle';
import type { ObjectStore } from '@quire/storage';
import type { Logger } from 'pino';

/**
 * Where a run writes its derived objects (text, segments, images) under the material's run prefix. Keeps
 * the list of what it wrote, for the lifecycle to make the material own, or for `discard` when the run fails.
 */
export class RunObjects {
  readonly written: WrittenObject[] = [];
  private readonly runKey: string;

  constructor(
    private readonly store: ObjectStore,
    material: Material,
    /** The sandbox's output folder, where its image files are. */
    private readonly outputDir: string,
  ) {
    this.runKey = storageKeys.derivedRun(material.organizationId, material.id);
  }

  async put(name: string, body: Buffer | string, contentType: string): Promise<string> {
    const key = storageKeys.derived(this.runKey, name);
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    await this.store.put(key, data, { contentType });
    this.written.push({ key, bytes: data.length });
    return key;
  }

  async putImageFile(name: string, format: string): Promise<string> {
    const key = storageKeys.derived(this.runKey, name);
    const { size } = await this.store.put(key, createReadStream(path.join(this.outputDir, name)), {
      contentType: `image/${format}`,
    });
    this.written.push({ key, bytes: size });
    return key;
  }

  /** Removes what the run wrote; a failure to do so is logged, never thrown over the run's own error. */
  async discard(log: Logger): Promise<void> {
    await this.store
      .remove(this.written.map((o) => o.key))
      .catch((removeErr) => log.warn({ err: removeErr }, 'objects of a failed run could not be removed'));
  }
}
