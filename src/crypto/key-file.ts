// Finding the signing key at boot: from SIGNING_KEY, from SIGNING_KEY_FILE, or from the default
// file in DATA_DIR, generated (mode 0600) on the very first start. A key that is configured but
// unreadable leaves the signer offline; it is never silently replaced by a new one.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Config } from '../config'
import type { Logger } from '../log'
import { hexToBytes } from './encoding'
import { Signer } from './signer'

export const DEFAULT_KEY_FILE = 'signing-key.hex'
/** Public facts about a generated key (never the seed), so its id and start survive restarts. */
export const KEY_META_FILE = 'signing-key.json'

interface KeyMeta {
  key_id: string
  public_key: string
  created_at: string
}

function readSeed(path: string): Uint8Array | string {
  let text: string
  try {
    text = readFileSync(path, 'utf8').trim().toLowerCase()
  } catch (error) {
    return `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
  }
  const seed = hexToBytes(text)
  return seed && seed.length === 32 ? seed : `${path} does not hold a 64-hex-character Ed25519 seed`
}

function readMeta(path: string): KeyMeta | null {
  try {
    const meta = JSON.parse(readFileSync(path, 'utf8')) as KeyMeta
    return typeof meta.key_id === 'string' && typeof meta.created_at === 'string' && typeof meta.public_key === 'string' ? meta : null
  } catch {
    return null
  }
}

const yearOf = (iso: string) => iso.slice(0, 4)

export function loadSigner(config: Config, now: Date, log: Logger): Signer {
  const build = (seed: Uint8Array, defaults: { keyId: string; validFrom: string }) =>
    Signer.fromSeed(seed, config.publicKeyId ?? defaults.keyId, config.keyValidFrom ?? defaults.validFrom, config.keyValidUntil)
  const suppliedDefaults = () => {
    const from = config.keyValidFrom ?? `${now.getUTCFullYear()}-01-01T00:00:00.000Z`
    if (!config.publicKeyId) log.warn('PUBLIC_KEY_ID is not set for a supplied key; using a year-based default', { key_id: `key_${yearOf(from)}_v1` })
    return { keyId: `key_${yearOf(from)}_v1`, validFrom: from }
  }
  const offline = (reason: string) => {
    log.error('signer offline: every signed answer will fail closed (CRITICAL_FAILURE)', { reason })
    return Signer.offline(reason)
  }

  let signer: Signer
  if (config.signingKey) {
    signer = build(hexToBytes(config.signingKey)!, suppliedDefaults())
  } else if (config.signingKeyFile) {
    const seed = readSeed(config.signingKeyFile)
    if (typeof seed === 'string') return offline(seed)
    warnIfReadableByOthers(config.signingKeyFile, log)
    signer = build(seed, metaBeside(config.signingKeyFile, seed, log) ?? suppliedDefaults())
  } else {
    const keyPath = join(config.dataDir, DEFAULT_KEY_FILE)
    const metaPath = join(config.dataDir, KEY_META_FILE)
    if (existsSync(keyPath)) {
      const seed = readSeed(keyPath)
      if (typeof seed === 'string') return offline(seed)
      warnIfReadableByOthers(keyPath, log)
      signer = Signer.fromSeed(seed, 'probe', now.toISOString(), null)
      const meta = readMeta(metaPath)
      const created = meta && meta.public_key === signer.key!.publicKeyHex ? meta.created_at : statSync(keyPath).mtime.toISOString()
      signer = build(seed, { keyId: meta?.key_id ?? `key_${yearOf(created)}_v1`, validFrom: created })
    } else {
      const seed = new Uint8Array(randomBytes(32))
      const created = now.toISOString()
      try {
        mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
        // 'wx': never overwrite a key another process wrote in the meantime.
        writeFileSync(keyPath, Buffer.from(seed).toString('hex') + '\n', { mode: 0o600, flag: 'wx' })
      } catch (error) {
        return offline(`cannot write a new key to ${keyPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
      }
      signer = build(seed, { keyId: `key_${yearOf(created)}_v1`, validFrom: created })
      const meta: KeyMeta = { key_id: signer.key!.keyId, public_key: signer.key!.publicKeyHex, created_at: created }
      writeFileSync(metaPath, JSON.stringify(meta, null, 2) + '\n', { mode: 0o644 })
      log.info('generated a new Ed25519 signing key', { file: keyPath, mode: '0600', key_id: signer.key!.keyId, public_key: signer.key!.publicKeyHex })
      return signer
    }
  }
  log.info('signing key loaded', { key_id: signer.key!.keyId, public_key: signer.key!.publicKeyHex })
  return signer
}

/**
 * The key id and start of a key file that comes with its signing-key.json (a key a SQLite
 * installation generated, moved to SIGNING_KEY_FILE for several nodes: docs/scale-out.md): the
 * same id and valid-from the installation published and `db copy` recorded. Null without the
 * file, or when it describes another key (said in the log).
 */
function metaBeside(keyFile: string, seed: Uint8Array, log: Logger): { keyId: string; validFrom: string } | null {
  const path = join(dirname(keyFile), KEY_META_FILE)
  if (!existsSync(path)) return null
  const meta = readMeta(path)
  const publicKey = Signer.fromSeed(seed, 'probe', new Date(0).toISOString(), null).key!.publicKeyHex
  if (!meta || meta.public_key !== publicKey || !Number.isFinite(Date.parse(meta.created_at))) {
    log.warn(`${KEY_META_FILE} beside the key file describes another key (or is unreadable); not using it`, { file: path })
    return null
  }
  return { keyId: meta.key_id, validFrom: new Date(meta.created_at).toISOString() }
}

function warnIfReadableByOthers(path: string, log: Logger): void {
  try {
    if (statSync(path).mode & 0o077) log.warn('signing key file is readable by group or others; chmod 600 it', { file: path })
  } catch {
    // Already read successfully; a stat failure here changes nothing.
  }
}
