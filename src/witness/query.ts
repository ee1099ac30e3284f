// GET /v1/witness/checkpoints: query rules (witness.md 4.2) and the page body, assembled from
// the stored receipt JSON as stored (never rebuilt).
import { HASH_PATTERN, KID_PATTERN, MAX_SESSION_ID_CHARS } from './checks'
import type { PageRow } from './store'

export const PAGE_SIZE = 500

export type PageQuery = { ok: true; kid: string; sessionId: string; after: { count: number; hash: string } | null } | { ok: false; message: string }

export function parsePageQuery(params: URLSearchParams): PageQuery {
  for (const name of ['kid', 'session_id', 'after']) {
    if (params.getAll(name).length > 1) return { ok: false, message: `${name} is given more than once` }
  }
  const kid = params.get('kid')
  const sessionId = params.get('session_id')
  const after = params.get('after')
  if (kid === null || !KID_PATTERN.test(kid)) return { ok: false, message: 'kid is required: 43 characters of [A-Za-z0-9_-]' }
  if (sessionId === null || !sessionId.isWellFormed()) return { ok: false, message: 'session_id is required' }
  const length = [...sessionId].length
  if (length < 1 || length > MAX_SESSION_ID_CHARS) return { ok: false, message: `session_id must be 1 to ${MAX_SESSION_ID_CHARS} characters` }
  if (after === null) return { ok: true, kid, sessionId, after: null }
  const match = /^(0|[1-9][0-9]*):(.*)$/.exec(after)
  const count = match ? Number(match[1]) : Number.NaN
  if (!match || !Number.isSafeInteger(count) || !HASH_PATTERN.test(match[2]!)) return { ok: false, message: 'after must be <count>:<last_entry_hash> with count a decimal safe integer >= 0' }
  return { ok: true, kid, sessionId, after: { count, hash: match[2]! } }
}

/** The rows of a page and the `after` of the next one (null on the last page); `rows` holds up to PAGE_SIZE + 1 rows (the extra one says "more"). */
export function splitPage(rows: PageRow[]): { page: PageRow[]; nextAfter: string | null } {
  const more = rows.length > PAGE_SIZE
  const page = more ? rows.slice(0, PAGE_SIZE) : rows
  const last = page.at(-1)
  return { page, nextAfter: more && last ? `${last.count}:${last.last_entry_hash}` : null }
}

/** The page as JSON text, from up to PAGE_SIZE + 1 rows. */
export function pageBody(kid: string, sessionId: string, rows: PageRow[]): string {
  const { page, nextAfter } = splitPage(rows)
  const next = nextAfter === null ? '' : `,"next_after":${JSON.stringify(nextAfter)}`
  return `{"kid":${JSON.stringify(kid)},"session_id":${JSON.stringify(sessionId)},"receipts":[${page.map((row) => row.receipt_json).join(',')}]${next}}`
}
