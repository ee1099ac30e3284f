// `bun run bench`: micro-benchmarks in this process, then HTTP throughput of each surface as a
// ratio to a constant-JSON Bun.serve baseline measured in the same run with the same load.
// Writes the figures and the machine to docs/performance.md (between the generated markers).
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { CONNECTIONS, generatorName, load, meanLoad, measure, type Load } from './measure'
import { cpus, totalmem } from 'node:os'
import { resolve } from 'node:path'
import { privateKeyFromSeed, signBytes } from '../../src/crypto/ed25519'
import { CalendarRegistry } from '../../src/calendar/registry'
import { statusAt } from '../../src/calendar/engine'
import { SUPPORTED_MICS } from '../../src/calendar/mics'
import { memoryLogger } from '../../src/log'
import { systemClock } from '../../src/clock'
import { auditBench } from './audit'
import { meteringBench } from './metering'
import { deliveryBench, deliveryRows, writeDeliveryFigures } from './delivery'
import { durabilityBench } from './durability'
import { floodBench, floodRows } from './flood'
import { calendarFloodBench, calendarFloodRows, writeCalendarFloodFigures } from './calendar-flood'
import { machineLine } from './doc-figures'
import { startServer } from './start-server'
import { scaleOutBench, scaleOutHeader, scaleOutRows, writeScaleOutFigures } from './scale-out'
import { workersBench, workersHeader, workersRows } from './workers'
import { baselineRef, regressionBench, regressionHeader, regressionRows } from './regression'
import { writeDocFigures } from './doc-figures'

ed.hashes.sha512 = sha512
const root = resolve(import.meta.dir, '../..')
const out: string[] = []
const say = (line: string) => {
  console.log(line)
  out.push(line)
}

function perSecond(iterations: number, work: (i: number) => void): number {
  const start = performance.now()
  for (let i = 0; i < iterations; i++) work(i)
  return iterations / ((performance.now() - start) / 1000)
}

// ---- Micro-benchmarks (one core) ----
const seed = new Uint8Array(randomBytes(32))
const key = privateKeyFromSeed(seed)
const message = new TextEncoder().encode('{"expires_at":"2026-03-10T15:01:00.000Z","halt_detection":"active","issued_at":"2026-03-10T15:00:00.000Z","issuer":"bench.local","mic":"XNYS","public_key_id":"key_bench_v1","receipt_id":"00000000-0000-4000-8000-000000000000","receipt_mode":"live","schema_version":"v5.0","source":"SCHEDULE","status":"OPEN"}')
perSecond(2000, () => signBytes(key, message))
const nativeSign = perSecond(40_000, () => signBytes(key, message))
perSecond(100, () => ed.sign(message, seed))
const nobleSign = perSecond(2000, () => ed.sign(message, seed))

const calendars = new CalendarRegistry(resolve(root, 'schedules'), memoryLogger('error'), systemClock)
const loadStart = performance.now()
calendars.reload('bench')
const loadMs = performance.now() - loadStart
const xnys = calendars.calendar('XNYS')!
const from = Date.parse('2025-01-01T00:00:00Z')
const span = Date.parse('2027-12-31T00:00:00Z') - from
const instants = Float64Array.from({ length: 1 << 16 }, () => from + Math.random() * span)
let sink = 0
perSecond(200_000, (i) => (sink += statusAt(xnys, instants[i & 0xffff]!).status.length))
const lookups = perSecond(2_000_000, (i) => (sink += statusAt(xnys, instants[i & 0xffff]!).status.length))
const all = SUPPORTED_MICS.map((mic) => calendars.calendar(mic)).filter((c) => c !== null)
const sweepsPerSecond = perSecond(50_000, (i) => {
  const instant = instants[i & 0xffff]!
  for (const calendar of all) sink += statusAt(calendar, instant).status.length
})

// ---- HTTP ----
const baselineServer = await startServer('baseline.ts')
const baselineA = await measure(`http://127.0.0.1:${baselineServer.fields[0]}/`)
await baselineServer.stop()

const bare = await startServer('bare-sign.ts')
const bareSign = await measure(`http://127.0.0.1:${bare.fields[0]}/sign`, { pid: bare.pid })
await bare.stop()

const appServer = await startServer('app.ts')
const [port, apiKey, pageKid, bodiesFile, mcpBodyFile, freeKey] = appServer.fields as [string, string, string, string, string, string]
const base = `http://127.0.0.1:${port}`
const health = await measure(`${base}/v5/health`)
const status = await measure(`${base}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': apiKey }, pid: appServer.pid })
// Metering: the free key here against the same app with metering switched off (every key admitted
// uncounted), alternated A-B-A-B while the idle one waits, so that the noise of this shared
// machine falls on both alike.
const unmeteredServer = await startServer('app.ts', { BENCH_METER: 'off', WITNESS_BODIES: '10' })
const unmeteredUrl = `http://127.0.0.1:${unmeteredServer.fields[0]}/v5/status?mic=XNYS`
const freeRuns: Load[] = []
const unmeteredRuns: Load[] = []
for (let round = 0; round < 2; round++) {
  freeRuns.push(await measure(`${base}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': freeKey } }))
  unmeteredRuns.push(await measure(unmeteredUrl, { headers: { 'X-Oracle-Key': unmeteredServer.fields[5]! } }))
}
await unmeteredServer.stop()
const statusFree = meanLoad(freeRuns)
const statusUnmetered = meanLoad(unmeteredRuns)
const demo = await measure(`${base}/v5/demo?mic=XNYS`)
const mcpStatus = await measure(`${base}/mcp`, { bodiesFile: mcpBodyFile })
const witnessPage = await measure(`${base}/v1/witness/checkpoints?kid=${pageKid}&session_id=bench-page`)
// New checkpoints only: no warm-up run (it would spend bodies), each body posted once.
const witnessPost = await load(`${base}/v1/witness/checkpoints`, { bodiesFile })
await appServer.stop()

// The same app with the audit log as it was before the durable log (answer first, commit later).
const writeBehindServer = await startServer('app.ts', { BENCH_AUDIT: 'write-behind', WITNESS_BODIES: '10' })
const statusWriteBehind = await measure(`http://127.0.0.1:${writeBehindServer.fields[0]}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': writeBehindServer.fields[1]! } })
await writeBehindServer.stop()

// The transparency log's integrator (background, off committed rows) on and off, alternated.
const logOnServer = await startServer('app.ts', { WITNESS_BODIES: '10' })
const logOffServer = await startServer('app.ts', { BENCH_LOG: 'off', WITNESS_BODIES: '10' })
const logOnRuns: Load[] = []
const logOffRuns: Load[] = []
for (let round = 0; round < 2; round++) {
  logOnRuns.push(await measure(`http://127.0.0.1:${logOnServer.fields[0]}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': logOnServer.fields[1]! }, pid: logOnServer.pid }))
  logOffRuns.push(await measure(`http://127.0.0.1:${logOffServer.fields[0]}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': logOffServer.fields[1]! }, pid: logOffServer.pid }))
}
await logOnServer.stop()
await logOffServer.stop()
const statusLogOn = meanLoad(logOnRuns)
const statusLogOff = meanLoad(logOffRuns)
// The integrator runs on the event loop (hashing, gzip, SQLite): its share shows in CPU per request.
const logOnCpu = statusLogOn.loopCpuUs ?? null
const logOffCpu = statusLogOff.loopCpuUs ?? null

// DURABILITY=power (synchronous=FULL) against the default, the same app twice, alternated A-B-A-B.
const durabilityServers = { process: await startServer('app.ts', { WITNESS_BODIES: '10' }), power: await startServer('app.ts', { WITNESS_BODIES: '10', DURABILITY: 'power' }) }
const durabilityRuns: Record<'process' | 'power', Load[]> = { process: [], power: [] }
for (let round = 0; round < 2; round++) {
  for (const mode of ['process', 'power'] as const) {
    const server = durabilityServers[mode]
    durabilityRuns[mode].push(await measure(`http://127.0.0.1:${server.fields[0]}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': server.fields[1]! } }))
  }
}
await durabilityServers.process.stop()
await durabilityServers.power.stop()
const statusProcess = meanLoad(durabilityRuns.process)
const statusPower = meanLoad(durabilityRuns.power)

const baselineServer2 = await startServer('baseline.ts')
const baselineB = await measure(`http://127.0.0.1:${baselineServer2.fields[0]}/`)
await baselineServer2.stop()
const baseline = (baselineA.rps + baselineB.rps) / 2
// After the HTTP runs: a million rows and their disk writes would disturb the measurements.
const audit = await auditBench()
const metering = await meteringBench()
const delivery = await deliveryBench()
const durability = durabilityBench()
const flood = await floodBench(startServer)

// ---- Report ----
const cpu = cpus()[0]?.model ?? 'unknown CPU'
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
const ratio = (a: number, b: number) => (a / b).toFixed(3)
const p99 = (l: Load) => (l.p99Ms === null ? 'n/a' : `${l.p99Ms.toFixed(2)} ms`)
say(`Machine: ${cpu}, ${cpus().length} cores, ${fmt(totalmem() / 2 ** 30, 1)} GiB RAM; Bun ${Bun.version}; load generator: ${generatorName()}; run ${new Date().toISOString()}`)
say('')
say('| measure | figure | target | met |')
say('|---|---|---|---|')
say(`| Ed25519 sign, native (node:crypto KeyObject) | ${fmt(nativeSign)} /s | | |`)
say(`| Ed25519 sign, @noble/ed25519 | ${fmt(nobleSign)} /s | | |`)
say(`| native / noble | ${ratio(nativeSign, nobleSign)} | | |`)
say(`| load and compile all ${all.length} calendars | ${fmt(loadMs, 1)} ms | | |`)
say(`| statusAt lookups (XNYS, random instants 2025-2027) | ${fmt(lookups)} /s | >= 1,000,000 /s | ${lookups >= 1e6 ? 'yes' : 'NO'} |`)
say(`| ${all.length}-MIC sweep | ${fmt(1e6 / sweepsPerSecond, 2)} µs | < 50 µs | ${1e6 / sweepsPerSecond < 50 ? 'yes' : 'NO'} |`)
say(`| baseline constant JSON (mean of before/after) | ${fmt(baseline)} req/s (${fmt(baselineA.rps)} / ${fmt(baselineB.rps)}) | | |`)
say(`| bare signing route | ${fmt(bareSign.rps)} req/s, p99 ${p99(bareSign)} | | |`)
say(`| GET /v5/health | ${fmt(health.rps)} req/s = ${ratio(health.rps, baseline)} of baseline, p99 ${p99(health)} | >= 0.5 of baseline | ${health.rps / baseline >= 0.5 ? 'yes' : 'NO'} |`)
say(`| GET /v5/status (key) | ${fmt(status.rps)} req/s = ${ratio(status.rps, bareSign.rps)} of bare signing, ${ratio(status.rps, baseline)} of baseline, p99 ${p99(status)} | >= 0.85 of bare signing; p99 < 25 ms at ${CONNECTIONS} connections | ${status.rps / bareSign.rps >= 0.85 && (status.p99Ms ?? 0) < 25 ? 'yes' : 'NO'} |`)
if (bareSign.loopCpuUs && status.loopCpuUs) say(`| event-loop CPU per request: bare signing route / GET /v5/status (key) | ${fmt(bareSign.loopCpuUs, 1)} µs / ${fmt(status.loopCpuUs, 1)} µs = ${ratio(bareSign.loopCpuUs, status.loopCpuUs)} | | |`)
say(`| GET /v5/status (free key, metered; mean of 2 runs) | ${fmt(statusFree.rps)} req/s = ${ratio(statusFree.rps, bareSign.rps)} of bare signing, p99 ${p99(statusFree)} | >= 0.90 × the unmetered ratio | ${statusFree.rps / statusUnmetered.rps >= 0.9 ? 'yes' : 'NO'} |`)
say(`| GET /v5/status (free key), metering switched off (mean of 2 runs, alternated with the row above) | ${fmt(statusUnmetered.rps)} req/s = ${ratio(statusUnmetered.rps, bareSign.rps)} of bare signing, p99 ${p99(statusUnmetered)} | | |`)
say(`| GET /v5/status metered / unmetered | ${ratio(statusFree.rps, statusUnmetered.rps)} | >= 0.90 | ${statusFree.rps / statusUnmetered.rps >= 0.9 ? 'yes' : 'NO'} |`)
say(`| metering: in-memory check-and-count (the hot path) / one atomic SQL upsert per request (WAL file) | ${fmt(metering.memoryPerSecond)} /s / ${fmt(metering.sqlPerSecond)} /s | | |`)
say(`| GET /v5/demo | ${fmt(demo.rps)} req/s = ${ratio(demo.rps, bareSign.rps)} of bare signing, ${ratio(demo.rps, baseline)} of baseline, p99 ${p99(demo)} | | |`)
say(`| POST /mcp tools/call get_market_status (anonymous) | ${fmt(mcpStatus.rps)} req/s = ${ratio(mcpStatus.rps, status.rps)} of /v5/status, p99 ${p99(mcpStatus)} | >= 0.8 of /v5/status | ${mcpStatus.rps / status.rps >= 0.8 ? 'yes' : 'NO'} |`)
say(`| POST /v1/witness/checkpoints (new) | ${fmt(witnessPost.rps)} req/s = ${ratio(witnessPost.rps, baseline)} of baseline, p99 ${p99(witnessPost)}${witnessPost.non2xx ? `, ${witnessPost.non2xx} non-2xx` : ''} | >= 0.04 of baseline | ${witnessPost.rps / baseline >= 0.04 ? 'yes' : 'NO'} |`)
say(`| GET witness page of 500 receipts | ${fmt(witnessPage.rps)} req/s = ${ratio(witnessPage.rps, baseline)} of baseline, p99 ${p99(witnessPage)} | >= 0.015 of baseline | ${witnessPage.rps / baseline >= 0.015 ? 'yes' : 'NO'} |`)
say(`| GET /v5/status, answer before commit (the log as it was before issue 13) | ${fmt(statusWriteBehind.rps)} req/s = ${ratio(statusWriteBehind.rps, bareSign.rps)} of bare signing, p99 ${p99(statusWriteBehind)} | | |`)
say(`| GET /v5/status with the transparency log integrating every second (as served; mean of 2 runs) | ${fmt(statusLogOn.rps)} req/s = ${ratio(statusLogOn.rps, bareSign.rps)} of bare signing, p99 ${p99(statusLogOn)} | | |`)
say(`| GET /v5/status, integrator off (mean of 2 runs, alternated with the row above) | ${fmt(statusLogOff.rps)} req/s = ${ratio(statusLogOff.rps, bareSign.rps)} of bare signing, p99 ${p99(statusLogOff)} | | |`)
say(`| GET /v5/status log integrating / not | ${ratio(statusLogOn.rps, statusLogOff.rps)} | >= 0.95 | ${statusLogOn.rps / statusLogOff.rps >= 0.95 ? 'yes' : 'NO'} |`)
if (logOnCpu && logOffCpu) say(`| event-loop CPU per request of GET /v5/status: log not integrating / integrating | ${fmt(logOffCpu, 1)} µs / ${fmt(logOnCpu, 1)} µs = ${ratio(logOffCpu, logOnCpu)} | | |`)
say(`| GET /v5/status durable / answer-before-commit | ${ratio(status.rps, statusWriteBehind.rps)} | >= 0.90 | ${status.rps / statusWriteBehind.rps >= 0.9 ? 'yes' : 'NO'} |`)
say(`| GET /v5/status, DURABILITY=power / process (synchronous FULL / NORMAL; same app, mean of 2 alternated runs each) | ${fmt(statusPower.rps)} / ${fmt(statusProcess.rps)} req/s = ${ratio(statusPower.rps, statusProcess.rps)}, p99 ${p99(statusPower)} / ${p99(statusProcess)} | | |`)
say(`| SQLite WAL file, DURABILITY=power / process: single-row transactions | ${fmt(durability.singleRow.power)} / ${fmt(durability.singleRow.process)} /s = ${ratio(durability.singleRow.power, durability.singleRow.process)} | | |`)
say(`| SQLite WAL file, DURABILITY=power / process: rows committed 32 at a time | ${fmt(durability.batched.power)} / ${fmt(durability.batched.process)} rows/s = ${ratio(durability.batched.power, durability.batched.process)} | | |`)
say(`| audit: append ${fmt(audit.receipts)} receipts through the log (batches of 1,000) | ${fmt(audit.insertPerSecond)} rows/s | | |`)
say(`| audit: seal a day of ${fmt(audit.receipts)} receipts (root, signature, leaf index) | ${fmt(audit.sealSeconds, 2)} s | < 10 s | ${audit.sealSeconds < 10 ? 'yes' : 'NO'} |`)
say(`| audit: longest pause of the event loop while sealing that day | ${fmt(audit.sealLongestPauseMs, 1)} ms | | |`)
say(`| audit: first proof in that day after a restart (stored block roots, reads one block) | ${fmt(audit.proofMs)} ms | | |`)
say(`| audit: proof of a receipt of that day before it is sealed (cold: builds the day's tree) | ${fmt(audit.unsealedProofMs)} ms | | |`)
say(`| audit: the same with the tree built (id prefixes find the one block to read) / an unknown id (404) | ${fmt(audit.unsealedWarmProofMs)} ms / ${fmt(audit.unknownProofMs)} ms | | |`)
say(`| audit: storage per million receipts (log with bodies / + leaf index after sealing / after pruning bodies) | ${fmt(audit.bytesPerMillionFull / 2 ** 20)} / ${fmt(audit.bytesPerMillionSealed / 2 ** 20)} / ${fmt(audit.bytesPerMillionPruned / 2 ** 20)} MiB | | |`)
for (const row of floodRows(flood)) say(row)
for (const [name, l] of [['health', health], ['status', status], ['status free key', statusFree], ['status unmetered', statusUnmetered], ['demo', demo], ['mcp status', mcpStatus], ['witness page', witnessPage]] as const) if (l.non2xx) say(`\nwarning: ${l.non2xx} non-2xx answers on ${name}`)
if (sink === -1) console.log('unreachable')

const docPath = resolve(root, 'docs/performance.md')
const doc = readFileSync(docPath, 'utf8')
const start = '<!-- bench:start -->'
const end = '<!-- bench:end -->'
if (doc.includes(start) && doc.includes(end)) {
  writeFileSync(docPath, `${doc.slice(0, doc.indexOf(start) + start.length)}\n${out.join('\n')}\n${doc.slice(doc.indexOf(end))}`)
  console.log(`\nwritten to ${docPath}`)
}
const deliveryTable = deliveryRows(delivery)
for (const row of deliveryTable) console.log(row)
writeDeliveryFigures(deliveryTable, `${out[0]} (delivery figures of the same run)`)
// Issue 30: floods of calendar answers and of decoded log bundles against paid /v5/status (its own servers).
const calendarFloodTable = calendarFloodRows(await calendarFloodBench())
for (const row of calendarFloodTable) console.log(row)
writeCalendarFloodFigures(calendarFloodTable, `${machineLine()} (calendar-flood figures of the same \`bun run bench\`)`)
// Last: its own servers and a PostgreSQL cluster, which would disturb the figures above.
const scaleOutTable = scaleOutRows(await scaleOutBench())
for (const row of scaleOutTable) console.log(row)
writeScaleOutFigures(scaleOutTable, scaleOutHeader('(scale-out figures of the same `bun run bench`)'))
// The real service (bun src/main.ts) with WORKERS=2 against one process, alternated (issue 32).
const workers = await workersBench()
console.log(workersHeader(workers))
for (const row of workersRows(workers)) console.log(row)
writeDocFigures('workers', workersHeader(workers), workersRows(workers))
// The regression guard: /v5/status of this checkout against BENCH_BASELINE or the latest release tag, alternated.
const earlierBuild = baselineRef()
if (earlierBuild) {
  const regression = await regressionBench(earlierBuild)
  console.log(regressionHeader(regression))
  for (const row of regressionRows(regression)) console.log(row)
  writeDocFigures('regression', regressionHeader(regression), regressionRows(regression))
} else console.log('regression guard: no release tag to compare with; set BENCH_BASELINE=<commit>')
