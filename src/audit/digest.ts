// Daily digests (spec 2.7): the Merkle root of a day's receipt ids in log order, chained to the
// day before. A sealed digest is signed: its `receipt` member mirrors every digest_fields member
// as a string (the spec types some as integers or null), exactly those, and /v5/verify accepts
// it. Since the transparency log, a second signed object, `log_receipt` (digest_log_fields),
// binds the day's root to the log size that holds it, so digest_fields keeps its meaning.
import type { Signer } from '../crypto/signer'
import { DIGEST_LOG_TYPE } from '../crypto/signed-fields'
import { SUPPORTED_MICS } from '../calendar/mics'
import { ApiError } from '../http/errors'
import type { AuditStore, DigestRow } from './store'
import type { DayTrees } from './day-tree'
import { addDays, daysBetween } from './dates'

/** Largest page of `receipt_ids` in one digest response; `next_cursor` leads to the next. */
export const DIGEST_IDS_PAGE = 10_000

export interface DigestDeps {
  store: AuditStore
  trees: DayTrees
}

/** The transparency log a digest's log receipt names: its origin and the size that holds the day. */
export interface DigestLog {
  origin: string
  treeSize: number
}

type DigestColumns = Omit<DigestRow, 'signed_json' | 'log_receipt_json' | 'resigned_json'>

/** The digest_fields members of a digest, as strings. */
function digestFields(row: DigestColumns, issuer: string, keyId: string): Record<string, string> {
  return {
    chain_length: String(row.chain_length),
    computed_at: row.computed_at,
    date: row.date,
    exchanges_attested: row.exchanges_attested,
    issuer,
    merkle_root: row.merkle_root,
    previous_day_merkle_root: row.previous_day_merkle_root ?? '',
    public_key_id: keyId,
    total_receipts_issued: String(row.total_receipts_issued),
  }
}

/** The log receipt of a day: its root held by the log of `log.origin` at `log.treeSize` (digest_log_fields). */
export function signLogReceipt(signer: Signer, issuer: string, date: string, merkleRoot: string, log: DigestLog): Record<string, string> {
  return signer.signFields({ date, issuer, log_origin: log.origin, log_tree_size: String(log.treeSize), merkle_root: merkleRoot, public_key_id: signer.keyId, type: DIGEST_LOG_TYPE })
}

/**
 * The sealed digest of `date` from its tree's root and size; signs the string mirror of exactly
 * digest_fields and, with `log` (the transparency log's size holding every receipt of the day
 * and of the days before), the log receipt.
 */
export function sealedDigest(signer: Signer, issuer: string, date: string, tree: { rootHex: string; size: number }, mics: readonly string[], previous: DigestRow | null, computedAt: string, log?: DigestLog): DigestRow {
  // The chain links consecutive days only; the sealer seals in order, so `previous` is the day before.
  const row: DigestColumns = {
    date,
    total_receipts_issued: tree.size,
    exchanges_attested: JSON.stringify(mics),
    merkle_root: tree.rootHex,
    previous_day_merkle_root: previous?.merkle_root ?? null,
    chain_length: (previous?.chain_length ?? 0) + 1,
    computed_at: computedAt,
  }
  const signed = signer.signFields(digestFields(row, issuer, signer.keyId))
  const logReceipt = log ? signLogReceipt(signer, issuer, date, row.merkle_root, log) : null
  return { ...row, signed_json: JSON.stringify(signed), log_receipt_json: logReceipt ? JSON.stringify(logReceipt) : null, resigned_json: null }
}

/**
 * For a digest sealed while its receipt signed log_tree_size too (between the transparency log and
 * migration 13): the same digest signed over exactly digest_fields (every value as it was, the
 * key id the current one), and its log receipt with the size it signed. Its chain is unchanged:
 * no root, link or count moves. Null for any other digest.
 */
export function signAgain(signer: Signer, logOrigin: string, row: DigestRow): { logReceiptJson: string; resignedJson: string } | null {
  const published = JSON.parse(row.signed_json) as Record<string, string>
  if (published.log_tree_size === undefined) return null
  const resigned = signer.signFields(digestFields(row, published.issuer ?? '', signer.keyId))
  const logReceipt = signLogReceipt(signer, published.issuer ?? '', row.date, row.merkle_root, { origin: logOrigin, treeSize: Number(published.log_tree_size) })
  return { logReceiptJson: JSON.stringify(logReceipt), resignedJson: JSON.stringify(resigned) }
}

export async function micsOfDay(store: AuditStore, day: string): Promise<string[]> {
  const present = await Promise.all(SUPPORTED_MICS.map((mic) => store.dayHasMic(day, mic)))
  return SUPPORTED_MICS.filter((_, index) => present[index]).sort()
}

async function idsPage(store: AuditStore, date: string, cursor: number) {
  const rows = await store.dayIds(date, cursor, DIGEST_IDS_PAGE + 1)
  const more = rows.length > DIGEST_IDS_PAGE
  const page = more ? rows.slice(0, DIGEST_IDS_PAGE) : rows
  return { receipt_ids: page.map((row) => row.receipt_id), next_cursor: more ? String(page.at(-1)!.seq) : null }
}

/** The log size a sealed digest's log receipt (or, sealed before migration 13, its receipt) signed; null before the transparency log. */
export function logTreeSizeOf(row: DigestRow): number | null {
  const signed = (JSON.parse(row.log_receipt_json ?? row.signed_json) as Record<string, string>).log_tree_size
  return signed === undefined ? null : Number(signed)
}

/**
 * The signed objects a sealed digest answers with: `receipt`, signed over exactly digest_fields
 * (for a digest first signed with log_tree_size, its second signature once the sealer made it);
 * `log_receipt` when there is one; and `receipt_with_log_tree_size`, the receipt as first
 * published, for a digest that had log_tree_size among its signed members.
 */
export function digestReceipts(row: DigestRow) {
  const published = JSON.parse(row.signed_json) as Record<string, string>
  const firstWithLogSize = published.log_tree_size !== undefined
  return {
    receipt: row.resigned_json ? (JSON.parse(row.resigned_json) as Record<string, string>) : published,
    ...(row.log_receipt_json ? { log_receipt: JSON.parse(row.log_receipt_json) as Record<string, string> } : {}),
    ...(firstWithLogSize && row.resigned_json ? { receipt_with_log_tree_size: published } : {}),
  }
}

export function digestBody(row: DigestRow) {
  const logTreeSize = logTreeSizeOf(row)
  return {
    date: row.date,
    total_receipts_issued: row.total_receipts_issued,
    exchanges_attested: JSON.parse(row.exchanges_attested) as string[],
    merkle_root: row.merkle_root,
    previous_day_merkle_root: row.previous_day_merkle_root,
    chain_length: row.chain_length,
    computed_at: row.computed_at,
    ...(logTreeSize === null ? {} : { log_tree_size: logTreeSize }),
    partial: false,
    ...digestReceipts(row),
  }
}

/**
 * The digest of `date`: the sealed one, or (today, or a past day the sealer has not reached yet)
 * a partial one computed now against the current tree, unsigned.
 */
export async function dayDigest(deps: DigestDeps, date: string, cursor: number, startedOn: string | null, now: number) {
  const sealed = await deps.store.digest(date)
  if (sealed) return { ...digestBody(sealed), ...(await idsPage(deps.store, date, cursor)) }
  if (startedOn === null || date < startedOn) throw new ApiError(404, 'DIGEST_NOT_FOUND', `the receipt log of this service begins on ${startedOn ?? 'its first start'}; no digest exists for ${date}`)
  const tree = await deps.trees.tree(date)
  // The chain has no holes and starts on startedOn. The day before is sealed, or its current
  // root is shown (receipts answered in the seconds around midnight may still join it).
  const dayBefore = addDays(date, -1)
  const previousRoot = date > startedOn ? ((await deps.store.digest(dayBefore))?.merkle_root ?? (await deps.trees.tree(dayBefore)).rootHex) : null
  return {
    date,
    total_receipts_issued: tree.size,
    exchanges_attested: await micsOfDay(deps.store, date),
    merkle_root: tree.rootHex,
    previous_day_merkle_root: previousRoot,
    chain_length: daysBetween(startedOn, date) + 1,
    computed_at: new Date(now).toISOString(),
    partial: true,
    ...(await idsPage(deps.store, date, cursor)),
  }
}

/** The last `days` sealed digests, newest first, and whether each links to the day before it. */
export async function auditChain(store: AuditStore, days: number) {
  // One more than shown, so that the oldest shown digest's link is checked too.
  const rows = await store.latestDigests(days + 1)
  const shown = rows.slice(0, days)
  let intact = true
  for (let i = 0; i < shown.length; i++) {
    const row = shown[i]!
    const before = rows[i + 1]
    if (before) {
      const consecutive = Date.parse(`${row.date}T00:00:00Z`) - Date.parse(`${before.date}T00:00:00Z`) === 86_400_000
      if (!consecutive || row.previous_day_merkle_root !== before.merkle_root || row.chain_length !== before.chain_length + 1) intact = false
    } else if (row.previous_day_merkle_root !== null || row.chain_length !== 1) intact = false
    // Every signed mirror must say what the row says.
    for (const text of [row.signed_json, row.resigned_json, row.log_receipt_json]) {
      if (text === null) continue
      const signed = JSON.parse(text) as Record<string, string>
      if (signed.merkle_root !== row.merkle_root || signed.date !== row.date || (signed.type === undefined && signed.previous_day_merkle_root !== (row.previous_day_merkle_root ?? ''))) intact = false
    }
  }
  return {
    chain_length: shown[0]?.chain_length ?? 0,
    chain_intact: intact,
    latest_date: shown[0]?.date ?? null,
    oldest_date: shown.at(-1)?.date ?? null,
    digests: shown.map((row) => ({
      date: row.date,
      merkle_root: row.merkle_root,
      previous_day_merkle_root: row.previous_day_merkle_root,
      total_receipts_issued: row.total_receipts_issued,
      chain_length: row.chain_length,
      ...digestReceipts(row),
    })),
  }
}
