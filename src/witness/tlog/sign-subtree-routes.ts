// POST /sign-subtree (C2SP tlog-witness, submission prefix: the service's base URL): a subtree
// cosignature (ML-DSA-44, timestamp 0) for a subtree of a checkpoint this witness cosigned. The
// status codes are the spec's (400, 403, 404, 422) and those add-checkpoint answers for the same
// failures; refusals carry the project's error object.
import { Elysia, t } from 'elysia'
import type { TlogWitnessDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { responses } from '../../http/openapi'
import { clientAddress } from '../../http/client-address'
import { BodyError, readBody } from '../../http/body'
import { MAX_REQUEST_BYTES } from './add-checkpoint'
import { parseSignSubtree } from './sign-subtree'

const SPEC = 'https://c2sp.org/tlog-witness'

export function signSubtreeRoutes(deps: TlogWitnessDeps) {
  const witness = deps.tlogWitness
  const fail = (status: number, code: string, message: string, headers: Record<string, string> = {}) => new ApiError(status, code, message, { docs: SPEC }, headers)
  return new Elysia({ name: 'tlog-witness-sign-subtree' }).post(
    '/sign-subtree',
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
      const parsed = parseSignSubtree(text)
      if (!parsed) throw fail(400, 'bad_request', 'expected "subtree <start> <end>", the base64 subtree hash, up to 63 base64 proof lines, an empty line, then the reference checkpoint, every line ending in a newline')
      if (!witness.signSubtree) throw fail(503, 'witness_unavailable', 'the witness key is offline (no signing key is loaded)')
      let outcome
      try {
        outcome = await witness.signSubtree(parsed)
      } catch (error) {
        deps.log.error('witness store unavailable', { error: (error as Error).message })
        throw fail(503, 'witness_unavailable', 'the witness store is unavailable; nothing was cosigned')
      }
      switch (outcome.kind) {
        case 'cosigned':
          return new Response(outcome.lines, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
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
        summary: 'C2SP tlog-witness sign-subtree: subtree range, subtree hash, subtree consistency proof, a checkpoint this witness cosigned; answers an ML-DSA-44 subtree cosignature line (timestamp 0)',
        responses: responses({
          200: ['Subtree cosignature line', t.String(), 'text/plain'],
          400: 'bad_request (malformed body, not a subtree, end beyond the checkpoint)',
          403: 'bad_signature: the checkpoint carries no valid cosignature of this witness, or one fails, or this witness holds no cosigned checkpoint of that size',
          404: 'unknown_log: the origin is not witnessed here',
          422: 'inconsistent_checkpoint: the subtree consistency proof does not verify',
          503: 'witness_unavailable',
        }),
      },
    },
  )
}
