// Issue 30 item 4, for `bun run bench` (or `bun test/bench/calendar-flood.ts` alone): what a flood
// of the largest calendar answers, or of decoded log bundles, does to paid GET /v5/status.
// Each case is one server; in it, /v5/status (a pro key, the usual connections) is measured alone
// and under a 20-connection flood, alternated twice, so that the machine's noise falls on both.
// Cases: as served (the per-address rate; one flooding address, as in the report, and 20
// addresses each within its rate); the cache alone (the rate lifted); as before (rate lifted,
// every answer built for its request); and entry bundles to a client without gzip. The cost of building one answer against taking it
// from the cache is measured in this process.
import { resolve } from 'node:path'
import { AnswerCache } from '../../src/calendar/answer-cache'
import { calendarAnswer, parseCalendarQuery } from '../../src/calendar/calendar-answer'
import { holidaysView, venueCalendars } from '../../src/calendar/holidays'
import { parseUpcomingDays, parseYear } from '../../src/calendar/date-range'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { CalendarRegistry } from '../../src/calendar/registry'
import { memoryLogger } from '../../src/log'
import { systemClock } from '../../src/clock'
import { hasWrk, load, SECONDS, type Load } from './measure'
import { machineLine, writeDocFigures } from './doc-figures'
import { startServer } from './start-server'

export const FLOOD_CONNECTIONS = 20
const ROUNDS = 2
const YEAR = String(new Date().getUTCFullYear() + 1)

interface AnswerCost {
  name: string
  bytes: number
  builtMs: number
  cachedUs: number
}

export interface FloodCaseResult {
  name: string
  alone: Load
  flooded: Load
  flood: Load
}

export interface CalendarFloodResult {
  costs: AnswerCost[]
  cases: FloodCaseResult[]
}

const root = resolve(import.meta.dir, '../..')

/** The venue whose 366-day /v5/calendar answer is the largest (phases make some much bigger). */
function largestCalendarMic(calendars: CalendarRegistry): string {
  const snapshot = calendars.snapshot()
  let best = { mic: 'XNYS', bytes: 0 }
  for (const mic of SUPPORTED_MICS) {
    const bytes = JSON.stringify(calendarAnswer(snapshot, parseCalendarQuery({ mic, from: `${YEAR}-01-01`, to: `${YEAR}-12-31` }, Date.now()))).length
    if (bytes > best.bytes) best = { mic, bytes }
  }
  return best.mic
}

function answerCosts(calendars: CalendarRegistry, mic: string): AnswerCost[] {
  const snapshot = calendars.snapshot()
  const now = Date.now()
  const answers: [string, () => unknown][] = [
    [`/v5/calendar?mic=${mic}&from=${YEAR}-01-01&to=${YEAR}-12-31`, () => calendarAnswer(snapshot, parseCalendarQuery({ mic, from: `${YEAR}-01-01`, to: `${YEAR}-12-31` }, now))],
    [`/v5/holidays?year=${YEAR}`, () => holidaysView(venueCalendars(snapshot), parseYear(YEAR))],
    ['/v5/holidays/upcoming?days=366', () => { const range = parseUpcomingDays('366', now); return { days: range.days, ...holidaysView(venueCalendars(snapshot), range) } }],
  ]
  return answers.map(([name, build]) => {
    // Built: what every request cost before (the answer, its JSON, its ETag), through a cache that keeps nothing.
    const uncached = new AnswerCache({ maxEntries: 0, maxBytes: 0 })
    for (let i = 0; i < 3; i++) uncached.answer(snapshot, name, build)
    const builds = 20
    let start = performance.now()
    for (let i = 0; i < builds; i++) uncached.answer(snapshot, name, build)
    const builtMs = (performance.now() - start) / builds
    const cache = new AnswerCache()
    const bytes = cache.answer(snapshot, name, build).body.length
    const hits = 100_000
    start = performance.now()
    for (let i = 0; i < hits; i++) cache.answer(snapshot, name, build)
    return { name, bytes, builtMs, cachedUs: ((performance.now() - start) * 1000) / hits }
  })
}

/** A flood of `paths` (in turn) from FLOOD_CONNECTIONS connections for `seconds`; `addresses`: named in X-Real-IP, in turn. */
async function flood(base: string, paths: string[], seconds: number, addresses = 0): Promise<Load> {
  if (!hasWrk) return load(`${base}${paths[0]}`, { seconds, connections: FLOOD_CONNECTIONS })
  const run = Bun.spawn(['wrk', '-t1', `-c${FLOOD_CONNECTIONS}`, `-d${seconds}s`, '-s', resolve(import.meta.dir, 'calendar-flood.lua'), base, '--', ...(addresses ? [`addresses=${addresses}`] : []), ...paths], { stdout: 'pipe' })
  const output = await new Response(run.stdout).text()
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0)
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0)
  return { rps, p99Ms: null, non2xx, requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? 0) }
}

const mean = (runs: Load[]): Load => ({ rps: runs.reduce((sum, run) => sum + run.rps, 0) / runs.length, p99Ms: Math.max(...runs.map((run) => run.p99Ms ?? 0)), non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0), requests: runs.reduce((sum, run) => sum + run.requests, 0) })

async function floodCase(name: string, env: Record<string, string>, paths: (base: string) => Promise<string[]>, addresses = 0): Promise<FloodCaseResult> {
  const server = await startServer('app.ts', { WITNESS_BODIES: '10', LOG_LEVEL: 'warn', ...env })
  const base = `http://127.0.0.1:${server.fields[0]}`
  const status = (seconds: number) => load(`${base}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': server.fields[1]! }, seconds })
  try {
    await status(1) // warm-up (and receipts for the log's bundles)
    const floodPaths = await paths(base)
    const alone: Load[] = []
    const flooded: Load[] = []
    const floods: Load[] = []
    for (let round = 0; round < ROUNDS; round++) {
      alone.push(await status(SECONDS))
      const running = flood(base, floodPaths, SECONDS + 2, addresses)
      await Bun.sleep(1000)
      flooded.push(await status(SECONDS))
      floods.push(await running)
    }
    return { name, alone: mean(alone), flooded: mean(flooded), flood: mean(floods) }
  } finally {
    await server.stop()
  }
}

export async function calendarFloodBench(): Promise<CalendarFloodResult> {
  const calendars = new CalendarRegistry(resolve(root, 'schedules'), memoryLogger('error'), systemClock)
  calendars.reload('bench')
  const mic = largestCalendarMic(calendars)
  const costs = answerCosts(calendars, mic)
  const largest = async () => costs.map((cost) => cost.name)
  const lifted = { CALENDAR_RATE_PER_MINUTE: '1000000000' }
  const cases = [
    await floodCase('calendar answers, as served (CALENDAR_RATE_PER_MINUTE default, one flooding address)', {}, largest),
    await floodCase(`calendar answers, as served, from ${FLOOD_CONNECTIONS} addresses (X-Real-IP; each within its rate)`, { CLIENT_IP_HEADER: 'x-real-ip' }, largest, FLOOD_CONNECTIONS),
    await floodCase('calendar answers, the cache alone (rate lifted)', lifted, largest),
    await floodCase('calendar answers as before: rate lifted, every answer built for its request', { ...lifted, BENCH_CALENDAR_CACHE: 'off' }, largest),
    await floodCase('full entry bundle to a client without gzip (decoded once, from the cache)', {}, async (base) => {
      // The integrator runs every second: wait for a checkpoint over the first full bundle.
      for (const deadline = Date.now() + 15_000; (await fetch(`${base}/log/tile/entries/000`)).status !== 200; await Bun.sleep(250)) if (Date.now() > deadline) throw new Error('no full entry bundle was published')
      return ['/log/tile/entries/000']
    }),
  ]
  return { costs, cases }
}

export function calendarFloodRows(result: CalendarFloodResult): string[] {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const rows = ['| measure | figure | target | met |', '|---|---|---|---|']
  for (const cost of result.costs) rows.push(`| cost of one answer, \`${cost.name}\` (${fmt(cost.bytes / 1024)} KiB): built (before: every request) / from the cache | ${fmt(cost.builtMs, 2)} ms / ${fmt(cost.cachedUs, 2)} µs | | |`)
  for (const c of result.cases) {
    const ratio = c.flooded.rps / c.alone.rps
    const target = c.name.includes('as served') ? '>= 0.8' : ''
    rows.push(`| GET /v5/status (key) under a ${FLOOD_CONNECTIONS}-connection flood of ${c.name} / alone (mean of ${ROUNDS} alternated runs) | ${fmt(c.flooded.rps)} / ${fmt(c.alone.rps)} req/s = ${ratio.toFixed(3)}, p99 ${fmt(c.flooded.p99Ms ?? 0, 1)} / ${fmt(c.alone.p99Ms ?? 0, 1)} ms; the flood: ${fmt(c.flood.rps)} req/s, ${fmt((c.flood.non2xx / Math.max(1, c.flood.requests)) * 100, 1)} % refused | ${target} | ${target ? (ratio >= 0.8 ? 'yes' : 'NO') : ''} |`)
  }
  return rows
}

export function writeCalendarFloodFigures(rows: string[], header: string): void {
  writeDocFigures('calendar-flood', header, rows)
}

if (import.meta.main) {
  const rows = calendarFloodRows(await calendarFloodBench())
  for (const row of rows) console.log(row)
  writeCalendarFloodFigures(rows, `${machineLine()} (\`bun test/bench/calendar-flood.ts\`, also part of \`bun run bench\`)`)
  process.exit(0)
}
