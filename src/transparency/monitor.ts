// Following a log as a monitor does (what `openbell log verify` runs): from the state of the last
// verified checkpoint (its size, root and the right edge of its tree), download the entries added
// since, rebuild the tree from them, and require the new checkpoint's signature, its root, the
// served tiles and the log's consistency proof all to agree. Any disagreement is a Mismatch.
import { leafHash, rootFromPath } from '../audit/merkle'
import { parseCheckpoint, type Checkpoint } from './checkpoint'
import { cosignerKey, verifyCosignature } from './cosignature'
import { appendEntries, emptyEdge, type Edge } from './integrate'
import { base64, checkNoteSignature, parseNote, parseVkey, strictBase64, type Note } from './note'
import { verifyConsistency } from './proofs'
import { decodeBundle, ENTRIES_LEVEL, tilePath, TILE_WIDTH, tileWidth } from './tiles'
import { verifyReceipt } from '../crypto/verify-receipt'

/** The log does not hold what it signed or once showed: exit non-zero. */
export class Mismatch extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'Mismatch'
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
  now?: () => Date
}

export interface VerifyResult {
  state: MonitorState
  lines: string[]
}

export async function verifyLog(options: VerifyOptions): Promise<VerifyResult> {
  const base = options.url.replace(/\/+$/, '')
  const get = async (path: string): Promise<Response> => {
    const response = await (options.fetch ?? fetch)(`${base}${path}`, { headers: { 'accept-encoding': 'gzip' } })
    if (response.status !== 200) throw new Mismatch(`GET ${path} answered ${response.status}: ${(await response.text()).slice(0, 200)}`)
    return response
  }
  const bytes = async (path: string) => new Uint8Array(await (await get(path)).arrayBuffer())
  const lines: string[] = []
  const { state } = options

  // The key: given, pinned in the state, or published (first use).
  const keys = (await (await get('/v5/keys')).json()) as { log_note_key?: { vkey: string }; witness_cosigning_key?: { vkey: string }; keys: { key_id: string; public_key: string }[] }
  const vkeyText = options.vkey ?? state?.vkey ?? keys.log_note_key?.vkey
  if (!vkeyText) throw new Mismatch('no log note key: give --vkey, or the service publishes none at /v5/keys')
  const vkey = parseVkey(vkeyText)
  if (!vkey) throw new Mismatch(`not a note verifier key: ${vkeyText}`)
  if (!options.vkey && state && keys.log_note_key && keys.log_note_key.vkey !== state.vkey) throw new Mismatch(`the log now publishes another note key (${keys.log_note_key.vkey}) than the one pinned in the state file (${state.vkey}); give --vkey to accept it`)

  const checkpointText = await (await get('/log/checkpoint')).text()
  const note = parseNote(checkpointText)
  if (!note) throw new Mismatch('the checkpoint is not a signed note')
  if (checkNoteSignature(note, vkey) !== 'valid') throw new Mismatch(`the checkpoint is not validly signed by ${vkey.name}+${vkey.keyId.toString(16).padStart(8, '0')}`)
  const checkpoint = parseCheckpoint(note.text)
  if (!checkpoint) throw new Mismatch('the checkpoint text is not origin, size and root hash')
  if (checkpoint.origin !== vkey.name) throw new Mismatch(`the checkpoint's origin ${checkpoint.origin} is not the key's name ${vkey.name}`)
  if (state && checkpoint.origin !== state.origin) throw new Mismatch(`the checkpoint's origin ${checkpoint.origin} differs from the one verified before (${state.origin})`)
  if (state && checkpoint.size < state.size) throw new Mismatch(`the checkpoint's tree (${checkpoint.size}) is smaller than the one verified before (${state.size}): the log went back`)
  lines.push(`checkpoint: ${checkpoint.origin} size ${checkpoint.size} root ${base64(checkpoint.root)}`)

  // Rebuild the tree from the entries added since the last verified checkpoint.
  let edge: Edge = state ? restoreEdge(state) : emptyEdge()
  const fetched = new Map<number, Uint8Array[]>()
  const tiles: { level: number; index: number; width: number; data: Uint8Array }[] = []
  for (let index = Math.floor(edge.size / TILE_WIDTH); index * TILE_WIDTH < checkpoint.size; index++) {
    const width = tileWidth(ENTRIES_LEVEL, index, checkpoint.size)
    const entries = decodeBundle(await bytes(`/log/${tilePath(ENTRIES_LEVEL, index, width)}`))
    if (!entries || entries.length !== width) throw new Mismatch(`entry bundle ${index} does not hold ${width} entries`)
    fetched.set(index, entries)
    const step = appendEntries(edge, entries.slice(edge.size - index * TILE_WIDTH))
    tiles.push(...step.full.map((tile) => ({ ...tile, width: TILE_WIDTH })))
    edge = step.edge
  }
  const rebuilt = appendEntries(edge, [])
  if (Buffer.compare(rebuilt.root, checkpoint.root) !== 0) {
    throw new Mismatch(state ? `the log's entries after the verified size ${state.size} and the tree verified before do not give the checkpoint's root: the log is not an extension of what was verified (an entry was rewritten, or the log forked)` : "the log's entries do not give the checkpoint's root")
  }
  // The hash tiles a client reads for proofs must hold what the entries give.
  for (const tile of [...tiles, ...rebuilt.partials]) {
    if (tile.level === ENTRIES_LEVEL) continue
    const path = tilePath(tile.level, tile.index, tile.width)
    if (Buffer.compare(await bytes(`/log/${path}`), tile.data) !== 0) throw new Mismatch(`tile ${path} does not hold the hashes of the entries`)
  }
  lines.push(`tree rebuilt from ${checkpoint.size - (state?.size ?? 0)} new entries: root matches`)

  // The log's own consistency proof must say the same.
  if (state && state.size > 0 && state.size < checkpoint.size) {
    const proof = (await (await get(`/log/proof/consistency?old=${state.size}&new=${checkpoint.size}`)).json()) as { hashes: string[] }
    if (!verifyConsistency(state.size, checkpoint.size, strictBase64(state.root)!, checkpoint.root, proof.hashes.map((hash) => strictBase64(hash) ?? new Uint8Array())))
      throw new Mismatch(`the consistency proof from ${state.size} to ${checkpoint.size} does not verify`)
    lines.push(`consistent with the checkpoint verified before (size ${state.size})`)
  }

  lines.push(...cosignatures(note, keys.witness_cosigning_key?.vkey, options.witnesses ?? []))
  if (options.receiptId) lines.push(await receiptLine(options.receiptId, checkpoint, get, bytes, fetched, keys.keys))
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

function restoreEdge(state: MonitorState): Edge {
  const levels = state.edge.map((level) => level.map((hash) => strictBase64(hash)!))
  const edge: Edge = { size: state.size, levels, entries: [] }
  if (Buffer.from(appendEntries(edge, []).root).toString('base64') !== state.root) throw new Mismatch('the state file is damaged: its edge does not give its root')
  return edge
}

/** Which witnesses cosigned; a required one missing or failing is a Mismatch. */
function cosignatures(note: Note, ownWitness: string | undefined, required: readonly string[]): string[] {
  const lines: string[] = []
  for (const text of [...(ownWitness ? [ownWitness] : []), ...required]) {
    const key = parseVkey(text)
    if (!key) throw new Mismatch(`not a witness vkey: ${text}`)
    const timestamp = verifyCosignature(note, cosignerKey(key))
    if (timestamp === null && required.includes(text)) throw new Mismatch(`no valid cosignature of the witness ${key.name}`)
    lines.push(timestamp === null ? `witness ${key.name}: no cosignature` : `witness ${key.name}: cosigned at ${new Date(timestamp * 1000).toISOString()}`)
  }
  return lines
}

async function receiptLine(receiptId: string, checkpoint: Checkpoint, get: (path: string) => Promise<Response>, bytes: (path: string) => Promise<Uint8Array>, fetched: Map<number, Uint8Array[]>, keys: { key_id: string; public_key: string }[]): Promise<string> {
  const proof = (await (await get(`/log/proof/inclusion?id=${encodeURIComponent(receiptId)}&size=${checkpoint.size}`)).json()) as { leaf_index: number; hashes: string[] }
  const bundle = Math.floor(proof.leaf_index / TILE_WIDTH)
  const entries = fetched.get(bundle) ?? decodeBundle(await bytes(`/log/${tilePath(ENTRIES_LEVEL, bundle, tileWidth(ENTRIES_LEVEL, bundle, checkpoint.size))}`))
  const entry = entries?.[proof.leaf_index % TILE_WIDTH]
  if (!entry) throw new Mismatch(`leaf ${proof.leaf_index} is not in its entry bundle`)
  const root = rootFromPath(leafHash(entry), proof.leaf_index, checkpoint.size, proof.hashes.map((hash) => strictBase64(hash) ?? new Uint8Array()))
  if (!root || Buffer.compare(root, checkpoint.root) !== 0) throw new Mismatch(`the inclusion proof of ${receiptId} does not lead to the checkpoint's root`)
  let receipt: Record<string, unknown>
  try {
    receipt = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(entry)) as Record<string, unknown>
  } catch {
    throw new Mismatch(`leaf ${proof.leaf_index} is not a JSON receipt`)
  }
  if (receipt.receipt_id !== receiptId) throw new Mismatch(`leaf ${proof.leaf_index} is receipt ${String(receipt.receipt_id)}, not ${receiptId}`)
  const verdict = verifyReceipt(keys.map((key) => ({ keyId: key.key_id, publicKey: new Uint8Array(Buffer.from(key.public_key, 'hex')), publicKeyHex: key.public_key, validFrom: '', validUntil: null })), receipt, Date.now())
  if (!verdict.valid) throw new Mismatch(`receipt ${receiptId} at leaf ${proof.leaf_index} is in the log but its signature does not verify (${verdict.reason})`)
  return `receipt ${receiptId}: leaf ${proof.leaf_index}, included in the checkpoint, signature valid (${String(receipt.mic ?? receipt.venue)} ${String(receipt.status ?? receipt.venue_status)} at ${String(receipt.issued_at)})`
}

