// One delivery attempt: check the target again, connect to the checked address (the URL's name
// goes in Host and in TLS SNI, and the certificate is verified against it), never follow a
// redirect, give up after the timeout. Any 2xx is success.
import { isIP } from 'node:net'
import type { lookup } from 'node:dns/promises'
import { checkTarget, hostOf, type TargetCheck } from './ssrf'
import { signedHeaders } from './signing'

export const DELIVERY_TIMEOUT_MS = 10_000

export interface AttemptResult {
  delivered: boolean
  /** HTTP status from the target; 0 when no answer came (refused target, network error, timeout). */
  statusCode: number
  error: string | null
}

export interface SenderOptions {
  allowPrivate: boolean
  /** Extra trusted CA (PEM); the runtime's NODE_EXTRA_CA_CERTS does the same for a whole process. */
  ca?: string | null
  timeoutMs?: number
  resolve?: typeof lookup
}

export class WebhookSender {
  ca: string | null
  /** The resolver of every target check, at subscribe and before each attempt (tests replace it). */
  resolve: typeof lookup | undefined
  constructor(private readonly options: SenderOptions) {
    this.ca = options.ca ?? null
    this.resolve = options.resolve
  }

  /** The request-forgery check of a host, as subscribing and every attempt make it. */
  check(host: string): Promise<TargetCheck> {
    return checkTarget(host, this.options.allowPrivate, this.resolve)
  }

  async send(target: { url: string; secret: string }, id: string, body: string, nowMs: number): Promise<AttemptResult> {
    const url = new URL(target.url)
    const host = hostOf(url)
    const check = await this.check(host)
    if (!check.ok) return { delivered: false, statusCode: 0, error: `target refused: ${check.reason}` }
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
      const response = await fetch(pinned, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(this.options.timeoutMs ?? DELIVERY_TIMEOUT_MS), tls } as RequestInit)
      await response.body?.cancel().catch(() => {})
      const delivered = response.status >= 200 && response.status < 300
      return { delivered, statusCode: response.status, error: delivered ? null : `HTTP ${response.status}` }
    } catch (error) {
      const name = (error as Error).name
      // Runtime messages quote the URL; its path may hold a token, so only the host is kept.
      const message = (error as Error).message.replace(/https?:\/\/[^\s"']+/g, url.host).slice(0, 300)
      return { delivered: false, statusCode: 0, error: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : message }
    }
  }
}
