// Reading the audit trail for the HTTP surfaces: archive pages, a key's own receipts, proofs.
import type { AccountRow } from '../accounts/store'
import type { Plan } from '../catalogue/plans'
import { ApiError } from '../http/errors'
import { SUPPORTED_RANGE, parseUtcInstant } from '../utc'
import type { AuditStore } from './store'
import type { DayTrees } from './day-tree'
import { addDays, daysBetween } from './dates'

export const ARCHIVE_PAGE = 1000
/** Plans that may read the archive of the last ARCHIVE_WINDOW_DAYS days and list their receipts. */
const PAID_PLANS: readonly Plan[] = ['builder', 'pro', 'evidence_starter', 'evidence']
export const ARCHIVE_WINDOW_DAYS = 30
export const RECEIPTS_MAX_LIMIT = 200

export function isPaidPlan(plan: Plan): boolean {
  return PAID_PLANS.includes(plan)
}

/** Builder and above: today and the 30 days before it; free and sandbox: today only (spec 8). */
export function checkArchiveWindow(account: AccountRow, date: string, today: string): void {
  const age = daysBetween(date, today)
  if (isPaidPlan(account.plan)) {
    if (age > ARCHIVE_WINDOW_DAYS) throw new ApiError(403, 'ARCHIVE_WINDOW_EXCEEDED', `the archive reaches back ${ARCHIVE_WINDOW_DAYS} days (to ${addDays(today, -ARCHIVE_WINDOW_DAYS)})`)
  } else if (age > 0) {
    throw new ApiError(403, 'PLAN_ARCHIVE_TODAY_ONLY', `the ${account.plan} plan reads today's archive only; builder and pro read the last ${ARCHIVE_WINDOW_DAYS} days`)
  }
}

/** Counts of (day, MIC) in sealed days never change (pruning keeps the rows): kept per store, so a day of millions of rows is counted once, not for every page. */
const sealedCounts = new WeakMap<AuditStore, Map<string, number>>()
const SEALED_COUNTS_KEPT = 4096

async function archiveCount(store: AuditStore, mic: string, date: string): Promise<number> {
  const sealed = (await store.lastDigest())?.date
  if (sealed === undefined || date > sealed) return store.archiveCount(date, mic)
  let counts = sealedCounts.get(store)
  if (!counts) sealedCounts.set(store, (counts = new Map()))
  const key = `${date} ${mic}`
  let count = counts.get(key)
  if (count === undefined) {
    count = await store.archiveCount(date, mic)
    if (counts.size >= SEALED_COUNTS_KEPT) counts.clear()
    counts.set(key, count)
  }
  return count
}

/**
 * One archive page as JSON text: the stored receipt bodies are the receipts as answered, so
 * they are joined as they are instead of parsed and serialised again (1,000 per page).
 */
export async function archivePageJson(store: AuditStore, mic: string, date: string, cursor: number): Promise<string> {
  const rows = await store.archivePage(date, mic, cursor, ARCHIVE_PAGE + 1)
  const more = rows.length > ARCHIVE_PAGE
  const page = more ? rows.slice(0, ARCHIVE_PAGE) : rows
  // Bodies older than RECEIPT_RETENTION_DAYS are pruned; the window (30) is inside it (≥ 31).
  const bodies = page.flatMap((row) => (row.receipt_json === null ? [] : [row.receipt_json]))
  const count = await archiveCount(store, mic, date)
  const nextCursor = more ? String(page.at(-1)!.seq) : null
  return `{"mic":${JSON.stringify(mic)},"date":${JSON.stringify(date)},"count":${count},"receipts":[${bodies.join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}`
}

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 50
  if (!/^[1-9][0-9]{0,5}$/.test(raw) || Number(raw) > RECEIPTS_MAX_LIMIT) throw new ApiError(400, 'INVALID_LIMIT', `limit must be an integer from 1 to ${RECEIPTS_MAX_LIMIT}`)
  return Number(raw)
}

export function parseFrom(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined
  const parsed = parseUtcInstant(raw)
  if (!parsed.ok && parsed.reason === 'out_of_range') throw new ApiError(400, 'FROM_OUT_OF_RANGE', `from must be from ${SUPPORTED_RANGE.from} to ${SUPPORTED_RANGE.to}`, { supported_range: SUPPORTED_RANGE })
  if (!parsed.ok) throw new ApiError(400, 'INVALID_FROM', 'from must be an ISO 8601 date-time with a zone designator, e.g. 2026-11-23T00:00:00Z')
  return new Date(parsed.value).toISOString()
}

export async function keyReceipts(store: AuditStore, account: AccountRow, query: { limit: number; mic?: string; from?: string }) {
  if (!isPaidPlan(account.plan)) throw new ApiError(402, 'PLAN_UPGRADE_REQUIRED', `receipt listing needs a builder or pro key; this key's plan is ${account.plan}`)
  const rows = await store.keyReceipts({ keyHash: account.key_hash, mic: query.mic, after: query.from, limit: query.limit })
  return { receipts: rows.map(({ mic, status, source, issued_at, schema_version }) => ({ mic, status, source, issued_at, schema_version })), count: rows.length }
}

/** Unsealed days searched through their trees (cached id prefixes); more than this and the log is scanned. */
const FIND_IN_TREES_MAX_DAYS = 8

/**
 * A receipt of a day not sealed yet: found through the day trees (the public proof endpoint must
 * not scan a day of a million rows for every unknown id; there is no index on receipt_id), or,
 * when very many days are unsealed (a signer long offline), by scanning the log.
 */
export async function findUnsealed(deps: { store: AuditStore; trees: DayTrees }, receiptId: string, firstUnsealedDay: string) {
  const lastDay = await deps.store.lastLogDay()
  if (lastDay === null || lastDay < firstUnsealedDay) return null
  if (firstUnsealedDay >= '1970-01-01' && daysBetween(firstUnsealedDay, lastDay) < FIND_IN_TREES_MAX_DAYS) {
    for (let day = lastDay; day >= firstUnsealedDay; day = addDays(day, -1)) {
      const tree = await deps.trees.tree(day)
      const index = await deps.trees.find(day, tree, receiptId)
      if (index !== null) return { entry: { day }, index, tree }
    }
    return null
  }
  const entry = await deps.store.unsealedEntry(receiptId, firstUnsealedDay)
  if (!entry) return null
  const index = await deps.store.leafIndex(entry.day, entry.seq)
  return { entry, index, tree: await deps.trees.tree(entry.day) }
}

/** The leaf of a receipt of a sealed day, with its digest (both null otherwise). */
export async function sealedLeafOf(store: AuditStore, receiptId: string) {
  const sealedLeaf = await store.sealedLeaf(receiptId)
  // A leaf indexed by a seal still running (or cut short by a crash) has no digest yet.
  const digest = sealedLeaf ? await store.digest(sealedLeaf.date) : null
  return digest ? { sealedLeaf, digest } : { sealedLeaf: null, digest: null }
}

/**
 * RFC 6962 inclusion proof of a logged receipt in its day's tree: against the sealed root for a
 * sealed day (computed from the stored ids, so a changed id shows as a proof that fails), against
 * the current tree for a day not sealed yet.
 */
export async function inclusionProof(deps: { store: AuditStore; trees: DayTrees }, receiptId: string, firstUnsealedDay: string) {
  const { sealedLeaf, digest } = await sealedLeafOf(deps.store, receiptId)
  if (sealedLeaf && digest) {
    const tree = await deps.trees.tree(sealedLeaf.date)
    const path = await deps.trees.path(sealedLeaf.date, tree, sealedLeaf.leaf_index)
    return { receipt_id: receiptId, date: sealedLeaf.date, leaf_index: sealedLeaf.leaf_index, tree_size: digest.total_receipts_issued, audit_path: path, merkle_root: digest.merkle_root, sealed: true, partial: false }
  }
  const found = await findUnsealed(deps, receiptId, firstUnsealedDay)
  if (!found) throw new ApiError(404, 'RECEIPT_NOT_FOUND', 'no live receipt with this id is in the log (demo and sample-door receipts are not logged)')
  const { entry, index, tree } = found
  return {
    receipt_id: receiptId,
    date: entry.day,
    leaf_index: index,
    tree_size: tree.size,
    audit_path: await deps.trees.path(entry.day, tree, index),
    merkle_root: tree.rootHex,
    sealed: false,
    partial: true,
    note: 'the day is not sealed yet: this proof is against the current tree; fetch it again after the day is sealed to prove against the signed root',
  }
}
