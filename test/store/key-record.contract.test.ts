// The signing key every node of one database uses: recorded by the first node; on PostgreSQL a
// node with another key is refused, naming both key ids; on SQLite the one process's key is the key.
import { expect, test } from 'bun:test'
import { checkSigningKey, SigningKeyMismatch, sqliteKeyRecordStore, type KeyRecordStore } from '../../src/store/key-record'
import { postgresKeyRecordStore } from '../../src/store/key-record-postgres'
import { forEachBackend } from '../helpers/backends'

const first = { key_id: 'key_2026_v1', public_key: 'a'.repeat(64), valid_from: '2026-01-01T00:00:00.000Z', valid_until: null, recorded_at: '2026-11-25T00:00:00.000Z', recorded_by: 'node-1' }
const other = { key_id: 'key_2026_v2', public_key: 'b'.repeat(64), valid_from: '2026-01-01T00:00:00.000Z', valid_until: null, recorded_at: '2026-11-25T00:01:00.000Z', recorded_by: 'node-2' }

forEachBackend('signing key record', (fresh) => {
  const open = async () => (await fresh()).pick<KeyRecordStore>({ sqlite: sqliteKeyRecordStore, postgres: postgresKeyRecordStore })

  test('several nodes: the first records its key, the same key passes, another key is refused naming both', async () => {
    const store = await open()
    await checkSigningKey(store, 'postgres', first)
    await checkSigningKey(store, 'postgres', { ...first, recorded_by: 'node-3' })
    const error = await checkSigningKey(store, 'postgres', other).catch((caught) => caught)
    expect(error).toBeInstanceOf(SigningKeyMismatch)
    expect(error.message).toContain('this node signs with key key_2026_v2')
    expect(error.message).toContain('the database records key key_2026_v1')
    expect(error.message).toContain('recorded by node node-1')
    expect((await store.recordIfMissing(other)).public_key).toBe(first.public_key)
    // The same key published another way (another key id or validity) would make /v5/keys differ between nodes.
    for (const differing of [{ key_id: 'key_2026_v9' }, { valid_from: '2026-02-01T00:00:00.000Z' }, { valid_until: '2027-01-01T00:00:00.000Z' }]) {
      const refused = await checkSigningKey(store, 'postgres', { ...first, ...differing, recorded_by: 'node-4' }).catch((caught) => caught)
      expect(refused).toBeInstanceOf(SigningKeyMismatch)
      expect(refused.message).toContain(`they differ in ${Object.keys(differing)[0]}`)
    }
  })

  test('one process (SQLite): its key replaces the record, as replacing the key file always did', async () => {
    const store = await open()
    await checkSigningKey(store, 'sqlite', first)
    await checkSigningKey(store, 'sqlite', other)
    expect(await store.recordIfMissing(first)).toEqual(other)
  })
})
