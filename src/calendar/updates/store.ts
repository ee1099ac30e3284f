// The calendar-update stores (tables of schema.ts, migration 70): the interfaces and their SQLite
// implementations (PostgreSQL: store-postgres.ts).
// - Publications: the serial of each set of files this installation published. A set equal to the
//   latest keeps its serial; any other set takes the next one, in one unit of work, so the serial
//   only grows, across restarts and across the nodes of one database.
// - Upstream: the manifests the follower accepted (with their signed note) and the file bodies
//   they name (by SHA-256), which every node of the database applies; and the follower's status.
import type { Database } from 'bun:sqlite'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'
import { positional } from '../../store/sql-text'

export interface Publication {
  serial: number
  set_hash: string
  issued_at: string
}

export interface PublicationStore {
  /**
   * The publication of the set `setHash`: the latest one when it is this set and its serial is at
   * least `atLeast`; otherwise a new one, issued `issuedAt`, with the next serial (and at least `atLeast`).
   */
  publish(setHash: string, issuedAt: string, atLeast?: number): Step<Publication>
  latest(): Promise<Publication | null>
}

export interface AcceptedManifest {
  /** The publisher's vkey: serials are counted per publisher. */
  publisher: string
  serial: number
  /** The signed note as received. */
  note: string
  url: string
  accepted_at: string
}

export interface StoredFile {
  sha256: string
  mic: string
  body: string
}

export interface UpstreamStatus {
  url: string
  publisher: string
  /** ok (the last check verified or was not modified), refused, unreachable, or pending (never checked). */
  status: 'ok' | 'refused' | 'unreachable' | 'pending'
  last_check: string | null
  last_success: string | null
  last_error: string | null
  /** JSON of the last refusal ({at, serial, reason, detail}). */
  last_refusal: string | null
  /** ETag of the last manifest read (If-None-Match of the next poll). */
  etag: string | null
}

export interface UpstreamStore {
  /** The accepted manifest with the highest serial of this publisher. */
  latest(publisher: string): Promise<AcceptedManifest | null>
  /**
   * Stores an accepted manifest and the bodies not stored yet; false (nothing stored) when a
   * manifest of this publisher with this or a higher serial is stored already.
   */
  accept(manifest: AcceptedManifest, files: readonly StoredFile[]): Step<boolean>
  /** Stored bodies by SHA-256 (those that are stored). */
  files(shas: readonly string[]): Promise<Map<string, StoredFile>>
  /** Which of these bodies are stored. */
  stored(shas: readonly string[]): Promise<Set<string>>
  /** Removes manifests older than the newest `keep` of the publisher, and bodies none of those names. */
  prune(publisher: string, keep: number): Promise<void>
  status(): Promise<UpstreamStatus | null>
  writeStatus(status: UpstreamStatus): Promise<void>
}

export const PUBLICATION_SQL = {
  latest: 'SELECT serial, set_hash, issued_at FROM calendar_publications ORDER BY serial DESC LIMIT 1',
  insert: 'INSERT INTO calendar_publications (serial, set_hash, issued_at) VALUES ($1, $2, $3)',
} as const

export const UPSTREAM_SQL = {
  latest: 'SELECT publisher, serial, note, url, accepted_at FROM calendar_upstream_manifests WHERE publisher = $1 ORDER BY serial DESC LIMIT 1',
  insertManifest: 'INSERT INTO calendar_upstream_manifests (publisher, serial, note, url, accepted_at) VALUES ($1, $2, $3, $4, $5)',
  insertFile: 'INSERT INTO calendar_upstream_files (sha256, mic, body, stored_at) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING',
  status: 'SELECT url, publisher, status, last_check, last_success, last_error, last_refusal, etag FROM calendar_upstream_state WHERE id = 1',
  writeStatus: `INSERT INTO calendar_upstream_state (id, url, publisher, status, last_check, last_success, last_error, last_refusal, etag) VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (id) DO UPDATE SET url = excluded.url, publisher = excluded.publisher, status = excluded.status, last_check = excluded.last_check,
  last_success = excluded.last_success, last_error = excluded.last_error, last_refusal = excluded.last_refusal, etag = excluded.etag`,
  keptSerial: 'SELECT serial FROM calendar_upstream_manifests WHERE publisher = $1 ORDER BY serial DESC LIMIT 1 OFFSET $2',
  pruneManifests: 'DELETE FROM calendar_upstream_manifests WHERE publisher = $1 AND serial <= $2',
} as const

/** The next publication given the latest (null: keep the latest). */
export function nextPublication(latest: Publication | null, setHash: string, issuedAt: string, atLeast = 1): Publication | null {
  if (latest && latest.set_hash === setHash && latest.serial >= atLeast) return null
  return { serial: Math.max((latest?.serial ?? 0) + 1, atLeast), set_hash: setHash, issued_at: issuedAt }
}

const statusValues = (status: UpstreamStatus) => [status.url, status.publisher, status.status, status.last_check, status.last_success, status.last_error, status.last_refusal, status.etag]

/** SHA-256 values named by the file lines of a manifest note (lines "<MIC> <version> <sha256> <size>"). */
export const shasOfNote = (note: string) => [...note.matchAll(/^[A-Z0-9]{4} \S+ ([0-9a-f]{64}) \d+$/gm)].map((match) => match[1]!)

export function sqlitePublicationStore(db: Database): PublicationStore {
  const latest = db.query(PUBLICATION_SQL.latest)
  const insert = db.query(positional(PUBLICATION_SQL.insert))
  return {
    publish: (setHash, issuedAt, atLeast) =>
      sqliteStep(() => {
        const current = (latest.get() as Publication | null) ?? null
        const next = nextPublication(current, setHash, issuedAt, atLeast)
        if (!next) return current!
        insert.run(next.serial, next.set_hash, next.issued_at)
        return next
      }),
    async latest() {
      return (latest.get() as Publication | null) ?? null
    },
  }
}

export function sqliteUpstreamStore(db: Database): UpstreamStore {
  const q = Object.fromEntries(Object.entries(UPSTREAM_SQL).map(([name, text]) => [name, db.query(positional(text))])) as Record<keyof typeof UPSTREAM_SQL, ReturnType<Database['query']>>
  const byShas = (shas: readonly string[]) => db.query('SELECT sha256, mic, body FROM calendar_upstream_files WHERE sha256 IN (SELECT value FROM json_each(?1))').all(JSON.stringify(shas)) as StoredFile[]
  const pruneFiles = db.query('DELETE FROM calendar_upstream_files WHERE sha256 NOT IN (SELECT value FROM json_each(?1))')
  const notes = db.query('SELECT note FROM calendar_upstream_manifests')
  return {
    async latest(publisher) {
      return (q.latest.get(publisher) as AcceptedManifest | null) ?? null
    },
    accept: (manifest, files) =>
      sqliteStep(() => {
        const current = q.latest.get(manifest.publisher) as AcceptedManifest | null
        if (current && current.serial >= manifest.serial) return false
        q.insertManifest.run(manifest.publisher, manifest.serial, manifest.note, manifest.url, manifest.accepted_at)
        for (const file of files) q.insertFile.run(file.sha256, file.mic, file.body, manifest.accepted_at)
        return true
      }),
    async files(shas) {
      return new Map(byShas(shas).map((file) => [file.sha256, file]))
    },
    async stored(shas) {
      return new Set(byShas(shas).map((file) => file.sha256))
    },
    async prune(publisher, keep) {
      db.transaction(() => {
        const kept = q.keptSerial.get(publisher, keep - 1) as { serial: number } | null
        if (kept) q.pruneManifests.run(publisher, kept.serial - 1)
        pruneFiles.run(JSON.stringify((notes.all() as { note: string }[]).flatMap((row) => shasOfNote(row.note))))
      }).immediate()
    },
    async status() {
      return (q.status.get() as UpstreamStatus | null) ?? null
    },
    async writeStatus(status) {
      q.writeStatus.run(...statusValues(status))
    },
  }
}

export { statusValues }
