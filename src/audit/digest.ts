// Daily digests (spec 2.7): the Merkle root of a day's receipt ids in log order, chained to the
// day before. A sealed digest is signed: its `receipt` member mirrors every digest_fields member
// as a string (the spec types some as integers or null) and /v5/verify accepts it.
import type { Signer } from '../crypto/signer'
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

/**
 * The sealed digest of `date` from its tree's root and size; signs the string mirror. With
 * `logTreeSize` (the transparency log's tree size holding every receipt of the day and of the
 * days before), the mirror carries it as log_tree_size, signed like the other members.
 */
export function sealedDigest(signer: Signer, issuer: string, date: string, tree: { rootHex: string; size: number }, mics: readonly string[], previous: DigestRow | null, computedAt: string, logTreeSize?: number): DigestRow {
  // The chain links consecutive days only; the sealer seals in order, so `previous` is the day before.
  const root = tree.rootHex
  const row = {
    date,
    total_receipts_issued: tree.size,
    exchanges_attested: JSON.stringify(mics),
    merkle_root: root,
    previous_day_merkle_root: previous?.merkle_root ?? null,
    chain_length: (previous?.chain_length ?? 0) + 1,
    computed_at: computedAt,
  }
  const signed = signer.signFields({
    chain_length: String(row.chain_length),
    computed_at: row.computed_at,
    date: row.date,
    exchanges_attested: row.exchanges_attested,
    issuer,
    merkle_root: row.merkle_root,
    previous_day_merkle_root: row.previous_day_merkle_root ?? '',
    public_key_id: signer.keyId,
    total_receipts_issued: String(row.total_receipts_issued),
    ...(logTreeSize === undefined ? {} : { log_tree_size: String(logTreeSize) }),
  })
  return { ...row, signed_json: JSON.stringify(signed) }
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

/** The log_tree_size a sealed digest signed, or null (sealed before the transparency log existed). */
export function logTreeSizeOf(row: DigestRow): number | null {
  const signed = (JSON.parse(row.signed_json) as Record<string, string>).log_tree_size
  return signed === undefined ? null : Number(signed)
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
    receipt: JSON.parse(row.signed_json) as Record<string, string>,
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
    // The signed mirror must say what the row says.
    const signed = JSON.parse(row.signed_json) as Record<string, string>
    if (signed.merkle_root !== row.merkle_root || signed.date !== row.date || signed.previous_day_merkle_root !== (row.previous_day_merkle_root ?? '')) intact = false
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
      receipt: JSON.parse(row.signed_json) as Record<string, string>,
    })),
  }
}
