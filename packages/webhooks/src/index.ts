export {
  WEBHOOK_EVENTS,
  materialEvent,
  webhookEventSchema,
  type WebhookEvent,
  type WebhookEventType,
} from './events.ts';
export { generateWebhookSecret, signatureHeader, SIGNATURE_HEADER } from './signature.ts';
export { recordMaterialEvent } from './record-event.ts';
