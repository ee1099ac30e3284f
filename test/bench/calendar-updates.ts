// `TZ=UTC bun test/bench/calendar-updates.ts`: what calendar updates cost on this machine (one
// core): a reload that changed nothing, one that changed a date of every venue (the day-by-day
// comparison of each), one that changed a venue's weekly hours (every covered date compared), the
// manifest served from its cache and answered 304, and a follower applying a manifest in which
// every file changed (plan with the validator and compiler, journaled write, reload).
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { loadavg } from 'node:os'
import { CalendarRegistry } from '../../src/calendar/registry'
import { memoryLogger } from '../../src/log'
import { systemClock } from '../../src/clock'
import { planApply, stateAfter, writeFiles } from '../../src/calendar/updates/apply'
import { emptyState } from '../../src/calendar/updates/local-state'
import { manifestFiles } from '../../src/calendar/updates/publisher'
import { sha256Hex } from '../../src/calendar/updates/manifest'
import { makeTestApp, tempDir, removeTempDirs } from '../helpers/app'

const root = resolve(import.meta.dir, '../..')
const timed = <T>(work: () => T): [T, number] => {
  const start = performance.now()
  const value = work()
  return [value, performance.now() - start]
}
const editAll = (dir: string, edit: (file: any, mic: string) => void) => {
  for (const name of readdirSync(dir).filter((entry) => /^[A-Z0-9]{4}\.json$/.test(entry))) {
    const file = JSON.parse(readFileSync(join(dir, name), 'utf8'))
    edit(file, name.slice(0, 4))
    writeFileSync(join(dir, name), JSON.stringify(file, null, 2))
  }
}

console.log(`load average at start: ${loadavg().map((value) => value.toFixed(1)).join(' ')}`)
const dir = tempDir('openbell-bench-calendars-')
cpSync(resolve(root, 'schedules'), dir, { recursive: true })
const calendars = new CalendarRegistry(dir, memoryLogger('error'), systemClock)
const [, bootMs] = timed(() => calendars.reload('boot'))
const [, noopMs] = timed(() => calendars.reload('SIGHUP'))

editAll(dir, (file) => {
  if (file.always_open) return
  file.holidays[file.coverage.to] = 'Bench closure'
  delete file.early_closes[file.coverage.to]
  delete file.late_opens[file.coverage.to]
  delete file.special_sessions[file.coverage.to]
  if (file.provisional) delete file.provisional[file.coverage.to]
  if (file.phases?.dates) delete file.phases.dates[file.coverage.to]
  file.data_version = '2099.1.0'
})
const [holidayReport, holidayMs] = timed(() => calendars.reload('SIGHUP'))

const nyse = JSON.parse(readFileSync(join(dir, 'XNYS.json'), 'utf8'))
for (const day of ['mon', 'tue', 'wed', 'thu', 'fri']) nyse.weekly[day] = [['09:30', '16:30']]
nyse.data_version = '2099.1.1'
writeFileSync(join(dir, 'XNYS.json'), JSON.stringify(nyse, null, 2))
const [hoursReport, hoursMs] = timed(() => calendars.reload('SIGHUP'))

console.log(`reload of ${calendars.snapshot().entries.size} venues: first load ${bootMs.toFixed(0)} ms; nothing changed ${noopMs.toFixed(0)} ms`)
console.log(`one holiday added to each of ${holidayReport.changes.length} venues: ${holidayMs.toFixed(0)} ms (${(holidayMs / holidayReport.changes.length).toFixed(1)} ms a venue, compile and comparison), ${holidayReport.changes.reduce((n, change) => n + change.days.length, 0)} changed dates`)
console.log(`XNYS weekly hours changed: ${hoursMs.toFixed(0)} ms, ${hoursReport.changes[0]?.days.length ?? 0} changed dates (every covered date compared)`)

// The manifest over HTTP (app.handle): the first answer signs it; later ones come from the cache.
const app = makeTestApp({ schedulesDir: dir })
const [first, firstMs] = await (async () => {
  const start = performance.now()
  const response = await app.request('/v5/calendars/manifest')
  return [response, performance.now() - start] as const
})()
const etag = first.headers.get('etag')!
const rounds = 2000
let start = performance.now()
for (let i = 0; i < rounds; i++) await (await app.request('/v5/calendars/manifest')).arrayBuffer()
const cachedPerSecond = rounds / ((performance.now() - start) / 1000)
start = performance.now()
for (let i = 0; i < rounds; i++) await app.request('/v5/calendars/manifest', { headers: { 'if-none-match': etag } })
const notModifiedPerSecond = rounds / ((performance.now() - start) / 1000)
console.log(`GET /v5/calendars/manifest: first (serial taken, signed) ${firstMs.toFixed(1)} ms; cached ${cachedPerSecond.toFixed(0)}/s; 304 ${notModifiedPerSecond.toFixed(0)}/s (app.handle, one connection)`)

// A follower applying a manifest in which every file changed.
const followerDir = tempDir('openbell-bench-follower-')
cpSync(resolve(root, 'schedules'), followerDir, { recursive: true })
const follower = new CalendarRegistry(followerDir, memoryLogger('error'), systemClock)
follower.reload('boot')
const files = manifestFiles(calendars.snapshot())
const bodies = new Map(files.map((file) => [file.sha256, readFileSync(join(dir, `${file.mic}.json`), 'utf8')]))
const manifest = { origin: 'bench/calendars', serial: 2, issued: new Date().toISOString(), files }
const snapshot = follower.snapshot()
const [planned, planMs] = timed(() => planApply(manifest, bodies, { state: emptyState(), disk: (mic) => { try { return sha256Hex(readFileSync(join(followerDir, `${mic}.json`))) } catch { return null } }, inForce: (mic) => { const entry = snapshot.entries.get(mic); return entry?.state === 'loaded' ? entry.calendar.dataVersion : null } }))
if (!planned.ok) throw new Error(planned.refusal.detail)
const [, writeMs] = timed(() => writeFiles(followerDir, planned.plan.writes, stateAfter(emptyState(), manifest, 'bench', planned.plan, Date.now())))
const [applied, reloadMs] = timed(() => follower.reload('upstream'))
console.log(`follower applying ${planned.plan.writes.length} changed files: plan (validate, compile) ${planMs.toFixed(0)} ms, journaled write ${writeMs.toFixed(0)} ms, reload with comparison ${reloadMs.toFixed(0)} ms (${applied.changes.length} venues changed)`)
console.log(`load average at end: ${loadavg().map((value) => value.toFixed(1)).join(' ')}`)
removeTempDirs()
process.exit(0)
