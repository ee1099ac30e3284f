// The calendar-update parts built once per app (wiring/assemble.ts): the manifest publisher every
// instance runs, the durable change list, and the follower when CALENDAR_UPSTREAM_URL is set.
import type { Clock } from '../../clock'
import type { Config } from '../../config'
import type { Signer } from '../../crypto/signer'
import type { Logger } from '../../log'
import type { Transactor } from '../../store/transaction'
import { parseVkey, SIG_ED25519, type Vkey } from '../../transparency/note'
import type { CalendarChangeStore } from '../changes/store'
import type { CalendarRegistry } from '../registry'
import { CalendarFollower } from './follower'
import { calendarPublisherKey, ManifestPublisher, publisherKeyName } from './publisher'
import type { PublicationStore, UpstreamStore } from './store'

export interface CalendarUpdateStores {
  publications: PublicationStore
  upstream: UpstreamStore
  changes: CalendarChangeStore
}

export interface CalendarUpdates extends CalendarUpdateStores {
  publisher: ManifestPublisher
  /** Null when this instance follows no source. */
  follower: CalendarFollower | null
}

/** An Ed25519 note vkey (type 0x01) whose key id matches its name and key; null otherwise. */
export function parseUpstreamKey(text: string): Vkey | null {
  const key = parseVkey(text)
  return key && key.type === SIG_ED25519 ? key : null
}

export function calendarUpdateServices(parts: { config: Config; signer: Signer; calendars: CalendarRegistry; clock: Clock; log: Logger; transactor: Transactor }, stores: CalendarUpdateStores): CalendarUpdates {
  const { config } = parts
  const publisher = new ManifestPublisher({ key: calendarPublisherKey(parts.signer, publisherKeyName(config.publicBaseUrl)), publications: stores.publications, transactor: parts.transactor, calendars: parts.calendars, clock: parts.clock })
  let follower: CalendarFollower | null = null
  if (config.calendarUpstream) {
    const key = parseUpstreamKey(config.calendarUpstream.key)
    if (!key) throw new TypeError('CALENDAR_UPSTREAM_KEY is not an Ed25519 note vkey (main.ts checks it before this)')
    follower = new CalendarFollower({ config: { url: config.calendarUpstream.url, vkey: config.calendarUpstream.key, key, intervalMs: config.calendarUpstream.intervalMs }, calendars: parts.calendars, store: stores.upstream, transactor: parts.transactor, clock: parts.clock, log: parts.log })
  }
  return { ...stores, publisher, follower }
}
