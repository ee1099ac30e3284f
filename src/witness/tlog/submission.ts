// What the two C2SP tlog-witness POST endpoints (add-checkpoint, sign-subtree) do alike: the
// per-address rate, the body read with its limit and timeout, UTF-8, the endpoint's parse, a loaded
// witness key, a store failure as 503, and the answers to the outcomes both have. Refusals carry
// the project's error object pointing at the spec.
import type { TlogWitnessDeps } from '../deps'
import { ApiError } from '../../http/errors'
import { clientAddress, type PeerSource } from '../../http/client-address'
import { BodyError, readBody } from '../../http/body'
import { MAX_REQUEST_BYTES } from './add-checkpoint'

const SPEC = 'https://c2sp.org/tlog-witness'

export const witnessFailure = (status: number, code: string, message: string, headers: Record<string, string> = {}) => new ApiError(status, code, message, { docs: SPEC }, headers)

/** The outcomes both endpoints have, answered the same way. */
export type SharedOutcome =
  | { kind: 'cosigned'; lines: string }
  | { kind: 'bad_request'; message: string }
  | { kind: 'unknown_log'; origin: string }
  | { kind: 'forbidden'; message: string }
  | { kind: 'unprocessable'; message: string }

export interface Submission<Parsed, Outcome> {
  parse: (text: string) => Parsed | null
  /** The 400 message for a body `parse` refuses: the shape the endpoint expects. */
  malformed: string
  /** The witness's check and cosigning; null while no signing key is loaded. */
  run: ((parsed: Parsed) => Promise<Outcome>) | null
}

/** Takes a submission as far as the witness's outcome; every refusal before it is thrown. */
export async function submit<Parsed, Outcome>(deps: TlogWitnessDeps, request: Request, server: PeerSource | null, submission: Submission<Parsed, Outcome>): Promise<Outcome> {
  const decision = deps.tlogWitness.limiter.hit(clientAddress(request, deps.config.clientIpHeader, server), deps.clock.now())
  if (!decision.allowed) throw witnessFailure(429, 'RATE_LIMITED', `too many requests; retry in ${decision.retryAfterSeconds} s`, { 'retry-after': String(decision.retryAfterSeconds) })
  let bytes: Uint8Array
  try {
    bytes = await readBody(request, { limit: MAX_REQUEST_BYTES, timeoutMs: deps.config.bodyTimeoutMs })
  } catch (error) {
    if (!(error instanceof BodyError)) throw error
    throw error.failure === 'too_large' ? witnessFailure(400, 'bad_request', `the body is over ${MAX_REQUEST_BYTES} bytes`) : witnessFailure(408, 'request_timeout', 'the body did not arrive in time', { connection: 'close' })
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw witnessFailure(400, 'bad_request', 'the body is not UTF-8')
  }
  const parsed = submission.parse(text)
  if (!parsed) throw witnessFailure(400, 'bad_request', submission.malformed)
  if (!submission.run) throw witnessFailure(503, 'witness_unavailable', 'the witness key is offline (no signing key is loaded)')
  try {
    return await submission.run(parsed)
  } catch (error) {
    deps.log.error('witness store unavailable', { error: (error as Error).message })
    throw witnessFailure(503, 'witness_unavailable', 'the witness store is unavailable; nothing was cosigned')
  }
}

/** The answer to an outcome both endpoints have: the cosignature line(s), or the spec's status. */
export function answer(outcome: SharedOutcome): Response {
  switch (outcome.kind) {
    case 'cosigned':
      return new Response(outcome.lines, { headers: { 'content-type': 'text/plain; charset=utf-8' } })
    case 'bad_request':
      throw witnessFailure(400, 'bad_request', outcome.message)
    case 'unknown_log':
      throw witnessFailure(404, 'unknown_log', `this witness does not follow the log ${JSON.stringify(outcome.origin)}`)
    case 'forbidden':
      throw witnessFailure(403, 'bad_signature', outcome.message)
    case 'unprocessable':
      throw witnessFailure(422, 'inconsistent_checkpoint', outcome.message)
  }
}
