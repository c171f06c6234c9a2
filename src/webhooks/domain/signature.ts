import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 24 random bytes (X16), the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks signature header value (X18): `v1,` + base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}` keyed with the base64-decoded part of the secret after `whsec_`.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
