// Conformance vectors (/v5/conformance-vectors): five receipts signed afresh on every call with
// the live key, with the exact bytes that were signed, so a third-party verifier can test itself
// against this service. issued_at/expires_at are the signing time (a verifier that refuses expired
// receipts accepts them for 60 seconds); each market status is evaluated at the vector's fixed
// instant, published unsigned as synthetic_time beside the receipt. They are demo-mode receipts
// (signed receipt_mode) for testing verifiers only: never act on them.
import type { IssueDeps } from './deps'
import { canonicalPayload } from '../crypto/canonical'
import { SIGNED_FIELDS } from '../crypto/receipt-fields'
import { statusAt } from '../calendar/engine'
import type { Mic } from '../calendar/mics'
import { healthReceipt } from './health-receipt'
import { SUPPORTED_MICS } from '../calendar/mics'
import { carriesReason, signMarketReceipt } from './receipt'
import type { Resolution } from './resolve'

/** `at` is the instant the status is evaluated at (null for health, whose status is not a function of time). */
const VECTORS: { name: string; description: string; mic: Mic | null; at: string | null; id: string; system?: true }[] = [
  { name: 'xnys_open', description: 'XNYS during its regular session', mic: 'XNYS', at: '2026-03-10T15:00:00.000Z', id: '00000000-0000-4000-8000-000000000001' },
  { name: 'xnys_closed', description: 'XNYS after the close', mic: 'XNYS', at: '2026-03-10T22:00:00.000Z', id: '00000000-0000-4000-8000-000000000002' },
  { name: 'xjpx_lunch_break', description: 'XJPX during the Tokyo lunch break (11:45 JST)', mic: 'XJPX', at: '2026-03-10T02:45:00.000Z', id: '00000000-0000-4000-8000-000000000003' },
  { name: 'unknown_system', description: 'UNKNOWN from source SYSTEM (fail closed)', mic: 'XNYS', at: '2026-03-10T15:00:00.000Z', id: '00000000-0000-4000-8000-000000000004', system: true },
  { name: 'health_ok', description: 'Health receipt', mic: null, at: null, id: '00000000-0000-4000-8000-000000000005' },
]

const NOTE =
  'For testing verifiers only; never trade on them. Signed afresh on every call: issued_at and expires_at are the signing time, so a verifier that refuses expired receipts accepts them for 60 seconds. ' +
  'Each status is the venue\'s status at synthetic_time (unsigned, beside the receipt), not now; the receipts are in demo mode (receipt_mode is signed) and their receipt ids are fixed and reserved for vectors.'

export function conformanceVectors(deps: Pick<IssueDeps, 'signer' | 'config' | 'calendars' | 'clock'>) {
  const key = deps.signer.key!
  const now = deps.clock.now()
  const vectors = VECTORS.map((vector) => {
    let receipt: Record<string, unknown>
    let fields: readonly string[]
    if (vector.mic === null || vector.at === null) {
      receipt = healthReceipt(deps.signer, deps.config.issuer, now, SUPPORTED_MICS, vector.id)
      fields = SIGNED_FIELDS.health_fields
    } else {
      const calendar = deps.calendars.calendar(vector.mic)
      const answer = vector.system || !calendar ? { status: 'UNKNOWN' as const, reason: 'synthetic system failure' } : statusAt(calendar, Date.parse(vector.at))
      const resolution: Resolution = { mic: vector.mic, status: answer.status, source: vector.system ? 'SYSTEM' : 'SCHEDULE', reason: answer.reason, haltDetection: vector.mic === 'XNYS' ? 'active' : 'schedule_only' }
      receipt = { ...signMarketReceipt(deps.signer, deps.config.issuer, resolution, 'demo', now, vector.id) }
      fields = carriesReason(resolution) ? SIGNED_FIELDS.override_fields : SIGNED_FIELDS.receipt_fields
    }
    const payload = canonicalPayload(Object.fromEntries(fields.map((name) => [name, String(receipt[name])])))
    return {
      name: vector.name,
      description: vector.description,
      synthetic_time: vector.at,
      receipt,
      signed_fields: fields,
      canonical_payload: Buffer.from(payload, 'utf8').toString('base64'),
      public_key: key.publicKeyHex,
    }
  })
  return { generated_at: new Date(now).toISOString(), public_key: key.publicKeyHex, public_key_id: key.keyId, note: NOTE, vectors }
}
