// Every instance is a calendar source: it signs a manifest of the schedule files it has in force
// with its calendar-publisher key and serves the files' exact bytes. The key is derived from the
// signing seed like the log's keys (HKDF-SHA-256 with its own purpose string), so every node
// holding the signing key signs with the same one; it signs nothing but calendar manifests. Its
// name is `<PUBLIC_BASE_URL without scheme>/calendars`; /v5/keys publishes it.
import type { Signer } from '../../crypto/signer'
import type { Transactor } from '../../store/transaction'
import { hex8, NoteSigner } from '../../transparency/note'
import type { CalendarRegistry, CalendarSnapshot } from '../registry'
import { fileSetHash, manifestText, sha256Hex, type ManifestFile } from './manifest'
import type { PublicationStore } from './store'

export const CALENDAR_PUBLISHER_PURPOSE = 'openbell calendar publisher key v1'

/** The key name of a base URL's calendar publisher (C2SP: a schema-less URL). */
export const publisherKeyName = (publicBaseUrl: string) => `${publicBaseUrl.replace(/^https?:\/\//, '')}/calendars`

/** Null while the signer is offline. */
export function calendarPublisherKey(signer: Signer, name: string): NoteSigner | null {
  const key = signer.deriveKey(CALENDAR_PUBLISHER_PURPOSE)
  return key ? new NoteSigner(name, key.privateKey, key.publicKey) : null
}

/** What /v5/keys says about the key. */
export function calendarPublisherKeyDocument(key: NoteSigner | null) {
  if (!key) return {}
  return { calendar_publisher_key: { name: key.name, key_id: hex8(key.keyId), vkey: key.vkey, algorithm: 'Ed25519', signature_type: '0x01 (c2sp.org/signed-note)', signs: 'the calendar manifest of GET /v5/calendars/manifest (docs/calendars.md)' } }
}

/** The manifest lines of the files in force (every loaded venue). */
export function manifestFiles(snapshot: CalendarSnapshot): ManifestFile[] {
  const files: ManifestFile[] = []
  for (const entry of snapshot.entries.values()) {
    if (entry.state === 'loaded') files.push({ mic: entry.mic, data_version: entry.calendar.dataVersion, sha256: entry.contentHash, size: entry.bytes.length })
  }
  return files.sort((a, b) => (a.mic < b.mic ? -1 : 1))
}

export interface SignedManifest {
  serial: number
  /** The signed note. */
  note: string
  etag: string
}

export const manifestEtag = (serial: number, note: string) => `"m${serial}-${sha256Hex(note).slice(0, 24)}"`

/**
 * Signs the manifest of a set of files: the serial of that set from the publications store (the
 * latest when the set is unchanged, else the next one), then the text with its issue time. Ed25519
 * is deterministic, so every node with the same files serves the same bytes.
 */
export async function signManifest(parts: { key: NoteSigner; publications: PublicationStore; transactor: Transactor; now: number }, files: readonly ManifestFile[], atLeast?: number): Promise<SignedManifest> {
  const setHash = fileSetHash(files)
  const publication = await parts.transactor.run(() => parts.publications.publish(setHash, new Date(parts.now).toISOString(), atLeast), { name: 'calendar-publication' })
  const note = parts.key.sign(manifestText({ origin: parts.key.name, serial: publication.serial, issued: publication.issued_at, files: [...files] }))
  return { serial: publication.serial, note, etag: manifestEtag(publication.serial, note) }
}

/** The manifest of the calendars in force, signed once per set of files (a reload that changed no file signs nothing). */
export class ManifestPublisher {
  private cached: { setHash: string; manifest: Promise<SignedManifest> } | null = null
  /** The snapshot the cache was checked against: the same snapshot needs no new set hash. */
  private checkedSnapshot: CalendarSnapshot | null = null

  constructor(
    private readonly parts: { key: NoteSigner | null; publications: PublicationStore; transactor: Transactor; calendars: CalendarRegistry; clock: { now(): number } },
  ) {}

  get key(): NoteSigner | null {
    return this.parts.key
  }

  /** Null while the signer is offline; throws a storage error when the serial cannot be read. */
  current(): Promise<SignedManifest> | null {
    const key = this.parts.key
    if (!key) return null
    const snapshot = this.parts.calendars.snapshot()
    if (this.cached && this.checkedSnapshot === snapshot) return this.cached.manifest
    this.checkedSnapshot = snapshot
    const files = manifestFiles(snapshot)
    const setHash = fileSetHash(files)
    if (this.cached?.setHash !== setHash) {
      const manifest = signManifest({ key, publications: this.parts.publications, transactor: this.parts.transactor, now: this.parts.clock.now() }, files)
      this.cached = { setHash, manifest }
      // A failed read is not kept: the next request tries again.
      manifest.catch(() => {
        if (this.cached?.manifest === manifest) {
          this.cached = null
          this.checkedSnapshot = null
        }
      })
    }
    return this.cached.manifest
  }
}
