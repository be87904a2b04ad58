export { createDb, type Db } from './connection.ts';
export { migrateToLatest } from './migrate.ts';
export { newId } from './ids.ts';
export * from './schema.ts';
export * from './organizations.repo.ts';
export * from './groups.repo.ts';
export * from './api-keys.repo.ts';
export * from './materials.repo.ts';
export * from './material-objects.repo.ts';
