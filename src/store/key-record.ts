// The public key of the signing key, recorded in the database. Nodes of one PostgreSQL database
// must sign with one key (clients check every receipt against /v5/keys, which must be the same
// on every node): the first node records its key; a node whose key differs refuses to start,
// naming both. On SQLite the one process records its key and nothing is refused (replacing the
// key file there stays the operator's way of changing the key, as before).
import type { Database } from 'bun:sqlite'

export interface RecordedKey {
  key_id: string
  public_key: string
  valid_from: string
  valid_until: string | null
  recorded_at: string
  recorded_by: string
}

/** What /v5/keys publishes of the key: all of it must be the same on every node. */
const PUBLISHED = ['public_key', 'key_id', 'valid_from', 'valid_until'] as const

export interface KeyRecordStore {
  /** Records `key` unless one is recorded; returns the recorded one. */
  recordIfMissing(key: RecordedKey): Promise<RecordedKey>
  /** Records `key`, replacing any other (SQLite: one process, its key is the key). */
  replace(key: RecordedKey): Promise<void>
}

/** A node refused to start: its key (or what /v5/keys would say of it) is not the one the database records. */
export class SigningKeyMismatch extends Error {
  constructor(
    readonly recorded: RecordedKey,
    readonly mine: RecordedKey,
  ) {
    const differs = PUBLISHED.filter((field) => recorded[field] !== mine[field])
    const show = (key: RecordedKey) => `key ${key.key_id} (public key ${key.public_key.slice(0, 16)}…, valid from ${key.valid_from}${key.valid_until ? ` until ${key.valid_until}` : ''})`
    super(
      `this node signs with ${show(mine)} but the database records ${show(recorded)}, recorded by node ${recorded.recorded_by} at ${recorded.recorded_at}; ` +
        `they differ in ${differs.join(', ')}. Every node must sign with the same key and publish it the same way: give this node the same ` +
        'SIGNING_KEY_FILE (or SIGNING_KEY), PUBLIC_KEY_ID, KEY_VALID_FROM and KEY_VALID_UNTIL as the others',
    )
    this.name = 'SigningKeyMismatch'
  }
}

/** Checks (PostgreSQL: several nodes) or records (SQLite: one process) this node's signing key. */
export async function checkSigningKey(store: KeyRecordStore, backend: 'sqlite' | 'postgres', mine: RecordedKey): Promise<void> {
  if (backend === 'sqlite') return store.replace(mine)
  const recorded = await store.recordIfMissing(mine)
  if (PUBLISHED.some((field) => recorded[field] !== mine[field])) throw new SigningKeyMismatch(recorded, mine)
}

export const COLUMNS = 'key_id, public_key, valid_from, valid_until, recorded_at, recorded_by'

export function sqliteKeyRecordStore(db: Database): KeyRecordStore {
  const insert = db.query(`INSERT INTO signing_key (id, ${COLUMNS}) VALUES (1, $key_id, $public_key, $valid_from, $valid_until, $recorded_at, $recorded_by) ON CONFLICT (id) DO NOTHING`)
  const upsert = db.query(
    `INSERT INTO signing_key (id, ${COLUMNS}) VALUES (1, $key_id, $public_key, $valid_from, $valid_until, $recorded_at, $recorded_by)
     ON CONFLICT (id) DO UPDATE SET key_id = excluded.key_id, public_key = excluded.public_key, valid_from = excluded.valid_from, valid_until = excluded.valid_until,
       recorded_at = excluded.recorded_at, recorded_by = excluded.recorded_by
     WHERE signing_key.public_key <> excluded.public_key OR signing_key.key_id <> excluded.key_id OR signing_key.valid_from <> excluded.valid_from
       OR signing_key.valid_until IS NOT excluded.valid_until`,
  )
  const read = db.query(`SELECT ${COLUMNS} FROM signing_key WHERE id = 1`)
  return {
    async recordIfMissing(key) {
      insert.run({ ...key })
      return read.get() as RecordedKey
    },
    async replace(key) {
      upsert.run({ ...key })
    },
  }
}
