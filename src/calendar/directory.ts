// Exchange directory entries: from the loaded calendar when there is one, else the static identity.
import { EXCHANGE_IDENTITIES, ISO20022_MIC_REGISTRY } from './exchanges'
import { SUPPORTED_MICS, type Mic } from './mics'
import type { CalendarSnapshot } from './registry'

export function identityOf(snapshot: CalendarSnapshot, mic: Mic) {
  const entry = snapshot.entries.get(mic)
  const fallback = EXCHANGE_IDENTITIES[mic]
  if (entry?.state !== 'loaded') return { ...fallback, sameAs: `${ISO20022_MIC_REGISTRY}#${mic}` }
  const { calendar } = entry
  return { mic, name: calendar.name, country: calendar.country, currency: calendar.currency, timezone: calendar.timezone, sameAs: calendar.sameAs }
}

export function exchangeDirectory(snapshot: CalendarSnapshot) {
  return SUPPORTED_MICS.map((mic) => identityOf(snapshot, mic))
}

/** Why a MIC has no calendar, for UNKNOWN answers. */
export function unavailableReason(snapshot: CalendarSnapshot, mic: Mic): string | null {
  const entry = snapshot.entries.get(mic)
  if (!entry) return 'calendars not loaded'
  if (entry.state === 'loaded') return null
  const first = entry.problems[0]
  return `calendar invalid: ${first ? `${first.path || '/'} ${first.reason}` : 'unknown problem'}`
}
