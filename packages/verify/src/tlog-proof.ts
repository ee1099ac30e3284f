// C2SP tlog-proof: an entry's index, its inclusion proof and a checkpoint (with cosignatures),
// checked offline under a tlog-policy.
//   c2sp.org/tlog-proof@v1
//   [extra <base64>]        opaque, NOT authenticated
//   index <n>
//   <base64 hash>…          RFC 6962 PATH, leaf's sibling first
//   (empty line)
//   <checkpoint, verbatim>
import { equal, fromBase64, toBase64 } from './bytes.js'
import { leafHash } from './crypto.js'
import { parseCheckpoint, type Checkpoint } from './checkpoint.js'
import { checkSignature } from './cosignature.js'
import { rootFromInclusionProof } from './merkle.js'
import { describeKey, parseNote, type Note, type Vkey } from './note.js'
import { parsePolicy, quorumMet } from './policy.js'

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1'
/** More than the deepest tree of 2^63 leaves needs. */
const MAX_PATH = 63

export interface TlogProof {
  extra: Uint8Array | null
  index: number
  path: Uint8Array[]
  /** The signed checkpoint note, verbatim. */
  checkpoint: string
}

export type ParsedProof = { ok: true; proof: TlogProof } | { ok: false; message: string }

export function parseTlogProof(text: string): ParsedProof {
  const fail = (message: string): ParsedProof => ({ ok: false, message })
  const lines = text.split('\n')
  if (lines[0] !== TLOG_PROOF_HEADER) return fail(`the first line must be ${TLOG_PROOF_HEADER}`)
  let at = 1
  let extra: Uint8Array | null = null
  if (lines[at]?.startsWith('extra ')) {
    extra = fromBase64(lines[at]!.slice(6))
    if (!extra || !extra.length) return fail('the extra line must carry non-empty standard base64')
    at++
  }
  const index = /^index (0|[1-9][0-9]{0,15})$/.exec(lines[at] ?? '')
  if (!index || !Number.isSafeInteger(Number(index[1]))) return fail('expected the line "index <n>" (decimal, no leading zeros)')
  at++
  const path: Uint8Array[] = []
  for (; at < lines.length && lines[at] !== ''; at++) {
    const hash = fromBase64(lines[at]!)
    if (!hash || hash.length !== 32) return fail(`proof line ${path.length + 1} is not a base64 SHA-256 hash`)
    if (path.length === MAX_PATH) return fail('too many proof lines')
    path.push(hash)
  }
  if (at >= lines.length) return fail('the inclusion proof must be followed by an empty line and the checkpoint')
  return { ok: true, proof: { extra, index: Number(index[1]), path, checkpoint: lines.slice(at + 1).join('\n') } }
}

export function formatTlogProof(proof: TlogProof): string {
  return `${TLOG_PROOF_HEADER}\n${proof.extra ? `extra ${toBase64(proof.extra)}\n` : ''}index ${proof.index}\n${proof.path.map((hash) => `${toBase64(hash)}\n`).join('')}\n${proof.checkpoint}`
}

export type ProofFailure =
  | 'malformed_proof'
  | 'malformed_policy'
  | 'malformed_checkpoint'
  | 'unknown_log'
  | 'log_signature_invalid'
  | 'log_signature_missing'
  | 'cosignature_invalid'
  | 'quorum_not_met'
  | 'inclusion_failed'

export interface ProofVerdict {
  valid: boolean
  /** Why it failed (absent when valid). */
  reason?: ProofFailure
  /** A sentence for people. */
  message: string
  index?: number
  treeSize?: number
  origin?: string
  /** The extra data as given (unauthenticated). */
  extra?: Uint8Array | null
  /** The log keys whose signature verified ("name+keyid"). */
  logKeys?: string[]
  /** The policy's witnesses that cosigned, with the cosignature's time (seconds since the epoch). */
  cosignatures?: { witness: string; key: string; timestamp: number | null }[]
}

/**
 * Verifies a tlog-proof for the entry `entryBytes` under the policy text: the checkpoint is signed
 * by a policy log of its origin (no signature of a known key may fail), every known witness's
 * cosignature verifies and together they meet the quorum, and the inclusion proof leads from the
 * entry's leaf hash to the checkpoint's root.
 */
export function verifyTlogProof(proofText: string, policyText: string, entryBytes: Uint8Array): ProofVerdict {
  const parsedPolicy = parsePolicy(policyText)
  if (!parsedPolicy.ok) return { valid: false, reason: 'malformed_policy', message: `the policy is malformed (line ${parsedPolicy.line}: ${parsedPolicy.message})` }
  const { policy } = parsedPolicy
  const parsed = parseTlogProof(proofText)
  if (!parsed.ok) return { valid: false, reason: 'malformed_proof', message: `the proof is malformed: ${parsed.message}` }
  const { proof } = parsed
  const note = parseNote(proof.checkpoint)
  const checkpoint = note && parseCheckpoint(note.text)
  if (!note || !checkpoint) return { valid: false, reason: 'malformed_checkpoint', message: 'the proof does not end in a signed checkpoint (origin, size, root hash, then signature lines)', extra: proof.extra, index: proof.index }
  const facts = { index: proof.index, treeSize: checkpoint.size, origin: checkpoint.origin, extra: proof.extra }

  const logs = policy.logs.filter((key) => key.name === checkpoint.origin)
  if (!logs.length) return { valid: false, reason: 'unknown_log', message: `the policy lists no log of origin ${checkpoint.origin}`, ...facts }
  const logKeys: string[] = []
  for (const key of logs) {
    const check = checkSignature(note, key)
    if (check.verdict === 'invalid') return { valid: false, reason: 'log_signature_invalid', message: `the checkpoint's signature by the log key ${describeKey(key)} does not verify: the checkpoint was altered or not signed by the log`, ...facts }
    if (check.verdict === 'valid') logKeys.push(describeKey(key))
  }
  if (!logKeys.length) return { valid: false, reason: 'log_signature_missing', message: `the checkpoint carries no signature of a log key the policy lists for ${checkpoint.origin}`, ...facts }

  const cosignatures = witnessCosignatures(note, policy.witnesses)
  if ('invalid' in cosignatures) return { valid: false, reason: 'cosignature_invalid', message: `the cosignature of witness ${cosignatures.invalid} does not verify`, ...facts, logKeys }
  if (!quorumMet(policy, new Set(cosignatures.map((entry) => entry.witness)))) {
    const names = cosignatures.map((entry) => entry.witness)
    return { valid: false, reason: 'quorum_not_met', message: `the quorum ${policy.quorum} is not met: cosigned by ${names.length ? names.join(', ') : 'no witness of the policy'}`, ...facts, logKeys, cosignatures }
  }
  if (!included(checkpoint, proof, entryBytes)) return { valid: false, reason: 'inclusion_failed', message: `the inclusion proof does not lead from this entry at index ${proof.index} to the root of the checkpoint of size ${checkpoint.size}`, ...facts, logKeys, cosignatures }
  return { valid: true, message: `entry ${proof.index} of ${checkpoint.origin} (tree size ${checkpoint.size}) is included; signed by ${logKeys.join(', ')}; cosigned by ${cosignatures.map((entry) => entry.witness).join(', ') || 'no witness (quorum none)'}`, ...facts, logKeys, cosignatures }
}

function witnessCosignatures(note: Note, witnesses: ReadonlyMap<string, Vkey>): { witness: string; key: string; timestamp: number | null }[] | { invalid: string } {
  const found: { witness: string; key: string; timestamp: number | null }[] = []
  for (const [name, key] of witnesses) {
    const check = checkSignature(note, key, true)
    if (check.verdict === 'invalid') return { invalid: `${name} (${describeKey(key)})` }
    if (check.verdict === 'valid') found.push({ witness: name, key: describeKey(key), timestamp: check.timestamp })
  }
  return found
}

function included(checkpoint: Checkpoint, proof: TlogProof, entry: Uint8Array): boolean {
  const root = rootFromInclusionProof(leafHash(entry), proof.index, checkpoint.size, proof.path)
  return root !== null && equal(root, checkpoint.root)
}
