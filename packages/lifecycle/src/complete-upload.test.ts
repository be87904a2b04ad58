import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
} from 'kysely';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Db } from '@quire/db';
import type { Material, MaterialStatus } from '@quire/material';
import type { MaterialsQueue } from '@quire/queue';
import type { ObjectStore } from '@quire/storage';
import { completeUpload } from './complete-upload.ts';
import { insertMaterial, transitionMaterial } from './material-writes.ts';

/** A database that records the statements it is sent and finds no row, so no test needs a server. */
function recordingDb(): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const connection: DatabaseConnection = {
    executeQuery: (query: CompiledQuery) => {
      statements.push(query.sql);
      return Promise.resolve({ rows: [] });
    },
    streamQuery: () => {
      throw new Error('not streamed');
    },
  };
  const db = new Kysely<never>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
      createDriver: () => ({
        init: () => Promise.resolve(),
        acquireConnection: () => Promise.resolve(connection),
        beginTransaction: (c) => c.executeQuery({ sql: 'begin', parameters: [] } as never).then(() => undefined),
        commitTransaction: (c) => c.executeQuery({ sql: 'commit', parameters: [] } as never).then(() => undefined),
        rollbackTransaction: (c) => c.executeQuery({ sql: 'rollback', parameters: [] } as never).then(() => undefined),
        releaseConnection: () => Promise.resolve(),
        destroy: () => Promise.resolve(),
      }),
    },
  }) as unknown as Db;
  return { db, statements };
}

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not expected to be used')) });

function material(status: MaterialStatus): Material {
  const now = new Date();
  return {
    id: 'm1',
    organizationId: 'o1',
    folderId: null,
    name: 'notes',
    contentType: 'pdf',
    status,
    source: { kind: 'file', file: { s3Key: 'o1/m1/original', filename: 'notes.pdf', mimeType: 'application/pdf' } },
    metadata: {},
    references: [],
    extractImages: true,
    storageBytes: 0,
    derivedBytes: 0,
    processingStartedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

const limits = { maxBytes: 1024 };

/** A store holding a small PDF at every key. */
const storeWithPdf = {
  stat: () => Promise.resolve({ size: 10, etag: 'e1' }),
  head: () => Promise.resolve(Buffer.from('%PDF-1.4\n')),
} as unknown as ObjectStore;

describe('completeUpload', () => {
  const deps = (db: Db, store = unused as ObjectStore) => ({
    db,
    store,
    queue: unused as MaterialsQueue,
    logger: pino({ level: 'silent' }),
  });

  for (const status of ['processing', 'active', 'error', 'deleted'] as const) {
    it(`refuses a material in ${status}, writing nothing`, async () => {
      const { db, statements } = recordingDb();
      const m = material(status);
      const file = { s3Key: 'o1/m1/original', filename: 'notes.pdf', mimeType: 'application/pdf' };
      await expect(completeUpload(deps(db), m, file, limits)).resolves.toEqual({ status: 'not-pending', material: m });
      expect(statements).toEqual([]);
    });
  }

  it('moves a pending_upload material through the guarded move, in one transaction', async () => {
    const { db, statements } = recordingDb();
    const m = material('pending_upload');
    const file = { s3Key: 'o1/m1/original', filename: 'notes.pdf', mimeType: 'application/pdf' };
    // The recording database finds no row: as if another request had completed it first.
    await expect(completeUpload(deps(db, storeWithPdf), m, file, limits)).resolves.toEqual({ status: 'changed' });
    expect(statements[0]).toBe('begin');
    expect(statements[1]).toMatch(
      /^update "materials" set "status" = \$1.* where "id" = \$\d+ and "status" in \(\$\d+\)/,
    );
    expect(statements.at(-1)).toBe('commit');
  });
});

describe('the material writes', () => {
  it('refuse a move the transition table does not allow', async () => {
    const { db, statements } = recordingDb();
    await expect(transitionMaterial(db, 'm1', ['active'], 'active')).rejects.toThrow(
      'a material cannot go from active to active',
    );
    expect(statements).toEqual([]);
  });

  it('create a material only in pending_upload or processing', async () => {
    const { db, statements } = recordingDb();
    const { id, organizationId, folderId, name, contentType, source, references, extractImages } = material('active');
    const input = { id, organizationId, folderId, name, contentType, source, references, extractImages };
    await expect(insertMaterial(db, { ...input, status: 'active' })).rejects.toThrow(
      'a material cannot be created in active',
    );
    expect(statements).toEqual([]);
  });
});
