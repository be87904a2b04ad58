/** Every job quire runs: name -> payload. Payloads carry ids only; the rows hold the truth. */
export interface JobMap {
  /** `speech` is set once a long recording has been cut and its chunk jobs added: the job then waits for them. */
  'process-material': {
    materialId: string;
    /** Whose work it is, for fair sharing and per-organization queue depth; absent on jobs from before them. */
    organizationId?: string;
    speech?: { plan: string; chunks: number };
  };
  /** One chunk of a long recording, a child of its material's `process-material` job. */
  'transcribe-chunk': { materialId: string; plan: string; index: number; organizationId?: string };
  'deliver-webhook': { deliveryId: string };
}

/** The jobs of the materials queue: a material's own, and the chunks it fans out to. */
export type MaterialsJobName = 'process-material' | 'transcribe-chunk';
export type MaterialsJobData = JobMap[MaterialsJobName];

export type JobName = keyof JobMap;

export const MATERIALS_QUEUE = 'materials';
/** Materials someone waits for (`*-and-process`), served by slots of their own. */
export const INTERACTIVE_QUEUE = 'materials-interactive';
export const WEBHOOKS_QUEUE = 'webhooks';

export interface ProcessResult {
  /** `cancelled`: a client cancelled the job while it ran; the cancel settled the material. */
  status: 'active' | 'error' | 'skipped' | 'cancelled';
  /** The type the material was processed as (a URL's is known only once fetched); absent when skipped. */
  contentType?: string;
  /** `metadata.error.code` when the material ended `error`. */
  errorCode?: string;
  /** Webhook deliveries recorded with the final status, to enqueue now that it is committed. */
  webhookDeliveries?: string[];
}

export interface ChunkResult {
  status: 'transcribed' | 'failed' | 'skipped' | 'cancelled';
}

export interface DeliveryResult {
  status: 'delivered' | 'skipped';
}
