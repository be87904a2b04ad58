import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'Quire-Signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the webhook's secret>`: the timestamp is
 * signed with the body, so a receiver that rejects old timestamps also rejects replays.
 */
export function signatureHeader(secret: string, body: string, timestampSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}

export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;
