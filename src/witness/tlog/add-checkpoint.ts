// C2SP tlog-witness add-checkpoint: check a log's new checkpoint against the last one this witness
// cosigned for its origin and, when it is consistent, record it and cosign it. The check of the
// old size, the consistency check against the stored root and the move to the new head run in
// one transaction whose write is a compare-and-swap on the old size: of two racing requests from
// the same old size one advances, the other is told the new size (409).
import { parseCheckpoint } from '../../transparency/checkpoint'
import { checkNoteSignature, parseNote, signatureOf, strictBase64, type Vkey } from '../../transparency/note'
import type { WitnessCosigners } from '../../transparency/keys'
import { verifyConsistency } from '../../transparency/proofs'
import { EMPTY_ROOT } from '../../transparency/hashing'
import type { Step, Transactor } from '../../store/transaction'
import type { TlogWitnessStore } from './store'

/** The spec's limit on consistency proof lines. */
export const MAX_PROOF_LINES = 63
export const MAX_REQUEST_BYTES = 64 * 1024

export interface AddCheckpointRequest {
  oldSize: number
  proof: Uint8Array[]
  /** The signed checkpoint (a note). */
  checkpoint: string
}

export type AddCheckpointOutcome =
  | { kind: 'cosigned'; size: number; lines: string }
  | { kind: 'bad_request'; message: string }
  | { kind: 'unknown_log'; origin: string }
  | { kind: 'forbidden'; message: string }
  | { kind: 'conflict'; size: number }
  | { kind: 'unprocessable'; message: string }

/** Parses "old <size>\n", proof lines, an empty line, then the checkpoint; null when malformed. */
export function parseAddCheckpoint(body: string): AddCheckpointRequest | null {
  const match = /^old (0|[1-9][0-9]{0,15})\n/.exec(body)
  if (!match) return null
  const oldSize = Number(match[1])
  let at = match[0].length
  const proof: Uint8Array[] = []
  for (;;) {
    const end = body.indexOf('\n', at)
    if (end < 0) return null
    const line = body.slice(at, end)
    at = end + 1
    if (line === '') break
    const hash = strictBase64(line)
    if (!hash || hash.length !== 32 || proof.length === MAX_PROOF_LINES) return null
    proof.push(hash)
  }
  if (!Number.isSafeInteger(oldSize)) return null
  return { oldSize, proof, checkpoint: body.slice(at) }
}

export interface AddCheckpointDeps {
  store: TlogWitnessStore
  transactor: Transactor
  /** The witness's keys: each cosigns (Ed25519 cosignature/v1, then ML-DSA-44). */
  cosigner: WitnessCosigners
  /** The trusted keys of a log origin (empty: the origin is unknown). */
  keysOf: (origin: string) => Promise<Vkey[]>
}

export async function addCheckpoint(deps: AddCheckpointDeps, request: AddCheckpointRequest, nowMs: number): Promise<AddCheckpointOutcome> {
  const note = parseNote(request.checkpoint)
  const checkpoint = note ? parseCheckpoint(note.text) : null
  if (!note || !checkpoint) return { kind: 'bad_request', message: 'the checkpoint is not a signed note with origin, size and root hash lines' }
  const keys = await deps.keysOf(checkpoint.origin)
  if (!keys.length) return { kind: 'unknown_log', origin: checkpoint.origin }
  const verdicts = keys.map((key) => checkNoteSignature(note, key))
  if (verdicts.includes('invalid')) return { kind: 'forbidden', message: "a signature line of the log's key does not verify" }
  if (!verdicts.includes('valid')) return { kind: 'forbidden', message: "the checkpoint carries no signature of the log's key" }
  if (request.oldSize > checkpoint.size) return { kind: 'bad_request', message: `old size ${request.oldSize} is larger than the checkpoint's size ${checkpoint.size}` }
  if (checkpoint.size === 0 && Buffer.compare(checkpoint.root, EMPTY_ROOT) !== 0) return { kind: 'unprocessable', message: 'a checkpoint of size 0 must carry the root of the empty tree' }
  if (request.oldSize === 0 && request.proof.length) return { kind: 'unprocessable', message: 'from old size 0 the consistency proof must be empty' }

  // What this witness keeps: the checkpoint text, one verified signature line per log key (the
  // copies of a repeated line are dropped, as Go's note.Open drops them), its cosignature.
  const logLines = [...new Set(keys.map((key) => signatureOf(note, key)?.line).filter((line) => line !== undefined))]
  const timestamp = Math.max(1, Math.floor(nowMs / 1000))
  const { store, cosigner } = deps
  const { oldSize, proof } = request
  return deps.transactor.run(function* (): Step<AddCheckpointOutcome> {
    const head = yield* store.head(checkpoint.origin)
    const current = head?.size ?? 0
    if (current !== oldSize) return { kind: 'conflict', size: current }
    if (head && oldSize > 0) {
      const oldRoot = new Uint8Array(Buffer.from(head.root, 'hex'))
      if (!verifyConsistency(oldSize, checkpoint.size, oldRoot, checkpoint.root, proof))
        return { kind: 'unprocessable', message: oldSize === checkpoint.size ? 'the root differs from the one cosigned at this size' : `the consistency proof from size ${oldSize} does not verify` }
    }
    const line = cosigner.cosign(note.text, timestamp)
    const next = { size: checkpoint.size, root: Buffer.from(checkpoint.root).toString('hex'), checkpoint: `${note.text}\n${logLines.join('')}${line}`, cosigned_at: nowMs }
    if (!(yield* store.advance(checkpoint.origin, oldSize, next))) {
      // Another request advanced it since the read (PostgreSQL mostly reports that as a serialization failure instead).
      return { kind: 'conflict', size: (yield* store.head(checkpoint.origin))?.size ?? 0 }
    }
    return { kind: 'cosigned', size: checkpoint.size, lines: line }
  }, { name: 'witness add-checkpoint' })
}
