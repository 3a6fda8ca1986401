import { createHmac } from 'node:crypto';

/** The `X-Toolgate-Signature` value of `body`: `sha256=` and the hex HMAC-SHA256 of its UTF-8 bytes. */
export function signWebhookBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}
