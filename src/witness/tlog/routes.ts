// The C2SP tlog-witness surface: POST /add-checkpoint (submission prefix: the service's base URL)
// and GET /witness/<sha256 of origin, hex>/checkpoint (monitoring prefix: <base>/witness). Status
// codes and the 409 body are the spec's; other refusals carry the project's error object.
import { Elysia, t } from 'elysia'
import type { TlogWitnessDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { clientAddress } from '../../http/client-address'
import { BodyError, readBody } from '../../http/body'
import { sha256Hex } from '../../crypto/hash'
import { MAX_REQUEST_BYTES, parseAddCheckpoint } from './add-checkpoint'

const SPEC = 'https://c2sp.org/tlog-witness'

export function tlogWitnessRoutes(deps: TlogWitnessDeps) {
  const witness = deps.tlogWitness
  const fail = (status: number, code: string, message: string, headers: Record<string, string> = {}) => new ApiError(status, code, message, { docs: SPEC }, headers)
  return new Elysia({ name: 'tlog-witness' })
    .post(
      '/add-checkpoint',
      async ({ request, server }) => {
        const decision = witness.limiter.hit(clientAddress(request, deps.config.clientIpHeader, server), deps.clock.now())
        if (!decision.allowed) throw fail(429, 'RATE_LIMITED', `too many requests; retry in ${decision.retryAfterSeconds} s`, { 'retry-after': String(decision.retryAfterSeconds) })
        let bytes: Uint8Array
        try {
          bytes = await readBody(request, { limit: MAX_REQUEST_BYTES, timeoutMs: deps.config.bodyTimeoutMs })
        } catch (error) {
          if (!(error instanceof BodyError)) throw error
          throw error.failure === 'too_large' ? fail(400, 'bad_request', `the body is over ${MAX_REQUEST_BYTES} bytes`) : fail(408, 'request_timeout', 'the body did not arrive in time', { connection: 'close' })
        }
        let text: string
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
        } catch {
          throw fail(400, 'bad_request', 'the body is not UTF-8')
        }
        const parsed = parseAddCheckpoint(text)
        if (!parsed) throw fail(400, 'bad_request', 'expected "old <size>", up to 63 base64 proof lines, an empty line, then the signed checkpoint, every line ending in a newline')
        if (!witness.add) throw fail(503, 'witness_unavailable', 'the witness key is offline (no signing key is loaded)')
        let outcome
        try {
          outcome = await witness.add(parsed)
        } catch (error) {
          deps.log.error('witness store unavailable', { error: (error as Error).message })
          throw fail(503, 'witness_unavailable', 'the witness store is unavailable; nothing was cosigned')
        }
        switch (outcome.kind) {
          case 'cosigned':
            return new Response(outcome.lines, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
          case 'conflict':
            return new Response(`${outcome.size}\n`, { status: 409, headers: { 'content-type': 'text/x.tlog.size' } })
          case 'bad_request':
            throw fail(400, 'bad_request', outcome.message)
          case 'unknown_log':
            throw fail(404, 'unknown_log', `this witness does not follow the log ${JSON.stringify(outcome.origin)}`)
          case 'forbidden':
            throw fail(403, 'bad_signature', outcome.message)
          case 'unprocessable':
            throw fail(422, 'inconsistent_checkpoint', outcome.message)
        }
      },
      {
        parse: 'none',
        detail: {
          tags: ['witness'],
          summary: 'C2SP tlog-witness add-checkpoint: old size, consistency proof, signed checkpoint; answers the cosignature/v1 line',
          responses: responses({
            200: ['Cosignature line(s)', t.String(), 'text/plain'],
            400: 'bad_request (malformed body, old size larger than the checkpoint)',
            403: "bad_signature: no valid signature of the log's key, or a failing one",
            404: 'unknown_log: the origin is not witnessed here',
            409: ['The old size is not the size this witness last cosigned: the body is that size', t.String(), 'text/x.tlog.size'],
            422: 'inconsistent_checkpoint: the consistency proof fails, or the root differs at the same size',
            503: 'witness_unavailable',
          }),
        },
      },
    )
    .get(
      '/witness/:originHash/checkpoint',
      async ({ params }) => {
        const hash = params.originHash
        if (!/^[0-9a-f]{64}$/.test(hash)) throw fail(404, 'unknown_log', 'the path holds the SHA-256 of the log origin in lowercase hex')
        for (const log of await witness.logs.list()) {
          if (sha256Hex(log.origin) !== hash) continue
          const head = await witness.store.latest(log.origin)
          if (head) return new Response(head.checkpoint, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=10' } })
        }
        throw fail(404, 'unknown_log', 'this witness has cosigned no checkpoint of that log')
      },
      {
        detail: {
          tags: ['witness'],
          summary: 'The latest checkpoint this witness cosigned for a log (C2SP tlog-witness monitoring), by the SHA-256 of its origin',
          responses: responses({ 200: ['Checkpoint with the log signature and the cosignature', t.String(), 'text/plain'], 404: 'unknown_log' }),
        },
      },
    )
}
