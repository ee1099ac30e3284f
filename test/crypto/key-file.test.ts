import { describe, expect, test } from 'bun:test'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config'
import { loadSigner } from '../../src/crypto/key-file'
import { memoryLogger } from '../../src/log'
import { tempDir } from '../helpers/app'

const now = new Date('2026-05-01T12:00:00.000Z')

describe('signing key discovery', () => {
  test('first start generates a 0600 key and logs only the public half; second start reuses it', () => {
    const dir = tempDir()
    const log = memoryLogger()
    const first = loadSigner(loadConfig({ DATA_DIR: dir }), now, log)
    expect(first.online).toBe(true)
    expect(first.key!.keyId).toBe('key_2026_v1')
    expect(first.key!.validFrom).toBe(now.toISOString())
    const keyFile = join(dir, 'signing-key.hex')
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    const seed = readFileSync(keyFile, 'utf8').trim()
    const logged = JSON.stringify(log.lines)
    expect(logged).toContain(first.key!.publicKeyHex)
    expect(logged).toContain('key_2026_v1')
    expect(logged).not.toContain(seed)

    const second = loadSigner(loadConfig({ DATA_DIR: dir }), new Date('2027-02-01T00:00:00Z'), memoryLogger())
    expect(second.key!.publicKeyHex).toBe(first.key!.publicKeyHex)
    expect(second.key!.keyId).toBe('key_2026_v1') // the id does not drift with the calendar year
    expect(second.key!.validFrom).toBe(first.key!.validFrom)
  })

  test('SIGNING_KEY_FILE that is missing leaves the signer offline and generates nothing', () => {
    const dir = tempDir()
    const signer = loadSigner(loadConfig({ DATA_DIR: dir, SIGNING_KEY_FILE: join(dir, 'absent.hex') }), now, memoryLogger())
    expect(signer.online).toBe(false)
    expect(() => signer.signText('x')).toThrow(/offline/)
  })

  test('a corrupt default key file is never overwritten', () => {
    const dir = tempDir()
    const keyFile = join(dir, 'signing-key.hex')
    writeFileSync(keyFile, 'not hex\n')
    const signer = loadSigner(loadConfig({ DATA_DIR: dir }), now, memoryLogger())
    expect(signer.online).toBe(false)
    expect(readFileSync(keyFile, 'utf8')).toBe('not hex\n')
  })

  test('SIGNING_KEY with PUBLIC_KEY_ID and validity window', () => {
    const signer = loadSigner(
      loadConfig({ DATA_DIR: tempDir(), SIGNING_KEY: '9D61B19DEFFD5A60BA844AF492EC2CC44449C5697B326919703BAC031CAE7F60', PUBLIC_KEY_ID: 'key_2026_v2', KEY_VALID_FROM: '2026-02-01T00:00:00Z', KEY_VALID_UNTIL: '2027-02-01T00:00:00Z' }),
      now,
      memoryLogger(),
    )
    expect(signer.key).toMatchObject({ keyId: 'key_2026_v2', publicKeyHex: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', validFrom: '2026-02-01T00:00:00.000Z', validUntil: '2027-02-01T00:00:00.000Z' })
  })

  test('SIGNING_KEY_FILE with the signing-key.json it was generated with: its key id and valid-from; another key\'s JSON is ignored; the environment still wins', () => {
    const generated = tempDir()
    const original = loadSigner(loadConfig({ DATA_DIR: generated }), new Date('2025-06-15T08:30:00.000Z'), memoryLogger())
    const moved = tempDir()
    writeFileSync(join(moved, 'signing-key.hex'), readFileSync(join(generated, 'signing-key.hex')), { mode: 0o600 })
    const bare = loadSigner(loadConfig({ DATA_DIR: tempDir(), SIGNING_KEY_FILE: join(moved, 'signing-key.hex') }), now, memoryLogger())
    expect(bare.key).toMatchObject({ keyId: 'key_2026_v1', validFrom: '2026-01-01T00:00:00.000Z' })
    writeFileSync(join(moved, 'signing-key.json'), readFileSync(join(generated, 'signing-key.json')))
    const withMeta = loadSigner(loadConfig({ DATA_DIR: tempDir(), SIGNING_KEY_FILE: join(moved, 'signing-key.hex') }), now, memoryLogger())
    expect(withMeta.key).toMatchObject({ keyId: 'key_2025_v1', validFrom: '2025-06-15T08:30:00.000Z', publicKeyHex: original.key!.publicKeyHex })
    const explicit = loadSigner(loadConfig({ DATA_DIR: tempDir(), SIGNING_KEY_FILE: join(moved, 'signing-key.hex'), PUBLIC_KEY_ID: 'key_x', KEY_VALID_FROM: '2025-07-01T00:00:00Z' }), now, memoryLogger())
    expect(explicit.key).toMatchObject({ keyId: 'key_x', validFrom: '2025-07-01T00:00:00.000Z' })
    // The JSON of another key beside this one: not used, and said.
    writeFileSync(join(moved, 'signing-key.json'), JSON.stringify({ key_id: 'key_other', public_key: '00'.repeat(32), created_at: '2024-01-01T00:00:00.000Z' }))
    const log = memoryLogger()
    const other = loadSigner(loadConfig({ DATA_DIR: tempDir(), SIGNING_KEY_FILE: join(moved, 'signing-key.hex') }), now, log)
    expect(other.key).toMatchObject({ keyId: 'key_2026_v1', validFrom: '2026-01-01T00:00:00.000Z' })
    expect(JSON.stringify(log.lines)).toContain('describes another key')
  })
})
