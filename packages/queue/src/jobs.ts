/** Every job quire runs: name -> payload. Payloads carry ids only; the rows hold the truth. */
export interface JobMap {
  'process-material': { materialId: string };
}

export type JobName = keyof JobMap;

export const MATERIALS_QUEUE = 'materials';

export interface ProcessResult {
  status: 'active' | 'error' | 'skipped';
}
