import { z } from 'zod';
import type { ContentType } from '@quire/extract';
import type { MaterialMetadata } from './metadata.ts';
import type { MaterialSource } from './source.ts';
import type { MaterialStatus } from './status.ts';

export const referenceSchema = z.strictObject({
  title: z.string().trim().min(1).max(1000),
  url: z.string().max(4000).url(),
});
export type Reference = z.infer<typeof referenceSchema>;

/** A material as the code handles it; `material.row.ts` maps it to and from its database row. */
export interface Material {
  id: string;
  organizationId: string;
  folderId: string | null;
  name: string;
  /** A URL's is provisional (the client's claim) until its bytes are fetched. */
  contentType: ContentType;
  status: MaterialStatus;
  source: MaterialSource;
  metadata: MaterialMetadata;
  references: Reference[];
  extractImages: boolean;
  storageBytes: number;
  derivedBytes: number;
  processingStartedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
