export type { LifecycleDeps } from './deps.ts';
export { JobRefusedError } from './job-refused.ts';
export { createFromText, createFromUrl, createPendingUploads, type NewMaterial, type PendingUpload } from './create.ts';
export {
  createFromUpload,
  type StoredUpload,
  type UploadOutcome,
  type UploadPreconditions,
  type UploadRefusal,
} from './upload.ts';
export { completeUpload, type CompleteOutcome, type CompleteRefusal } from './complete-upload.ts';
export { recordProgress } from './progress.ts';
export { moveMaterials, renameMaterial, replaceReferences } from './edit.ts';
export { uploadUrlState, settleUploadedBody } from './upload-url.ts';
export { attachOriginal, type FetchedOriginal } from './attach-original.ts';
export { keepRunObject, dropRunObjects } from './kept-run-objects.ts';
export { publishResult, type PublishOutcome, type RunResult, type WrittenObject } from './publish-result.ts';
export type { SearchPassage } from './search-passages.ts';
export { recordFailure, type FailureOutcome } from './record-failure.ts';
export { reprocess, type ReprocessOutcome } from './reprocess.ts';
export { deleteMaterial } from './delete.ts';
export { keepTextFile } from './text-file.ts';
export { cancelProcessing, type CancelDeps, type CancelOutcome } from './cancel.ts';
export { requeueStuckMaterial, removeLateOriginals } from './sweep.ts';
export { jsonSafe } from './json-safe.ts';
