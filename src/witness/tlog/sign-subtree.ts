// C2SP tlog-witness sign-subtree: given a checkpoint this witness cosigned and a subtree
// consistency proof (draft-ietf-plants-merkle-tree-certs-03 section 4.4), cosign the subtree
// [start, end) with ML-DSA-44 (timestamp 0: no statement about the latest tree). Nothing is
// written: the witness signs only what its add-checkpoint compare-and-swap already accepted —
// the checkpoint must carry its own valid cosignature, and its stored head for that log must
// have reached the checkpoint's size (the same root at that size).
import { checkSignature, parseNote, parseVkey, validSubtree, verifySubtreeConsistency, type Vkey } from '@openbell/verify'
import { parseCheckpoint } from '../../transparency/checkpoint'
import { strictBase64 } from '../../transparency/note'
import type { WitnessCosigners } from '../../transparency/keys'
import { MAX_PROOF_LINES } from './add-checkpoint'
import type { TlogWitnessStore } from './store'

export interface SignSubtreeRequest {
  start: number
  end: number
  hash: Uint8Array
  proof: Uint8Array[]
  /** The reference checkpoint (a signed note). */
  checkpoint: string
}

export type SignSubtreeOutcome =
  | { kind: 'cosigned'; lines: string }
  | { kind: 'bad_request'; message: string }
  | { kind: 'unknown_log'; origin: string }
  | { kind: 'forbidden'; message: string }
  | { kind: 'unprocessable'; message: string }

const DECIMAL = '(0|[1-9][0-9]{0,15})'

/** "subtree <start> <end>\n", the base64 subtree hash, up to 63 proof lines, an empty line, the checkpoint; null when malformed. */
export function parseSignSubtree(body: string): SignSubtreeRequest | null {
  const head = new RegExp(`^subtree ${DECIMAL} ${DECIMAL}\\n([^\\n]*)\\n`).exec(body)
  if (!head) return null
  const [start, end] = [Number(head[1]), Number(head[2])]
  const hash = strictBase64(head[3]!)
  if (!hash || hash.length !== 32 || !Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null
  let at = head[0].length
  const proof: Uint8Array[] = []
  for (;;) {
    const next = body.indexOf('\n', at)
    if (next < 0) return null
    const line = body.slice(at, next)
    at = next + 1
    if (line === '') break
    const node = strictBase64(line)
    if (!node || node.length !== 32 || proof.length === MAX_PROOF_LINES) return null
    proof.push(node)
  }
  return { start, end, hash, proof, checkpoint: body.slice(at) }
}

export interface SignSubtreeDeps {
  store: TlogWitnessStore
  cosigner: WitnessCosigners
  /** The trusted keys of a log origin (empty: the origin is unknown). */
  keysOf: (origin: string) => Promise<unknown[]>
}

export async function signSubtree(deps: SignSubtreeDeps, request: SignSubtreeRequest): Promise<SignSubtreeOutcome> {
  const note = parseNote(request.checkpoint)
  const checkpoint = note ? parseCheckpoint(note.text) : null
  if (!note || !checkpoint) return { kind: 'bad_request', message: 'the reference checkpoint is not a signed note with origin, size and root hash lines' }
  if (!(await deps.keysOf(checkpoint.origin)).length) return { kind: 'unknown_log', origin: checkpoint.origin }
  const own = [deps.cosigner.ed25519.cosignatureVkey, deps.cosigner.mlDsa.vkey].map((text) => parseVkey(text)).filter((key): key is Vkey => key !== null)
  const verdicts = own.map((key) => checkSignature(note, key, true).verdict)
  if (verdicts.includes('invalid')) return { kind: 'forbidden', message: "a cosignature line of this witness's key does not verify" }
  if (!verdicts.includes('valid')) return { kind: 'forbidden', message: 'the reference checkpoint carries no cosignature of this witness' }
  const head = await deps.store.latest(checkpoint.origin)
  const root = Buffer.from(checkpoint.root).toString('hex')
  if (!head || head.size < checkpoint.size || (head.size === checkpoint.size && head.root !== root)) return { kind: 'forbidden', message: 'this witness holds no cosigned checkpoint of that log at that size' }
  const { start, end, hash, proof } = request
  if (!validSubtree(start, end) || end > checkpoint.size) return { kind: 'bad_request', message: `[${start}, ${end}) is not a subtree of a tree of size ${checkpoint.size} (0 <= start < end <= size, start a multiple of the smallest power of two at least end - start)` }
  if (!verifySubtreeConsistency(start, end, checkpoint.size, hash, checkpoint.root, proof)) return { kind: 'unprocessable', message: `the subtree consistency proof from [${start}, ${end}) to the checkpoint of size ${checkpoint.size} does not verify` }
  return { kind: 'cosigned', lines: deps.cosigner.mlDsa.subtreeLine(checkpoint.origin, start, end, hash, 0) }
}
