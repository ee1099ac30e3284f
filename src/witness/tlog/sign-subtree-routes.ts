// POST /sign-subtree (C2SP tlog-witness, submission prefix: the service's base URL): a subtree
// cosignature (ML-DSA-44, timestamp 0) for a subtree of a checkpoint this witness cosigned. The
// status codes are the spec's (400, 403, 404, 422) and those add-checkpoint answers for the same
// failures; refusals carry the project's error object.
import { Elysia, t } from 'elysia'
import type { TlogWitnessDeps } from '../deps'
import { responses } from '../../http/openapi'
import { parseSignSubtree } from './sign-subtree'
import { answer, submit } from './submission'

export function signSubtreeRoutes(deps: TlogWitnessDeps) {
  return new Elysia({ name: 'tlog-witness-sign-subtree' }).post(
    '/sign-subtree',
    async ({ request, server }) =>
      answer(
        await submit(deps, request, server, {
          parse: parseSignSubtree,
          malformed: 'expected "subtree <start> <end>", the base64 subtree hash, up to 63 base64 proof lines, an empty line, then the reference checkpoint, every line ending in a newline',
          run: deps.tlogWitness.signSubtree,
        }),
      ),
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
