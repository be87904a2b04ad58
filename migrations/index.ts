import type { Migration } from 'kysely';
import * as createCoreTables from './0001_create_core_tables.ts';
import * as createIdempotencyKeys from './0002_create_idempotency_keys.ts';
import * as createUsageTables from './0003_create_usage_tables.ts';
import * as createFolders from './0004_create_folders.ts';
import * as moveFolderLabelsIntoFolders from './0005_move_folder_labels_into_folders.ts';
import * as createMaterialChunks from './0006_create_material_chunks.ts';
import * as createWebhooks from './0007_create_webhooks.ts';
import * as createMaterialsNameSearchIndex from './0008_create_materials_name_search_index.ts';
import * as createMaterialCounts from './0009_create_material_counts.ts';
import * as addActivityCountersAndFolderStats from './0010_add_activity_counters_and_folder_stats.ts';
import * as createSearchPostings from './0012_create_search_postings.ts';
import * as notifyAuthChangesAndVersionListings from './0013_notify_auth_changes_and_version_listings.ts';
import * as createSpeechChunks from './0014_create_speech_chunks.ts';
import * as mergeSearchCountsAtCommit from './0015_merge_search_counts_at_commit.ts';
import * as renameMaterialChunksToSearchPassages from './0016_rename_material_chunks_to_search_passages.ts';
import * as addStructureToSearchPassages from './0017_add_structure_to_search_passages.ts';
import * as recordMaterialUsageEvents from './0018_record_material_usage_events.ts';
import * as composeSearchPassages from './0019_compose_search_passages.ts';

/** Listed explicitly (no directory scanning) so bundling and ordering are obvious. */
export const migrations: Record<string, Migration> = {
  '0001_create_core_tables': createCoreTables,
  '0002_create_idempotency_keys': createIdempotencyKeys,
  '0003_create_usage_tables': createUsageTables,
  '0004_create_folders': createFolders,
  '0005_move_folder_labels_into_folders': moveFolderLabelsIntoFolders,
  '0006_create_material_chunks': createMaterialChunks,
  '0007_create_webhooks': createWebhooks,
  '0008_create_materials_name_search_index': createMaterialsNameSearchIndex,
  '0009_create_material_counts': createMaterialCounts,
  '0010_add_activity_counters_and_folder_stats': addActivityCountersAndFolderStats,
  '0012_create_search_postings': createSearchPostings,
  '0013_notify_auth_changes_and_version_listings': notifyAuthChangesAndVersionListings,
  '0014_create_speech_chunks': createSpeechChunks,
  '0015_merge_search_counts_at_commit': mergeSearchCountsAtCommit,
  '0016_rename_material_chunks_to_search_passages': renameMaterialChunksToSearchPassages,
  '0017_add_structure_to_search_passages': addStructureToSearchPassages,
  '0018_record_material_usage_events': recordMaterialUsageEvents,
  '0019_compose_search_passages': composeSearchPassages,
};
