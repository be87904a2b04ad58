export { startTestStack, type TestStack, type Tenant, type StorageDriver } from './test-stack.ts';
export { makePdf } from './fixtures.ts';
