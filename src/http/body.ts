// Reading request bodies within a route's own limit and time. The declared Content-Length is
// checked before anything is read, a chunked body is counted while it arrives and cut off at the
// limit, and a body that stops arriving is answered 408 instead of holding the request open.
import type { Logger } from '../log'
import { ApiError } from './errors'

/**
 * The server-wide ceiling (Bun's maxRequestBodySize): the largest route limit (256 KiB: /mcp and
 * the Paddle webhook) with headroom, so that a body just over a route's own limit still gets that
 * route's JSON 413. Bun answers a bigger body itself with an empty 413 before the app sees it.
 * Raise this only together with a route that needs more.
 */
export const MAX_REQUEST_BODY_BYTES = 512 * 1024

export type BodyFailure = 'too_large' | 'timeout'

export class BodyError extends Error {
  constructor(readonly failure: BodyFailure, readonly limit: number) {
    super(failure === 'too_large' ? `body is limited to ${limit} bytes` : 'the request body did not arrive in time')
    this.name = 'BodyError'
  }

  /** The main API's answer: 413 PAYLOAD_TOO_LARGE or 408 REQUEST_TIMEOUT. */
  toApiError(): ApiError {
    return this.failure === 'too_large' ? new ApiError(413, 'PAYLOAD_TOO_LARGE', this.message, { limit_bytes: this.limit }) : new ApiError(408, 'REQUEST_TIMEOUT', `${this.message}; send the whole body at once`, {}, { connection: 'close' })
  }
}

export interface BodyOptions {
  limit: number
  timeoutMs: number
}

/** Reads at most `limit` bytes within `timeoutMs`; throws BodyError otherwise. */
export async function readBody(request: Request, { limit, timeoutMs }: BodyOptions): Promise<Uint8Array> {
  const declared = request.headers.get('content-length')
  if (declared !== null && !(Number(declared) <= limit)) throw new BodyError('too_large', limit)
  if (!request.body) return new Uint8Array()
  // A declared length within the limit: HTTP framing delivers no more than that, so the whole
  // body is taken in one native call, raced against the same deadline (a stream reader and a
  // race per chunk cost several times more per request on the tool endpoint and the witness).
  if (declared !== null) return readDeclared(request, limit, timeoutMs)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline])
      if (next === 'timeout') throw new BodyError('timeout', limit)
      if (next.done) break
      total += next.value.byteLength
      if (total > limit) throw new BodyError('too_large', limit)
      chunks.push(next.value)
    }
  } catch (error) {
    reader.cancel().catch(() => {})
    throw error
  } finally {
    clearTimeout(timer)
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
}

async function readDeclared(request: Request, limit: number, timeoutMs: number): Promise<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  const whole = request.arrayBuffer()
  try {
    const next = await Promise.race([whole, deadline])
    if (next === 'timeout') {
      // The connection is closed with the 408; the read then fails, which is expected.
      whole.catch(() => {})
      throw new BodyError('timeout', limit)
    }
    if (next.byteLength > limit) throw new BodyError('too_large', limit)
    return new Uint8Array(next)
  } finally {
    clearTimeout(timer)
  }
}

/**
 * readBody for the main API: failures become 413/408 ApiErrors; a stalled upload is logged at
 * warn (a client or network problem, not a fault of the service).
 */
export async function readBodyText(request: Request, limit: number, deps: { log: Logger; config: { bodyTimeoutMs: number } }): Promise<string> {
  try {
    return new TextDecoder().decode(await readBody(request, { limit, timeoutMs: deps.config.bodyTimeoutMs }))
  } catch (error) {
    if (!(error instanceof BodyError)) throw error
    if (error.failure === 'timeout') deps.log.warn('request body timed out', { path: new URL(request.url).pathname, timeout_ms: deps.config.bodyTimeoutMs })
    throw error.toApiError()
  }
}
