// The C2SP tlog-witness surface: POST /add-checkpoint (submission prefix: the service's base URL)
// and GET /witness/<sha256 of origin, hex>/checkpoint (monitoring prefix: <base>/witness). Status
// codes and the 409 body are the spec's; other refusals carry the project's error object.
import { Elysia, t } from 'elysia'
import type { TlogWitnessDeps } from '../deps'
import { responses } from '../../http/openapi'
import { sha256Hex } from '../../crypto/hash'
import { parseAddCheckpoint } from './add-checkpoint'
import { answer, submit, witnessFailure as fail } from './submission'

export function tlogWitnessRoutes(deps: TlogWitnessDeps) {
  const witness = deps.tlogWitness
  return new Elysia({ name: 'tlog-witness' })
    .post(
      '/add-checkpoint',
      async ({ request, server }) => {
        const outcome = await submit(deps, request, server, {
          parse: parseAddCheckpoint,
          malformed: 'expected "old <size>", up to 63 base64 proof lines, an empty line, then the signed checkpoint, every line ending in a newline',
          run: witness.add,
        })
        if (outcome.kind === 'conflict') return new Response(`${outcome.size}\n`, { status: 409, headers: { 'content-type': 'text/x.tlog.size' } })
        return answer(outcome)
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
