// The one function that decides the state of a venue at an instant, for every receipt surface:
// operator override → real-time halt → calendar → UNKNOWN. Any internal error is UNKNOWN/SYSTEM.
import type { CalendarRegistry, CalendarSnapshot } from '../calendar/registry'
import { statusAt } from '../calendar/engine'
import { unavailableReason } from '../calendar/directory'
import type { Mic } from '../calendar/mics'
import type { Logger } from '../log'
import type { OverrideService } from './overrides/service'
import type { HaltMonitor } from './halts/monitor'

export type MarketStatus = 'OPEN' | 'CLOSED' | 'HALTED' | 'UNKNOWN'
export type MarketSource = 'SCHEDULE' | 'OVERRIDE' | 'SYSTEM' | 'REALTIME'

export interface Resolution {
  mic: Mic
  status: MarketStatus
  source: MarketSource
  /** Signed only for OVERRIDE and REALTIME (spec 3 rule 3); otherwise an unsigned explanation. */
  reason: string
  haltDetection: 'active' | 'schedule_only'
}

export interface MarketDeps {
  calendars: CalendarRegistry
  overrides: OverrideService
  halts: HaltMonitor
  log: Logger
}

export async function resolveStatus(deps: MarketDeps, mic: Mic, now: number, snapshot: CalendarSnapshot = deps.calendars.snapshot()): Promise<Resolution> {
  let haltDetection: Resolution['haltDetection'] = 'schedule_only'
  try {
    haltDetection = deps.halts.detectionActive(mic, now) ? 'active' : 'schedule_only'
    const override = await deps.overrides.forMic(mic, now)
    if (override) return { mic, status: override.status, source: 'OVERRIDE', reason: override.reason, haltDetection }
    const halt = deps.halts.haltFor(mic)
    if (halt) return { mic, status: 'HALTED', source: 'REALTIME', reason: halt.reason, haltDetection }
    const calendar = deps.calendars.calendar(mic, snapshot)
    if (!calendar) return { mic, status: 'UNKNOWN', source: 'SCHEDULE', reason: unavailableReason(snapshot, mic) ?? 'no calendar', haltDetection }
    const answer = statusAt(calendar, now)
    return { mic, status: answer.status, source: 'SCHEDULE', reason: answer.reason, haltDetection }
  } catch (error) {
    deps.log.error('status resolution failed; answering UNKNOWN', { mic, error: (error as Error).message })
    return { mic, status: 'UNKNOWN', source: 'SYSTEM', reason: 'internal error', haltDetection }
  }
}
