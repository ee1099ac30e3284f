// The safe-to-trade receipt (spec 2.5): one signed answer to "may I trade this venue now?",
// made from the venue's resolution and a scan of real-time halts across venues.
import type { Signer } from '../crypto/signer'
import { ApiError } from '../http/errors'
import { RECEIPT_SCHEMA_VERSION, receiptWindow } from '../crypto/receipt-fields'
import { isSupportedMic, DEFAULT_MIC, SUPPORTED_MICS, type Mic } from '../calendar/mics'
import { asciiMic } from '../calendar/mic-param'
import type { Resolution } from './resolve'

export const REASON_CODES = ['VENUE_NOT_OPEN', 'VENUE_REALTIME_HALT', 'VENUE_OVERRIDE_ACTIVE', 'VENUE_TIER2_UNKNOWN', 'CROSS_VENUE_SCAN_UNAVAILABLE'] as const
export type SafeReason = (typeof REASON_CODES)[number]
export const MAX_INSTRUMENT_LENGTH = 64
/** Requests per minute per client address on the public sample door (the paid door has no such limit). */
export const SAMPLE_DOOR_PER_MINUTE = 60

export interface SampleQuery {
  venue?: string
  max_age?: string
  instrument?: string
}

export interface SafeToTradeInput {
  venue: Mic
  maxAge: number
  instrument: string
}

/** max_age: digits only, an integer from 1 to 60 ("1.0", "01", "1e1", "+5" are refused). */
export function parseSampleQuery(query: SampleQuery): SafeToTradeInput {
  let venue: Mic = DEFAULT_MIC
  if (query.venue !== undefined && query.venue !== '') {
    const upper = asciiMic(query.venue)
    if (upper === null || !isSupportedMic(upper)) throw new ApiError(400, 'UNKNOWN_VENUE', `${JSON.stringify(query.venue.slice(0, 32))} is not a supported venue`, { supported: [...SUPPORTED_MICS] })
    venue = upper
  }
  if (query.max_age === undefined || query.max_age === '') throw new ApiError(400, 'MAX_AGE_REQUIRED', 'max_age (integer seconds, 1 to 60) is required')
  if (!/^[1-9][0-9]?$/.test(query.max_age) || Number(query.max_age) > 60) throw new ApiError(400, 'MAX_AGE_INVALID', 'max_age must be an integer from 1 to 60 written as digits')
  const instrument = query.instrument ?? ''
  if ([...instrument].length > MAX_INSTRUMENT_LENGTH) throw new ApiError(400, 'INSTRUMENT_TOO_LONG', `instrument is limited to ${MAX_INSTRUMENT_LENGTH} characters`)
  return { venue, maxAge: Number(query.max_age), instrument }
}

export interface CrossVenueScan {
  realtimeHalts: string[]
  ok: boolean
}

export function safeReasons(venue: Resolution, scan: CrossVenueScan): SafeReason[] {
  const reasons: SafeReason[] = []
  if (venue.status !== 'OPEN') reasons.push('VENUE_NOT_OPEN')
  if (venue.source === 'REALTIME') reasons.push('VENUE_REALTIME_HALT')
  if (venue.source === 'OVERRIDE') reasons.push('VENUE_OVERRIDE_ACTIVE')
  if (venue.status === 'UNKNOWN' && venue.source === 'SYSTEM') reasons.push('VENUE_TIER2_UNKNOWN')
  if (!scan.ok) reasons.push('CROSS_VENUE_SCAN_UNAVAILABLE')
  return reasons
}

export function signSafeToTrade(signer: Signer, issuer: string, input: SafeToTradeInput, venue: Resolution, scan: CrossVenueScan, now: number) {
  const reasons = safeReasons(venue, scan)
  return signer.signFields({
    ...receiptWindow(now),
    cross_venue: JSON.stringify({ realtime_overrides: [...scan.realtimeHalts].sort(), scan_ok: scan.ok }),
    instrument: input.instrument,
    issuer,
    max_age: String(input.maxAge),
    public_key_id: signer.keyId,
    reasons: JSON.stringify(reasons),
    receipt_mode: 'live',
    safe: reasons.length === 0 ? 'true' : 'false',
    schema_version: RECEIPT_SCHEMA_VERSION,
    venue: input.venue,
    venue_source: venue.source,
    venue_status: venue.status,
  })
}
