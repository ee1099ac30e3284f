// The calendar-update stores on PostgreSQL (store.ts says what they hold). `publish` and `accept`
// read and write inside the caller's SERIALIZABLE unit of work: two nodes taking a serial for a
// new set at once, or accepting the same manifest at once, cannot both pass (one runs again and
// sees the other's row).
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import { nextPublication, PUBLICATION_SQL, shasOfNote, statusValues, UPSTREAM_SQL, type AcceptedManifest, type Publication, type PublicationStore, type StoredFile, type UpstreamStatus, type UpstreamStore } from './store'

/** BIGINT columns come back as strings: cast for numbers. */
const LATEST_PUBLICATION = PUBLICATION_SQL.latest.replace('SELECT serial,', 'SELECT serial::float8 AS serial,')
const LATEST_MANIFEST = UPSTREAM_SQL.latest.replace('publisher, serial,', 'publisher, serial::float8 AS serial,')

export function postgresPublicationStore(sql: SQL): PublicationStore {
  const latest = async (handle: SQL) => ((await handle.unsafe(LATEST_PUBLICATION)) as Publication[])[0] ?? null
  return {
    *publish(setHash, issuedAt, atLeast) {
      const current = yield* postgresStep(latest)
      const next = nextPublication(current, setHash, issuedAt, atLeast)
      if (!next) return current!
      yield* postgresStep((tx) => tx.unsafe(PUBLICATION_SQL.insert, [next.serial, next.set_hash, next.issued_at]))
      return next
    },
    latest: () => latest(sql),
  }
}

export function postgresUpstreamStore(sql: SQL): UpstreamStore {
  const latest = async (handle: SQL, publisher: string) => ((await handle.unsafe(LATEST_MANIFEST, [publisher])) as AcceptedManifest[])[0] ?? null
  const byShas = async (shas: readonly string[]) => (await sql`SELECT sha256, mic, body FROM calendar_upstream_files WHERE sha256 = ANY(${sql.array([...shas], 'text')}::text[])`) as StoredFile[]
  return {
    latest: (publisher) => latest(sql, publisher),
    *accept(manifest, files) {
      const current = yield* postgresStep((tx) => latest(tx, manifest.publisher))
      if (current && current.serial >= manifest.serial) return false
      yield* postgresStep(async (tx) => {
        await tx.unsafe(UPSTREAM_SQL.insertManifest, [manifest.publisher, manifest.serial, manifest.note, manifest.url, manifest.accepted_at])
        for (const file of files) await tx.unsafe(UPSTREAM_SQL.insertFile, [file.sha256, file.mic, file.body, manifest.accepted_at])
      })
      return true
    },
    async files(shas) {
      return new Map((await byShas(shas)).map((file) => [file.sha256, file]))
    },
    async stored(shas) {
      return new Set((await byShas(shas)).map((file) => file.sha256))
    },
    async prune(publisher, keep) {
      await sql.begin(async (tx) => {
        const [kept] = (await tx.unsafe(UPSTREAM_SQL.keptSerial.replace('SELECT serial', 'SELECT serial::float8 AS serial'), [publisher, keep - 1])) as { serial: number }[]
        if (kept) await tx.unsafe(UPSTREAM_SQL.pruneManifests, [publisher, kept.serial - 1])
        const notes = (await tx`SELECT note FROM calendar_upstream_manifests`) as { note: string }[]
        await tx`DELETE FROM calendar_upstream_files WHERE NOT (sha256 = ANY(${sql.array(notes.flatMap((row) => shasOfNote(row.note)), 'text')}::text[]))`
      })
    },
    async status() {
      return ((await sql.unsafe(UPSTREAM_SQL.status)) as UpstreamStatus[])[0] ?? null
    },
    async writeStatus(status: UpstreamStatus) {
      await sql.unsafe(UPSTREAM_SQL.writeStatus, statusValues(status))
    },
  }
}
