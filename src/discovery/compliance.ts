// /v5/compliance: operational checks run against the live service when asked, cached for at most
// 60 s. Each check passes or fails with its evidence; nothing here is a fixed claim. The number of
// passing checks is the preflight_score of /v5/metrics/public.
import type { ComplianceDeps } from './deps'
import { API_VERSION } from '../version'
import { SUPPORTED_MICS } from '../calendar/mics'
import { hexToBytes, bytesToBase64url } from '../crypto/encoding'
import { jwkThumbprint } from '../crypto/jwk'
import type { KeyDescription } from '../crypto/signer'
import { verifyReceipt } from '../crypto/verify-receipt'
import { auditChain } from '../audit/digest'
import { SEAL_CHECK_MS, SEAL_GRACE_MS } from '../audit/sealer'
import { addDays, dayStartMs, utcDay } from '../audit/dates'
import { DAY_MS } from '../calendar/zone'
import { healthReceipt } from '../market/health-receipt'
import { jwks, keyRegistry } from './key-documents'

export const COMPLIANCE_CACHE_MS = 60_000
export const HORIZON_CHECK_DAYS = 30
/** How many sealed days the chain check walks back. */
const CHAIN_CHECK_DAYS = 30

export interface Check {
  check: string
  name: string
  status: 'pass' | 'fail'
  evidence: string
}

export interface ComplianceReport {
  standard: string
  oracle: string
  version: string
  last_verified: string
  checks: Check[]
  passing: number
  total: number
}

type CheckFn = (deps: ComplianceDeps, now: number) => Promise<{ ok: boolean; evidence: string }>

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The key as /v5/keys publishes it (hex), not the signer's own copy. */
function publishedKey(deps: ComplianceDeps): KeyDescription | null {
  const entry = keyRegistry(deps.signer.key, deps.config.publicBaseUrl, deps.config.issuer).keys[0]
  const bytes = entry ? hexToBytes(entry.public_key) : null
  if (!entry || !bytes) return null
  return { keyId: entry.key_id, publicKey: bytes, publicKeyHex: entry.public_key, validFrom: entry.valid_from, validUntil: entry.valid_until }
}

const receiptVerifies: CheckFn = async (deps, now) => {
  const key = publishedKey(deps)
  if (!key) return { ok: false, evidence: '/v5/keys publishes no key: the signer is offline' }
  let receipt: Record<string, unknown>
  try {
    receipt = healthReceipt(deps.signer, deps.config.issuer, now, SUPPORTED_MICS)
  } catch (error) {
    return { ok: false, evidence: `signing a fresh health receipt failed: ${errorText(error)}` }
  }
  const result = verifyReceipt([key], receipt, now)
  return result.valid && !result.expired
    ? { ok: true, evidence: `health receipt ${receipt.receipt_id} signed now verifies (${result.reason}) with key ${key.keyId} from /v5/keys` }
    : { ok: false, evidence: `health receipt ${receipt.receipt_id} signed now does not verify with key ${key.keyId} from /v5/keys: ${result.reason}` }
}

const jwksThumbprint: CheckFn = async (deps) => {
  const key = publishedKey(deps)
  if (!key || !deps.signer.key) return { ok: false, evidence: 'no key is published: /.well-known/jwks.json answers CONFIGURATION_ERROR' }
  const [jwk] = jwks(deps.signer.key).keys
  const expected = jwkThumbprint({ crv: 'Ed25519', kty: 'OKP', x: bytesToBase64url(key.publicKey) })
  if (!jwk || jwk.x !== bytesToBase64url(key.publicKey)) return { ok: false, evidence: `the JWKS key (x=${jwk?.x}) is not the /v5/keys key ${key.publicKeyHex}` }
  return jwk.kid === expected
    ? { ok: true, evidence: `JWKS kid ${jwk.kid} is the RFC 7638 thumbprint of the /v5/keys key ${key.keyId}` }
    : { ok: false, evidence: `JWKS kid ${jwk.kid} differs from the RFC 7638 thumbprint ${expected} of the /v5/keys key` }
}

const calendarHorizon: CheckFn = async (deps, now) => {
  const snapshot = deps.calendars.snapshot()
  const needed = now + HORIZON_CHECK_DAYS * DAY_MS
  const short: string[] = []
  let earliest: { mic: string; to: string } | null = null
  for (const mic of SUPPORTED_MICS) {
    const calendar = deps.calendars.calendar(mic, snapshot)
    if (!calendar) {
      short.push(`${mic} has no valid calendar`)
      continue
    }
    if (calendar.alwaysOpen) continue
    if (calendar.coverageEnd < needed) short.push(`${mic} coverage ends ${calendar.coverageTo}`)
    if (!earliest || calendar.coverageTo! < earliest.to) earliest = { mic, to: calendar.coverageTo! }
  }
  const through = new Date(needed).toISOString().slice(0, 10)
  if (short.length) return { ok: false, evidence: `not every calendar covers through ${through}: ${short.join('; ')}` }
  return { ok: true, evidence: `all ${SUPPORTED_MICS.length} venues cover through ${through}; earliest coverage end ${earliest ? `${earliest.to} (${earliest.mic})` : 'none (all continuous)'}` }
}

const calendarFiles: CheckFn = async (deps) => {
  const snapshot = deps.calendars.snapshot()
  const problems: string[] = []
  for (const [mic, file] of snapshot.rejected ?? []) problems.push(`${mic}: ${file.path.split(/[\\/]/).pop()} rejected (${file.problems[0]?.reason ?? 'invalid'}); ${file.in_force} stays in force`)
  for (const entry of snapshot.entries.values()) {
    if (entry.state === 'invalid') problems.push(`${entry.mic}: ${entry.problems[0]?.reason ?? 'invalid'}`)
  }
  return problems.length
    ? { ok: false, evidence: problems.join('; ') }
    : { ok: true, evidence: `the last reload (generation ${snapshot.generation}) accepted a valid file for each of the ${snapshot.entries.size} venues` }
}

const haltMonitor: CheckFn = async (deps, now) => {
  const state = deps.halts.state(now)
  const inSession = deps.halts.inSession(now)
  if (state === 'degraded') return { ok: false, evidence: `halt monitor degraded during a US session: no successful feed poll recently (${JSON.stringify(deps.halts.status())})` }
  return { ok: true, evidence: `halt monitor ${state}; a US session is ${inSession ? '' : 'not '}in progress` }
}

const auditDigests: CheckFn = async (deps, now) => {
  const store = deps.audit.store
  const today = utcDay(now)
  const yesterday = addDays(today, -1)
  const startedOn = await deps.auditTrail.sealer.startedOn()
  const chain = await auditChain(store, CHAIN_CHECK_DAYS)
  const chainText = `chain of ${chain.chain_length} sealed day(s), last ${CHAIN_CHECK_DAYS} checked: ${chain.chain_intact ? 'intact' : 'BROKEN (a stored root or link does not match)'}`
  if (!chain.chain_intact) return { ok: false, evidence: chainText }
  if (startedOn > yesterday) return { ok: true, evidence: `the chain starts ${startedOn}, so no day before today is due; ${chainText}` }
  const sealed = await store.digest(yesterday)
  if (sealed) return { ok: true, evidence: `${yesterday} sealed at ${sealed.computed_at} (${sealed.total_receipts_issued} receipts); ${chainText}` }
  // Sealing runs a few seconds after midnight: not yet sealed within that window is not a failure.
  if (now - dayStartMs(today) < SEAL_GRACE_MS + 2 * SEAL_CHECK_MS) return { ok: true, evidence: `${yesterday} is being sealed (midnight was under a minute ago); ${chainText}` }
  return { ok: false, evidence: `${yesterday} is not sealed; ${chainText}` }
}

const PROBE_DONE = new Error('probe rolled back')

const witnessWritable: CheckFn = async (deps, now) => {
  const { maxRows, maxBytes } = deps.config.witness
  let usage = { rows: 0, bytes: 0 }
  try {
    // A real insert in a transaction, then rolled back: proves the write path works.
    const store = deps.witness.store
    await deps.transactor.run(function* () {
      usage = { rows: yield* store.totalRows(), bytes: yield* store.databaseBytes() }
      yield* store.insert({ kid: 'compliance-probe', session_id: 'probe', count: 1, last_entry_hash: 'probe', received_at: new Date(now).toISOString(), utc_day: utcDay(now), pool: 'anonymous', account_id: null, fork: 0, receipt_json: '{}' })
      throw PROBE_DONE
    })
    return { ok: false, evidence: 'the probe transaction was not rolled back' }
  } catch (error) {
    if (error !== PROBE_DONE) return { ok: false, evidence: `witness store not writable: ${errorText(error)}` }
  }
  if (maxRows && usage.rows >= maxRows) return { ok: false, evidence: `witness store full: ${usage.rows} rows of WITNESS_MAX_ROWS ${maxRows}` }
  if (maxBytes && usage.bytes >= maxBytes) return { ok: false, evidence: `witness store full: ${usage.bytes} bytes of WITNESS_MAX_BYTES ${maxBytes}` }
  return { ok: true, evidence: `a probe row was written and rolled back; ${usage.rows} rows stored${maxRows ? ` of ${maxRows}` : ''}` }
}

const clockBounds: CheckFn = async (deps, now) => {
  const lower: [string, string][] = []
  const firstStart = await deps.installation.firstStartedAt()
  if (firstStart) lower.push(['first start of this installation', firstStart])
  if (deps.signer.key) lower.push(['signing key valid_from', deps.signer.key.validFrom])
  const last = await deps.audit.store.lastDigest()
  if (last) lower.push(['last digest sealed at', last.computed_at])
  const nowIso = new Date(now).toISOString()
  const behind = lower.filter(([, at]) => Date.parse(at) > now)
  if (behind.length) return { ok: false, evidence: `clock ${nowIso} is before ${behind.map(([what, at]) => `${what} ${at}`).join(', ')}` }
  const until = deps.signer.key?.validUntil ?? null
  if (until && Date.parse(until) <= now) return { ok: false, evidence: `clock ${nowIso} is past the signing key's valid_until ${until}` }
  return { ok: true, evidence: `clock ${nowIso} is after ${lower.map(([what, at]) => `${what} ${at}`).join(', ') || 'no recorded instant'}${until ? ` and before key valid_until ${until}` : ''}` }
}

const CHECKS: readonly { check: string; name: string; run: CheckFn }[] = [
  { check: 'receipt_verifies', name: 'A receipt signed now verifies with the key published at /v5/keys', run: receiptVerifies },
  { check: 'jwks_thumbprint', name: 'The JWKS kid is the RFC 7638 thumbprint of the published key', run: jwksThumbprint },
  { check: 'calendar_horizon', name: `Every venue's calendar covers at least the next ${HORIZON_CHECK_DAYS} days`, run: calendarHorizon },
  { check: 'calendar_files', name: 'No calendar file was rejected at the last reload', run: calendarFiles },
  { check: 'halt_monitor', name: 'The real-time halt monitor is not degraded during a US session', run: haltMonitor },
  { check: 'audit_chain', name: "Yesterday's audit digest is sealed and the digest chain is intact", run: auditDigests },
  { check: 'witness_writable', name: 'The witness store accepts writes and is under its storage ceiling', run: witnessWritable },
  { check: 'clock_bounds', name: 'The clock is not before any instant this service has recorded, nor past the key validity', run: clockBounds },
]

export const COMPLIANCE_CHECK_IDS = CHECKS.map((check) => check.check)

export async function runCompliance(deps: ComplianceDeps, now: number): Promise<ComplianceReport> {
  const checks = await Promise.all(
    CHECKS.map(async ({ check, name, run }): Promise<Check> => {
      try {
        const { ok, evidence } = await run(deps, now)
        return { check, name, status: ok ? 'pass' : 'fail', evidence }
      } catch (error) {
        return { check, name, status: 'fail', evidence: `the check could not run: ${errorText(error)}` }
      }
    }),
  )
  const passing = checks.filter((check) => check.status === 'pass').length
  return { standard: 'openbell-operational-checks/1', oracle: deps.config.issuer, version: API_VERSION, last_verified: new Date(now).toISOString(), checks, passing, total: checks.length }
}

/** One report per app, recomputed when older than 60 s (or the clock went back); concurrent askers share a run. */
export function complianceRunner(deps: ComplianceDeps) {
  let cached: { at: number; report: Promise<ComplianceReport> } | null = null
  return (): Promise<ComplianceReport> => {
    const now = deps.clock.now()
    if (!cached || now - cached.at >= COMPLIANCE_CACHE_MS || now < cached.at) {
      const report = runCompliance(deps, now)
      cached = { at: now, report }
      report.catch(() => {
        if (cached?.report === report) cached = null
      })
    }
    return cached.report
  }
}
