// One GET from the upstream, bounded: a time limit for the whole answer, a cap on its (decoded)
// size read as it streams, no redirects (a source names its files under its own URL), and a
// conditional request when an ETag is known.

/** The whole answer (headers and body) within this, or the request fails. */
export const UPSTREAM_TIMEOUT_MS = 15_000

export type UpstreamAnswer =
  | { kind: 'ok'; bytes: Uint8Array; etag: string | null }
  | { kind: 'not_modified' }
  | { kind: 'too_large'; detail: string }
  | { kind: 'failed'; detail: string }

export async function upstreamGet(url: string, options: { maxBytes: number; etag?: string | null; timeoutMs?: number }): Promise<UpstreamAnswer> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? UPSTREAM_TIMEOUT_MS)
  try {
    const response = await fetch(url, {
      redirect: 'manual',
      signal: controller.signal,
      headers: { 'user-agent': 'openbell-calendar-follower', ...(options.etag ? { 'if-none-match': options.etag } : {}) },
    })
    if (response.status === 304) return { kind: 'not_modified' }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {})
      return { kind: 'failed', detail: response.status >= 300 && response.status < 400 ? `HTTP ${response.status}: redirects are not followed` : `HTTP ${response.status}` }
    }
    const declared = Number(response.headers.get('content-length') ?? NaN)
    if (declared > options.maxBytes) {
      await response.body?.cancel().catch(() => {})
      return { kind: 'too_large', detail: `${url} declares ${declared} bytes; the limit is ${options.maxBytes}` }
    }
    const chunks: Uint8Array[] = []
    let size = 0
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length
      if (size > options.maxBytes) {
        controller.abort()
        return { kind: 'too_large', detail: `${url} sent more than ${options.maxBytes} bytes` }
      }
      chunks.push(chunk)
    }
    return { kind: 'ok', bytes: Buffer.concat(chunks), etag: response.headers.get('etag') }
  } catch (error) {
    return { kind: 'failed', detail: controller.signal.aborted ? `no complete answer within ${options.timeoutMs ?? UPSTREAM_TIMEOUT_MS} ms` : (error as Error).message }
  } finally {
    clearTimeout(timer)
  }
}

/** Bytes as UTF-8 text, or null when they are not valid UTF-8 (a byte order mark is kept, so the text's bytes are the bytes). */
export function utf8Text(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return null
  }
}
