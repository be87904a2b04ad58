/*
 * Materials in a given state, for tests and benchmarks that need one the api or the worker would take a while
 * to make: they are written by the lifecycle (created, then moved by the transition table), never by a raw
 * status write.
 */
export { seedMaterial, seedMaterials, seedMove, seedPassages } from '@quire/lifecycle/seed';
