// Background work for calendars: hot reload (directory watch and SIGHUP) and the daily horizon
// alarm, whose warnings also appear in /v5/health with the versions in force.
import type { CalendarJobDeps } from './deps'
import { calendarWarnings } from './horizon'
import type { CalendarSnapshot } from './registry'
import { reloadWarnings } from './reload-warnings'
import { watchDirectory } from './watch'
import { DAY_MS } from './zone'

/** What an operator checks after editing a file: the reload count, the latest load, each MIC's version in force. */
export function calendarVersions(snapshot: CalendarSnapshot) {
  const data_versions: Record<string, string | null> = {}
  let last_loaded_at: string | null = null
  for (const [mic, entry] of snapshot.entries) {
    data_versions[mic] = entry.state === 'loaded' ? entry.calendar.dataVersion : null
    if (entry.state === 'loaded' && (last_loaded_at === null || entry.loadedAt > last_loaded_at)) last_loaded_at = entry.loadedAt
  }
  return { generation: snapshot.generation, last_loaded_at, data_versions }
}

/** Hot reload (directory watch and SIGHUP) and the daily horizon alarm. Returns a stop function. */
export function startCalendarJobs(deps: CalendarJobDeps, options: { debounceMs?: number; upstream?: () => unknown } = {}): () => void {
  const { calendars, log, clock } = deps
  const horizonAlarm = () => {
    for (const warning of calendarWarnings(calendars.snapshot(), clock.now())) log.warn('calendar horizon', { ...warning })
  }
  deps.healthExtras.push(() => {
    const snapshot = calendars.snapshot()
    const warnings = [...calendarWarnings(snapshot, clock.now()), ...reloadWarnings(snapshot)]
    return { calendars: { ...calendarVersions(snapshot), ...(options.upstream ? { upstream: options.upstream() } : {}) }, ...(warnings.length ? { calendar_warnings: warnings } : {}) }
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
