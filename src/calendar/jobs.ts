// Background work for calendars: hot reload (directory watch and SIGHUP) and the daily horizon
// alarm, whose warnings also appear in /v5/health.
import type { AppDeps } from '../deps'
import { calendarWarnings } from './horizon'
import { reloadWarnings } from './reload-warnings'
import { watchDirectory } from './watch'
import { DAY_MS } from './zone'

/** Hot reload (directory watch and SIGHUP) and the daily horizon alarm. Returns a stop function. */
export function startCalendarJobs(deps: Pick<AppDeps, 'calendars' | 'log' | 'clock' | 'healthExtras'>, options: { debounceMs?: number } = {}): () => void {
  const { calendars, log, clock } = deps
  const horizonAlarm = () => {
    for (const warning of calendarWarnings(calendars.snapshot(), clock.now())) log.warn('calendar horizon', { ...warning })
  }
  deps.healthExtras.push(() => {
    const snapshot = calendars.snapshot()
    const warnings = [...calendarWarnings(snapshot, clock.now()), ...reloadWarnings(snapshot)]
    return warnings.length ? { calendar_warnings: warnings } : {}
  })
  horizonAlarm()
  const daily = setInterval(horizonAlarm, DAY_MS)
  const stopWatching = watchDirectory(calendars.dir, () => calendars.reload('watch'), options.debounceMs)
  const onHangup = () => calendars.reload('SIGHUP')
  process.on('SIGHUP', onHangup)
  return () => {
    clearInterval(daily)
    stopWatching()
    process.off('SIGHUP', onHangup)
  }
}
