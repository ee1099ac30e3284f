// Shared input handling of the self-service key surfaces: a small JSON object body, e-mail
// addresses, the client address, and the answers for used-up allowances.
import type { SandboxKeyDeps } from '../deps'
import { ApiError, badRequest } from '../../http/errors'
import { readBodyText } from '../../http/body'
import { clientAddress, type PeerSource } from '../../http/client-address'

export const KEY_BODY_LIMIT = 4096

/** The body as a JSON object; anything else is 400 with `code`. An empty body is an empty object. */
export async function readJsonObject(request: Request, deps: Pick<SandboxKeyDeps, 'config' | 'log'>, code: string, shape: string): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, KEY_BODY_LIMIT, deps)
  if (!text.trim()) return {}
  try {
    const body = JSON.parse(text)
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>
  } catch {
    // fall through
  }
  throw badRequest(code, `body must be a JSON object ${shape}`)
}

// One @, no spaces or angle brackets or control characters, a dotted domain; at most 254 characters.
const EMAIL = /^[^\s@<>()[\]\\,;:"\x00-\x1f\x7f]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/

/** The trimmed e-mail address, or null when `value` is not one. */
export function parseEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const email = value.trim()
  return email.length <= 254 && EMAIL.test(email) ? email : null
}

export function callerAddress(request: Request, deps: Pick<SandboxKeyDeps, 'config'>, server: PeerSource | null): string {
  return clientAddress(request, deps.config.clientIpHeader, server)
}

export function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000))
}

/** 429 RATE_LIMITED with Retry-After (whole seconds until the allowance opens again). */
export function rateLimited(message: string, resetAt: number, now: number): ApiError {
  return new ApiError(429, 'RATE_LIMITED', message, { retry_at: new Date(resetAt).toISOString() }, { 'retry-after': String(secondsUntil(resetAt, now)) })
}
