// GET for a client of a log it does not trust (`openbell log verify`): every request has a
// deadline for its headers, for each silence while the body arrives and for the whole answer;
// each answer has a size cap, applied to the bytes received and again to the bytes a gzip
// encoding expands to (decompressed as a stream, stopped at the cap); redirects are followed
// only within the origin asked, a few at most. Anything else is refused with a Refused error
// whose message says what and where, in printable text.
import { printable } from './printable'

export interface FetchLimits {
  /** Until the answer's status line and headers have arrived (connecting included). */
  headersMs: number
  /** Longest silence while the body arrives (a server dripping a byte now and then). */
  idleMs: number
  /** The whole request, headers and body. */
  totalMs: number
  /** Redirects followed, each within the origin asked. */
  maxRedirects: number
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { headersMs: 10_000, idleMs: 10_000, totalMs: 60_000, maxRedirects: 3 }

/** Bytes of an error answer's body read to show in the message; the rest is not read. */
const ERROR_BODY_BYTES = 2048

/** An answer broke a limit or a rule of this client: the log could not be verified. */
export class Refused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'Refused'
  }
}

/** An answer with a status other than 200: its status and the start of its body, made printable. */
export class UnexpectedStatus extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    readonly excerpt: string,
  ) {
    super(`GET ${path} answered ${status}${excerpt ? `: ${excerpt}` : ''}`)
    this.name = 'UnexpectedStatus'
  }
}

const seconds = (ms: number) => `${ms / 1000} s`

function parseUrl(text: string, base: URL): URL | null {
  try {
    return new URL(text, base)
  } catch {
    return null
  }
}

export interface BoundedGet {
  /** The body of a 200 answer to GET base+path, at most `cap` bytes once decoded. */
  (path: string, cap: number): Promise<Uint8Array>
}

export function boundedGet(baseUrl: string, limits: FetchLimits = DEFAULT_FETCH_LIMITS, fetcher: typeof fetch = fetch): BoundedGet {
  const base = new URL(baseUrl)
  const prefix = baseUrl.replace(/\/+$/, '')
  return async (path, cap) => {
    const abort = new AbortController()
    // What ended the request, for the message; set before aborting.
    let ended: string | null = null
    const stop = (why: string) => {
      ended ??= why
      abort.abort()
    }
    const total = setTimeout(() => stop(`GET ${path} took longer than ${seconds(limits.totalMs)} (--timeout)`), limits.totalMs)
    try {
      let url = new URL(`${prefix}${path}`)
      let response: Response
      for (let hops = 0; ; hops++) {
        const headers = setTimeout(() => stop(`GET ${path}: no answer within ${seconds(limits.headersMs)} (--connect-timeout)`), limits.headersMs)
        try {
          // decompress: false — Bun would otherwise expand a gzip body whole, however large.
          response = await fetcher(url, { headers: { 'accept-encoding': 'gzip' }, redirect: 'manual', signal: abort.signal, decompress: false } as RequestInit)
        } catch (error) {
          throw ended ? new Refused(ended) : error
        } finally {
          clearTimeout(headers)
        }
        if (response.status < 300 || response.status > 399 || response.status === 304) break
        await response.body?.cancel().catch(() => {})
        const location = response.headers.get('location')
        const next = location === null ? null : parseUrl(location, url)
        if (!next) throw new Refused(`GET ${path} was redirected (${response.status}) without a usable Location`)
        if (next.origin !== base.origin) throw new Refused(`GET ${path} was redirected to another origin (${printable(next.origin, 100)}); a log's answers must come from ${base.origin}`)
        if (hops + 1 > limits.maxRedirects) throw new Refused(`GET ${path} was redirected more than ${limits.maxRedirects} times`)
        url = next
      }
      const encoding = (response.headers.get('content-encoding') ?? 'identity').trim().toLowerCase()
      if (encoding !== 'identity' && encoding !== 'gzip') {
        await response.body?.cancel().catch(() => {})
        throw new Refused(`GET ${path}: unsupported Content-Encoding ${printable(encoding, 40)}`)
      }
      if (response.status !== 200) {
        const excerpt = await readBody(response, path, encoding === 'gzip', ERROR_BODY_BYTES, limits, stop, () => ended, true)
        throw new UnexpectedStatus(response.status, path, printable(new TextDecoder().decode(excerpt)))
      }
      const declared = Number(response.headers.get('content-length') ?? NaN)
      // A compressed body may exceed its decoded size by a little (headers, stored blocks).
      const rawCap = encoding === 'gzip' ? cap + 1024 + Math.ceil(cap / 1000) : cap
      if (declared > rawCap) {
        await response.body?.cancel().catch(() => {})
        throw new Refused(`GET ${path}: the answer is ${declared} bytes; at most ${rawCap} are accepted for it`)
      }
      return await readBody(response, path, encoding === 'gzip', cap, limits, stop, () => ended, false, rawCap)
    } finally {
      clearTimeout(total)
    }
  }
}

/**
 * Reads a body up to `cap` decoded bytes (gunzipped as it arrives when `gzip`). With `truncate`
 * the first `cap` bytes are returned and the rest is not read; otherwise more than `cap` is refused.
 */
async function readBody(response: Response, path: string, gzip: boolean, cap: number, limits: FetchLimits, stop: (why: string) => void, ended: () => string | null, truncate: boolean, rawCap = Infinity): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array()
  let idle: ReturnType<typeof setTimeout> | undefined
  const quiet = () => {
    clearTimeout(idle)
    idle = setTimeout(() => stop(`GET ${path}: the answer stalled (no byte for ${seconds(limits.idleMs)}, --idle-timeout)`), limits.idleMs)
  }
  let received = 0
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        quiet()
        received += chunk.byteLength
        if (received > rawCap) {
          stop(`GET ${path}: the answer is larger than the ${rawCap} bytes accepted for it`)
          controller.error(new Error('too large'))
          return
        }
        controller.enqueue(chunk)
      },
    }),
  )
  const decoded = gzip ? counted.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>) : counted
  const reader = decoded.getReader()
  // One buffer, grown by doubling up to the cap (a plain body with a Content-Length gets its size
  // at once): no list of chunks and no second copy at the end.
  const declared = Number(response.headers.get('content-length') ?? NaN)
  let body = new Uint8Array(Math.min(cap, !gzip && declared >= 0 ? declared : 64 * 1024))
  let length = 0
  quiet()
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      let chunk = value
      if (length + chunk.byteLength > cap) {
        if (!truncate) {
          stop('over the cap')
          throw new Refused(`GET ${path}: the answer${gzip ? ' expands to' : ' is'} more than the ${cap} bytes accepted for it${gzip ? ' (a gzip bomb?)' : ''}`)
        }
        chunk = chunk.subarray(0, cap - length)
      }
      if (length + chunk.byteLength > body.length) {
        const grown = new Uint8Array(Math.min(cap, Math.max(body.length * 2, length + chunk.byteLength)))
        grown.set(body.subarray(0, length))
        body = grown
      }
      body.set(chunk, length)
      length += chunk.byteLength
      if (length === cap && truncate) break
    }
  } catch (error) {
    if (error instanceof Refused) throw error
    const why = ended()
    if (why) throw new Refused(why)
    if (gzip) throw new Refused(`GET ${path}: the gzip body does not decode (${printable((error as Error).message, 100)})`)
    throw error
  } finally {
    clearTimeout(idle)
    reader.cancel().catch(() => {})
  }
  return length === body.length ? body : body.subarray(0, length)
}
