// One delivery attempt: check the target again, connect to the checked address (the URL's name
// goes in Host and in TLS SNI, and the certificate is verified against it), never follow a
// redirect, give up after the timeout. Any 2xx is success.
import { isIP } from 'node:net'
import type { lookup } from 'node:dns/promises'
import { checkUrl, hostOf, type TargetCheck } from './ssrf'
import { signedHeaders } from './signing'

export const DELIVERY_TIMEOUT_MS = 10_000

/**
 * What a key holder is told about a failed attempt: a category, never the runtime's socket or TLS
 * text (which would let a test delivery probe hosts and ports). `http_<code>` for any answer.
 */
export type FailureCategory = 'target_forbidden' | 'connect_failed' | 'tls_failed' | 'timeout' | `http_${number}`

export interface AttemptResult {
  delivered: boolean
  /** HTTP status from the target; 0 when no answer came (refused target, network error, timeout). */
  statusCode: number
  /** Null when delivered. */
  error: FailureCategory | null
  /** The operator's detail (the guard's reason, the runtime's error code): logs and the queue row only. */
  detail: string | null
}

export interface SenderOptions {
  allowPrivate: boolean
  /** Extra trusted CA (PEM); the runtime's NODE_EXTRA_CA_CERTS does the same for a whole process. */
  ca?: string | null
  timeoutMs?: number
  resolve?: typeof lookup
}

/** Runtime error codes of a failed TLS handshake or certificate check (Bun and Node name them so). */
const TLS_CODE = /CERT|TLS|SSL|EPROTO|UNABLE_TO_|SELF_SIGNED|SIGNATURE|HOSTNAME|ALTNAME/i

export function failureCategory(error: unknown): FailureCategory {
  const { name, code } = (error ?? {}) as { name?: string; code?: unknown }
  if (name === 'TimeoutError' || name === 'AbortError') return 'timeout'
  if (typeof code === 'string' && TLS_CODE.test(code)) return 'tls_failed'
  return 'connect_failed'
}

export class WebhookSender {
  ca: string | null
  /** The resolver of every target check, at subscribe and before each attempt (tests replace it). */
  resolve: typeof lookup | undefined
  /** How long an attempt waits for an answer (tests shorten it). */
  timeoutMs: number
  constructor(private readonly options: SenderOptions) {
    this.ca = options.ca ?? null
    this.resolve = options.resolve
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS
  }

  /** The request-forgery check of a URL (port and host), as subscribing and every attempt make it. */
  check(url: URL): Promise<TargetCheck> {
    return checkUrl(url, this.options.allowPrivate, this.resolve)
  }

  async send(target: { url: string; secret: string }, id: string, body: string, nowMs: number): Promise<AttemptResult> {
    const url = new URL(target.url)
    const host = hostOf(url)
    const check = await this.check(url)
    if (!check.ok) return { delivered: false, statusCode: 0, error: 'target_forbidden', detail: `target refused: ${check.reason}` }
    const address = check.addresses[0]!
    const pinned = new URL(url)
    if (!isIP(host)) pinned.hostname = isIP(address) === 6 ? `[${address}]` : address
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'openbell-webhooks',
      host: url.host,
      ...signedHeaders(target.secret, id, nowMs, body),
    }
    const tls: Record<string, unknown> = {}
    if (!isIP(host)) tls.serverName = host
    if (this.ca) tls.ca = this.ca
    try {
      const response = await fetch(pinned, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs), tls } as RequestInit)
      await response.body?.cancel().catch(() => {})
      const delivered = response.status >= 200 && response.status < 300
      return { delivered, statusCode: response.status, error: delivered ? null : `http_${response.status}`, detail: delivered ? null : `HTTP ${response.status}` }
    } catch (error) {
      const category = failureCategory(error)
      // Runtime messages quote the URL; its path may hold a token, so only the host is kept.
      const message = (error as Error).message.replace(/https?:\/\/[^\s"']+/g, url.host).slice(0, 300)
      const code = (error as { code?: unknown }).code
      return { delivered: false, statusCode: 0, error: category, detail: category === 'timeout' ? 'timeout' : `${category}: ${typeof code === 'string' ? `${code} ` : ''}${message}` }
    }
  }
}
