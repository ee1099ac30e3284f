// Whether this node can answer live requests now (GET /v5/ready), as against whether the process
// runs and can sign (GET /v5/health, liveness). A load balancer or an orchestrator takes a node
// that is not ready out of rotation and keeps the process running; it restarts a process only
// when liveness fails. Not ready: the database unreachable (the storage probe, every second),
// the audit log refusing rows (a failed write within its hold, or shutting down), the signing
// key offline, or no calendar loaded at all. Each of these makes every live answer a 503 (or an
// unsigned 500); a single venue without a calendar does not: it answers UNKNOWN, signed.
import type { ReadinessDeps } from './deps'
import { SUPPORTED_MICS } from '../calendar/mics'

export type { ReadinessDeps }

export interface ReadinessChecks {
  storage: { ok: boolean; backend: 'sqlite' | 'postgres'; status: 'ok' | 'degraded' }
  audit_log: { ok: boolean; status: 'ok' | 'failing' | 'stopped' }
  signer: { ok: boolean }
  calendars: { ok: boolean; loaded: number; venues: number }
}

export interface Readiness {
  ready: boolean
  /** The names of the checks that failed, in the order of `checks`. */
  failing: (keyof ReadinessChecks)[]
  checks: ReadinessChecks
}

export function readiness(deps: ReadinessDeps): Readiness {
  const database = deps.node.databaseStatus()
  const audit = deps.audit.health()
  const snapshot = deps.calendars.snapshot()
  const loaded = SUPPORTED_MICS.filter((mic) => snapshot.entries.get(mic)?.state === 'loaded').length
  const checks: ReadinessChecks = {
    storage: { ok: database === 'ok', backend: deps.node.backend, status: database },
    audit_log: { ok: audit === 'ok', status: audit },
    signer: { ok: deps.signer.online },
    calendars: { ok: loaded > 0, loaded, venues: SUPPORTED_MICS.length },
  }
  const failing = (Object.keys(checks) as (keyof ReadinessChecks)[]).filter((name) => !checks[name].ok)
  return { ready: failing.length === 0, failing, checks }
}
