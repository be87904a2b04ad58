export { createInfra, type Infra, type InfraOptions, type InfraOverrides } from './create-infra.ts';
export { stopOnSignals } from './shutdown.ts';
