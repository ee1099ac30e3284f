// Following a log as a monitor does (what `openbell log verify` runs): from the state of the last
// verified checkpoint (its size, root and the right edge of its tree), download the entries added
// since, rebuild the tree from them, and require the new checkpoint's signature, its root, the
// served tiles and the log's consistency proof all to agree. Any disagreement is a Mismatch.
import { leafHash, rootFromPath } from '../audit/merkle'
import { parseCheckpoint, type Checkpoint } from './checkpoint'
import { cosignerKey, verifyCosignature } from './cosignature'
import { appendLeafHashes, emptyEdge, type Edge } from './integrate'
import { base64, checkNoteSignature, parseNote, parseVkey, strictBase64, type Note } from './note'
import { verifyConsistency } from './proofs'
import { decodeBundle, ENTRIES_LEVEL, HASH_SIZE, MAX_ENTRY_BYTES, tilePath, TILE_WIDTH, tileWidth } from './tiles'
import { boundedGet, DEFAULT_FETCH_LIMITS, UnexpectedStatus, type FetchLimits } from './bounded-fetch'
import { printable } from './printable'
import { verifyReceipt } from '../crypto/verify-receipt'

/** The log does not hold what it signed or once showed: exit non-zero. */
export class Mismatch extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'Mismatch'
  }
}

/** The log did not answer (a 5xx, a 429): nothing could be verified, nothing is wrong yet. */
export class Unavailable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'Unavailable'
  }
}

export interface MonitorState {
  url: string
  origin: string
  vkey: string
  size: number
  /** base64 root of `size`. */
  root: string
  /** The right edge of the tree of `size`: base64 hashes of each level's partial tile. */
  edge: string[][]
  checkpoint: string
  verified_at: string
}

export interface VerifyOptions {
  url: string
  state: MonitorState | null
  /** A vkey given by the user; else the state's, else the one /v5/keys publishes (trusted on first use). */
  vkey?: string
  receiptId?: string
  /** Cosigner vkeys that must have cosigned the checkpoint. */
  witnesses?: string[]
  fetch?: typeof fetch
  /** Deadlines and redirects of every request (bounded-fetch.ts); the size caps are the formats' (ANSWER_CAPS). */
  limits?: FetchLimits
  now?: () => Date
}

export interface VerifyResult {
  state: MonitorState
  lines: string[]
}

/**
 * The most each answer may be, from the formats: a bundle holds at most 256 entries of at most
 * 65,535 bytes, each with its 2-byte length (16 MiB); a tile exactly its hashes. The documents
 * have no format limit: caps far above what a service sends.
 */
export const ANSWER_CAPS = {
  keys: 1 << 20,
  checkpoint: 1 << 16,
  proof: 1 << 16,
  bundle: (width: number) => width * (2 + MAX_ENTRY_BYTES),
  tile: (width: number) => width * HASH_SIZE,
}

/** Bytes of bundles read between two forced garbage collections (a few ms each). */
const COLLECT_EVERY_BYTES = 16 << 20

/** A JSON object answer; anything else is a Mismatch. */
function json<T>(bytes: Uint8Array, what: string): T {
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw new Mismatch(`${what} is not JSON`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Mismatch(`${what} is not a JSON object`)
  return value as T
}

/**
 * Memory stays bounded whatever size the checkpoint claims: one entry bundle is held at a time
 * (at most 16 MiB, plus its compressed form while it arrives), its entries are reduced to leaf
 * hashes and dropped, each hash tile they complete is compared as soon as it is complete, and
 * what is kept is the tree's right edge (at most 255 hashes per level).
 */
export async function verifyLog(options: VerifyOptions): Promise<VerifyResult> {
  const base = options.url.replace(/\/+$/, '')
  const fetchBody = boundedGet(base, options.limits ?? DEFAULT_FETCH_LIMITS, options.fetch ?? fetch)
  const bytes = async (path: string, cap: number): Promise<Uint8Array> => {
    try {
      return await fetchBody(path, cap)
    } catch (error) {
      // A log must serve what its checkpoint covers (a 404 is a mismatch); a server error or a
      // refusal to serve now proves nothing either way: the log could not be verified.
      if (error instanceof UnexpectedStatus) throw error.status >= 500 || error.status === 429 ? new Unavailable(`${error.message}; try again later`) : new Mismatch(error.message)
      throw error
    }
  }
  const lines: string[] = []
  const { state } = options

  // The key: given, pinned in the state, or published (first use).
  const keys = json<{ log_note_key?: { vkey: string }; witness_cosigning_key?: { vkey: string }; keys: { key_id: string; public_key: string }[] }>(await bytes('/v5/keys', ANSWER_CAPS.keys), '/v5/keys')
  const published = typeof keys.log_note_key?.vkey === 'string' ? keys.log_note_key.vkey : undefined
  const vkeyText = options.vkey ?? state?.vkey ?? published
  if (!vkeyText) throw new Mismatch('no log note key: give --vkey, or the service publishes none at /v5/keys')
  const vkey = parseVkey(vkeyText)
  if (!vkey) throw new Mismatch(`not a note verifier key: ${printable(vkeyText)}`)
  if (!options.vkey && state && published && published !== state.vkey) throw new Mismatch(`the log now publishes another note key (${printable(published)}) than the one pinned in the state file (${state.vkey}); give --vkey to accept it`)

  const checkpointText = new TextDecoder().decode(await bytes('/log/checkpoint', ANSWER_CAPS.checkpoint))
  const note = parseNote(checkpointText)
  if (!note) throw new Mismatch('the checkpoint is not a signed note')
  if (checkNoteSignature(note, vkey) !== 'valid') throw new Mismatch(`the checkpoint is not validly signed by ${vkey.name}+${vkey.keyId.toString(16).padStart(8, '0')}`)
  const checkpoint = parseCheckpoint(note.text)
  if (!checkpoint) throw new Mismatch('the checkpoint text is not origin, size and root hash')
  if (checkpoint.origin !== vkey.name) throw new Mismatch(`the checkpoint's origin ${printable(checkpoint.origin)} is not the key's name ${vkey.name}`)
  if (state && checkpoint.origin !== state.origin) throw new Mismatch(`the checkpoint's origin ${printable(checkpoint.origin)} differs from the one verified before (${state.origin})`)
  if (state && checkpoint.size < state.size) throw new Mismatch(`the checkpoint's tree (${checkpoint.size}) is smaller than the one verified before (${state.size}): the log went back`)
  lines.push(`checkpoint: ${checkpoint.origin} size ${checkpoint.size} root ${base64(checkpoint.root)}`)

  // Rebuild the tree from the entries added since the last verified checkpoint, one bundle at a
  // time. A served tile that differs is remembered and reported after the root check, which
  // says more (the log is not an extension of what was verified).
  let edge: Edge = state ? restoreEdge(state) : emptyEdge()
  let wrongTile: string | null = null
  let unCollected = 0
  const checkTile = async (tile: { level: number; index: number; width: number; data: Uint8Array }) => {
    if (wrongTile || tile.level === ENTRIES_LEVEL) return
    const path = tilePath(tile.level, tile.index, tile.width)
    if (Buffer.compare(await bytes(`/log/${path}`, ANSWER_CAPS.tile(tile.width)), tile.data) !== 0) wrongTile = path
  }
  for (let index = Math.floor(edge.size / TILE_WIDTH); index * TILE_WIDTH < checkpoint.size; index++) {
    const width = tileWidth(ENTRIES_LEVEL, index, checkpoint.size)
    const bundle = await bytes(`/log/${tilePath(ENTRIES_LEVEL, index, width)}`, ANSWER_CAPS.bundle(width))
    const entries = decodeBundle(bundle)
    if (!entries || entries.length !== width) throw new Mismatch(`entry bundle ${index} does not hold ${width} entries`)
    const step = appendLeafHashes(edge, entries.slice(edge.size - index * TILE_WIDTH).map((entry) => leafHash(entry)))
    edge = step.edge
    for (const tile of step.full) await checkTile({ ...tile, width: TILE_WIDTH })
    // Bundles read are garbage at once, but the collector let them pile up (16 MiB bundles, VmHWM:
    // 216-292 MB over 60-100 bundles without this, about 160 MB with it): collect after every
    // COLLECT_EVERY_BYTES read.
    unCollected += bundle.length
    if (unCollected >= COLLECT_EVERY_BYTES) {
      Bun.gc(true)
      unCollected = 0
    }
  }
  const rebuilt = appendLeafHashes(edge, [])
  if (Buffer.compare(rebuilt.root, checkpoint.root) !== 0) {
    throw new Mismatch(state ? `the log's entries after the verified size ${state.size} and the tree verified before do not give the checkpoint's root: the log is not an extension of what was verified (an entry was rewritten, or the log forked)` : "the log's entries do not give the checkpoint's root")
  }
  // The hash tiles a client reads for proofs must hold what the entries give.
  for (const tile of rebuilt.partials) await checkTile(tile)
  if (wrongTile) throw new Mismatch(`tile ${wrongTile} does not hold the hashes of the entries`)
  lines.push(`tree rebuilt from ${checkpoint.size - (state?.size ?? 0)} new entries: root matches`)

  // The log's own consistency proof must say the same.
  if (state && state.size > 0 && state.size < checkpoint.size) {
    const proof = json<{ hashes?: unknown }>(await bytes(`/log/proof/consistency?old=${state.size}&new=${checkpoint.size}`, ANSWER_CAPS.proof), 'the consistency proof')
    if (!verifyConsistency(state.size, checkpoint.size, strictBase64(state.root)!, checkpoint.root, proofHashes(proof.hashes)))
      throw new Mismatch(`the consistency proof from ${state.size} to ${checkpoint.size} does not verify`)
    lines.push(`consistent with the checkpoint verified before (size ${state.size})`)
  }

  const ownWitness = keys.witness_cosigning_key?.vkey
  lines.push(...cosignatures(note, typeof ownWitness === 'string' ? ownWitness : undefined, options.witnesses ?? []))
  if (options.receiptId) lines.push(await receiptLine(options.receiptId, checkpoint, bytes, Array.isArray(keys.keys) ? keys.keys : []))
  const next: MonitorState = {
    url: base,
    origin: checkpoint.origin,
    vkey: vkeyText,
    size: checkpoint.size,
    root: base64(checkpoint.root),
    edge: edge.levels.map((level) => level.map(base64)),
    checkpoint: checkpointText,
    verified_at: (options.now?.() ?? new Date()).toISOString(),
  }
  return { state: next, lines }
}

/** The hashes of a proof answer; anything but a list of base64 strings gives hashes that fail the check. */
function proofHashes(hashes: unknown): Uint8Array[] {
  if (!Array.isArray(hashes)) return [new Uint8Array()]
  return hashes.map((hash) => (typeof hash === 'string' ? strictBase64(hash) : null) ?? new Uint8Array())
}

function restoreEdge(state: MonitorState): Edge {
  const levels = state.edge.map((level) => level.map((hash) => strictBase64(hash)!))
  const edge: Edge = { size: state.size, levels, entries: [] }
  if (Buffer.from(appendLeafHashes(edge, []).root).toString('base64') !== state.root) throw new Mismatch('the state file is damaged: its edge does not give its root')
  return edge
}

/** Which witnesses cosigned; a required one missing or failing is a Mismatch. */
function cosignatures(note: Note, ownWitness: string | undefined, required: readonly string[]): string[] {
  const lines: string[] = []
  for (const text of [...(ownWitness ? [ownWitness] : []), ...required]) {
    const key = parseVkey(text)
    if (!key) throw new Mismatch(`not a witness vkey: ${printable(text)}`)
    const timestamp = verifyCosignature(note, cosignerKey(key))
    if (timestamp === null && required.includes(text)) throw new Mismatch(`no valid cosignature of the witness ${key.name}`)
    lines.push(timestamp === null ? `witness ${key.name}: no cosignature` : `witness ${key.name}: cosigned at ${new Date(timestamp * 1000).toISOString()}`)
  }
  return lines
}

async function receiptLine(receiptId: string, checkpoint: Checkpoint, bytes: (path: string, cap: number) => Promise<Uint8Array>, keys: { key_id: string; public_key: string }[]): Promise<string> {
  const proof = json<{ leaf_index?: unknown; hashes?: unknown }>(await bytes(`/log/proof/inclusion?id=${encodeURIComponent(receiptId)}&size=${checkpoint.size}`, ANSWER_CAPS.proof), 'the inclusion proof')
  const leafIndex = proof.leaf_index
  if (typeof leafIndex !== 'number' || !Number.isSafeInteger(leafIndex) || leafIndex < 0 || leafIndex >= checkpoint.size) throw new Mismatch(`the inclusion proof of ${printable(receiptId)} names no leaf of the checkpoint's tree`)
  // The bundle is read again (the rebuild kept hashes, not entries); the proof checks its bytes.
  const bundle = Math.floor(leafIndex / TILE_WIDTH)
  const width = tileWidth(ENTRIES_LEVEL, bundle, checkpoint.size)
  const entries = decodeBundle(await bytes(`/log/${tilePath(ENTRIES_LEVEL, bundle, width)}`, ANSWER_CAPS.bundle(width)))
  const entry = entries?.[leafIndex % TILE_WIDTH]
  if (!entry) throw new Mismatch(`leaf ${leafIndex} is not in its entry bundle`)
  const root = rootFromPath(leafHash(entry), leafIndex, checkpoint.size, proofHashes(proof.hashes))
  if (!root || Buffer.compare(root, checkpoint.root) !== 0) throw new Mismatch(`the inclusion proof of ${printable(receiptId)} does not lead to the checkpoint's root`)
  let receipt: Record<string, unknown>
  try {
    receipt = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(entry)) as Record<string, unknown>
  } catch {
    throw new Mismatch(`leaf ${leafIndex} is not a JSON receipt`)
  }
  if (receipt.receipt_id !== receiptId) throw new Mismatch(`leaf ${leafIndex} is receipt ${printable(String(receipt.receipt_id))}, not ${printable(receiptId)}`)
  const verdict = verifyReceipt(keys.map((key) => ({ keyId: key.key_id, publicKey: new Uint8Array(Buffer.from(key.public_key, 'hex')), publicKeyHex: key.public_key, validFrom: '', validUntil: null })), receipt, Date.now())
  if (!verdict.valid) throw new Mismatch(`receipt ${printable(receiptId)} at leaf ${leafIndex} is in the log but its signature does not verify (${printable(String(verdict.reason))})`)
  return `receipt ${printable(receiptId)}: leaf ${leafIndex}, included in the checkpoint, signature valid (${printable(String(receipt.mic ?? receipt.venue), 40)} ${printable(String(receipt.status ?? receipt.venue_status), 40)} at ${printable(String(receipt.issued_at), 40)})`
}
