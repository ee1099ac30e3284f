// Paddle-Signature: `ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">`, checked on the
// raw bytes before anything is parsed. Several h1 values may be present while a secret is being
// rotated, and several secrets may be configured: any pair that matches is enough. Timestamps
// older than 300 s are refused (Paddle's own SDK allows 5 s, which rejects Paddle's retries).
import { createHmac, timingSafeEqual } from 'node:crypto'

export const PADDLE_MAX_AGE_SECONDS = 300

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' }

export function parseSignatureHeader(header: string): { ts: number; h1: string[] } | null {
  let ts: number | null = null
  const h1: string[] = []
  for (const part of header.split(';')) {
    const [key, value, ...rest] = part.trim().split('=')
    if (!value || rest.length) return null
    if (key === 'ts' && /^[0-9]{1,12}$/.test(value)) ts = Number(value)
    else if (key === 'h1' && /^[0-9a-f]{64}$/i.test(value)) h1.push(value.toLowerCase())
  }
  return ts === null || !h1.length ? null : { ts, h1 }
}

export function checkPaddleSignature(header: string | null, rawBody: string, secrets: readonly string[], nowMs: number): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' }
  const parsed = parseSignatureHeader(header)
  if (!parsed) return { ok: false, reason: 'malformed' }
  if (Math.abs(nowMs / 1000 - parsed.ts) > PADDLE_MAX_AGE_SECONDS) return { ok: false, reason: 'stale' }
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${parsed.ts}:${rawBody}`).digest()
    for (const candidate of parsed.h1) {
      if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) return { ok: true }
    }
  }
  return { ok: false, reason: 'mismatch' }
}
