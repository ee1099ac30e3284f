// The public key of the signing key, recorded in the database. Nodes of one PostgreSQL database
// must sign with one key (clients check every receipt against /v5/keys, which must be the same
// on every node): the first node records its key; a node whose key differs refuses to start,
// naming both. On SQLite the one process records its key and nothing is refused (replacing the
// key file there stays the operator's way of changing the key, as before).
import type { Database } from 'bun:sqlite'

export interface RecordedKey {
  key_id: string
  public_key: string
  recorded_at: string
  recorded_by: string
}

export interface KeyRecordStore {
  /** Records `key` unless one is recorded; returns the recorded one. */
  recordIfMissing(key: RecordedKey): Promise<RecordedKey>
  /** Records `key`, replacing any other (SQLite: one process, its key is the key). */
  replace(key: RecordedKey): Promise<void>
}

/** A node refused to start: its key is not the one the database records. */
export class SigningKeyMismatch extends Error {
  constructor(
    readonly recorded: RecordedKey,
    readonly mine: { key_id: string; public_key: string },
  ) {
    super(
      `this node signs with key ${mine.key_id} (public key ${mine.public_key.slice(0, 16)}…) but the database records key ${recorded.key_id} ` +
        `(public key ${recorded.public_key.slice(0, 16)}…, recorded by node ${recorded.recorded_by} at ${recorded.recorded_at}). ` +
        'Every node must sign with the same key: give this node the same SIGNING_KEY_FILE (or SIGNING_KEY) and PUBLIC_KEY_ID as the others',
    )
    this.name = 'SigningKeyMismatch'
  }
}

/** Checks (PostgreSQL: several nodes) or records (SQLite: one process) this node's signing key. */
export async function checkSigningKey(store: KeyRecordStore, backend: 'sqlite' | 'postgres', mine: RecordedKey): Promise<void> {
  if (backend === 'sqlite') return store.replace(mine)
  const recorded = await store.recordIfMissing(mine)
  // The key id too: receipts name it and /v5/keys publishes it, so it must be the same on every node.
  if (recorded.public_key !== mine.public_key || recorded.key_id !== mine.key_id) throw new SigningKeyMismatch(recorded, mine)
}

export function sqliteKeyRecordStore(db: Database): KeyRecordStore {
  const insert = db.query('INSERT INTO signing_key (id, key_id, public_key, recorded_at, recorded_by) VALUES (1, $key_id, $public_key, $recorded_at, $recorded_by) ON CONFLICT (id) DO NOTHING')
  const upsert = db.query(
    `INSERT INTO signing_key (id, key_id, public_key, recorded_at, recorded_by) VALUES (1, $key_id, $public_key, $recorded_at, $recorded_by)
     ON CONFLICT (id) DO UPDATE SET key_id = excluded.key_id, public_key = excluded.public_key, recorded_at = excluded.recorded_at, recorded_by = excluded.recorded_by
     WHERE signing_key.public_key <> excluded.public_key OR signing_key.key_id <> excluded.key_id`,
  )
  const read = db.query('SELECT key_id, public_key, recorded_at, recorded_by FROM signing_key WHERE id = 1')
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
