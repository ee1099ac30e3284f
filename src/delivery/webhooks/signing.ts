// Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256 over "id.timestamp.body">`
// keyed with the base64-decoded bytes after `whsec_`, so receivers verify with the
// `standardwebhooks` library in any language. Every attempt is signed afresh (new timestamp).
import { createHmac, randomBytes, randomUUID } from 'node:crypto'

export const SECRET_PREFIX = 'whsec_'

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64')
}

/** A delivery's id: the same `webhook-id` on every attempt of that delivery. */
export function newMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`
}

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`
}

export function signedHeaders(secret: string, id: string, nowMs: number, body: string): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000)
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureOf(secret, id, timestamp, body) }
}
