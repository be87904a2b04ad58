/** Every job quire runs: name -> payload. Payloads carry ids only; the rows hold the truth. */
export interface JobMap {
  'process-material': { materialId: string };
  'deliver-webhook': { deliveryId: string };
}

export type JobName = keyof JobMap;

export const MATERIALS_QUEUE = 'materials';
export const WEBHOOKS_QUEUE = 'webhooks';

export interface ProcessResult {
  status: 'active' | 'error' | 'skipped';
  /** The type the material was processed as (a URL's is known only once fetched); absent when skipped. */
  contentType?: string;
  /** `metadata.error.code` when the material ended `error`. */
  errorCode?: string;
  /** Webhook deliveries recorded with the final status, to enqueue now that it is committed. */
  webhookDeliveries?: string[];
}

export interface DeliveryResult {
  status: 'delivered' | 'skipped';
}
