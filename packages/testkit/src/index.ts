export {
  createMigratedScratchDatabase,
  createScratchDatabase,
  migrationBefore,
  type MigratedScratchDatabase,
  type ScratchDatabase,
} from './scratch-database.ts';
export { localStorageOf, startTestStack, type TestStack, type Tenant, type StorageDriver } from './test-stack.ts';
export {
  contentBombPdf,
  imageHeavyPdf,
  makeEpub,
  makeImageBomb,
  makePdf,
  makeTextImage,
  makeZipBomb,
  pdfWithPictures,
  renderPdf,
  type EpubChapter,
  type EpubOptions,
} from './fixtures.ts';
export {
  makeDocx,
  makeEncryptedOffice,
  makeOdt,
  makeOfficeZipBomb,
  makeOle2,
  makePptx,
  makeRtf,
  makeXlsx,
  officePicture,
} from './office-fixtures.ts';
export { SANDBOX_SETTINGS, sandboxJob } from './sandbox-jobs.ts';
export { blankScan, scanOf, scannedPdf } from './scan-fixtures.ts';
export { wordF1 } from './word-f1.ts';
export { seedMaterial, seedMaterials, seedMove, seedPassages } from './seed-materials.ts';
export { startHttpServer, type TestHttpServer } from './http-server.ts';
export { noise, RECORDINGS, sceneVideo, speechAudio, speechWithPauses, type Recording } from './media-fixtures.ts';
export {
  descendantsOf,
  isRunning,
  rssMb,
  spawnLogged,
  spawnService,
  startWorkerProcess,
  waitForOk,
  waitUntil,
  type ServiceProcess,
} from './processes.ts';
export { sendJson, uploadAndProcess, waitForStatus } from './requests.ts';
export { OpenApiResponseChecker } from './openapi-responses.ts';
export { parsePrometheusText, sampleValue, type Sample } from './prometheus.ts';
export { recountSearchStatistics, type SearchRecount } from './search-recount.ts';
export {
  fleetUnavailableReason,
  removeStaleFleets,
  startFleet,
  HOST_NAMES,
  type Fleet,
  type FleetHost,
  type HostName,
  type LinkName,
} from './fleet.ts';
export * as sdk from './sdk-types.ts';
export { readAsSdk, sdkQuery } from './sdk-types.ts';
