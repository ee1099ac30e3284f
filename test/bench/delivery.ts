// Delivery benchmarks for `bun run bench` (or alone: `bun test/bench/delivery.ts`):
// - 1,000 concurrent /v5/stream clients on one MIC (real EventSource clients in a child process):
//   signatures per tick (must be 1) and the time to queue one tick's frame on all streams;
// - one state change fanned out to 1,000 webhook subscriptions against a local HTTPS receiver
//   (same process, loopback, test-made certificate): queueing time and deliveries per second.
import { resolve } from 'node:path'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { randomUUID } from 'node:crypto'
import { makeTestApp, removeTempDirs } from '../helpers/app'
import { issueKey } from '../../src/accounts/keys'
import { makeCertificate, startReceiver } from '../helpers/https-receiver'
import { newWebhookSecret } from '../../src/delivery/webhooks/signing'
import type { WebhookRow } from '../../src/delivery/webhooks/store'

export interface DeliveryBenchFigures {
  streams: number
  ticks: number
  signaturesPerTick: number
  fanOutMs: number
  clientSpreadMs: number
  subscriptions: number
  enqueueMs: number
  deliverySeconds: number
  deliveriesPerSecond: number
  concurrency: number
}

export async function deliveryBench(streams = 1000, subscriptions = 1000): Promise<DeliveryBenchFigures> {
  const t = makeTestApp({ now: '2026-03-02T15:00:00.000Z', env: { STREAM_INTERVAL_SECONDS: '1', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } })
  const server = t.app.listen({ port: 0, hostname: '127.0.0.1' })
  const certificate = makeCertificate()
  const receiver = startReceiver(certificate)
  try {
    // ---- streams ----
    const keys: string[] = []
    for (let i = 0; i < Math.ceil(streams / 250); i++) keys.push((await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).key)
    // Every signature the process makes is counted at the signer (signText: signFields and the
    // receipt builder both sign through it); a tick is one broadcast.
    let signatures = 0
    const signText = t.deps.signer.signText.bind(t.deps.signer)
    t.deps.signer.signText = ((text: string) => {
      signatures++
      return signText(text)
    }) as typeof t.deps.signer.signText
    const fanOuts: number[] = []
    let start = null as { signatures: number; ticks: number } | null
    let end = { signatures: 0, ticks: 0 }
    const watcher = setInterval(() => {
      const coordinator = t.deps.delivery.streams.coordinator('XNYS')
      if (!coordinator || coordinator.clients.size !== streams) return
      start ??= { signatures, ticks: coordinator.signatures }
      if (coordinator.lastFanOutMs && fanOuts.at(-1) !== coordinator.lastFanOutMs) fanOuts.push(coordinator.lastFanOutMs)
      end = { signatures, ticks: coordinator.signatures }
    }, 5)
    const child = Bun.spawn(['bun', resolve(import.meta.dir, '../helpers/stream-clients.ts'), `http://127.0.0.1:${server.server!.port}`, 'XNYS', String(streams), '5', keys.join(',')], {
      env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(streams + 200) },
      stdout: 'pipe',
      stderr: 'inherit',
    })
    const report = JSON.parse(await new Response(child.stdout).text()) as { connected: number; ticks: { id: string; received: number; spread_ms: number }[] }
    clearInterval(watcher)
    const fullTicks = report.ticks.filter((tick) => tick.received === streams)
    // While all clients were connected: signatures made per tick broadcast.
    const signaturesPerTick = start && end.ticks > start.ticks ? (end.signatures - start.signatures) / (end.ticks - start.ticks) : NaN
    const fullFanOuts = fanOuts.slice(-fullTicks.length)
    const fanOutMs = fullFanOuts.reduce((sum, ms) => sum + ms, 0) / Math.max(1, fullFanOuts.length)
    const clientSpreadMs = fullTicks.reduce((sum, tick) => sum + tick.spread_ms, 0) / Math.max(1, fullTicks.length)
    t.deps.delivery.streams.closeAll()

    // ---- webhooks ----
    t.deps.delivery.sender.ca = certificate.cert
    const owner = await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })
    for (let i = 0; i < subscriptions; i++) {
      const row: WebhookRow = { id: randomUUID(), key_hash: owner.account.key_hash, url: receiver.url(`/hook/${i}`), mics: ['XLON'], events: ['status_change'], secret: newWebhookSecret(), status: 'active', paused_reason: null, created_at: new Date(t.clock.now()).toISOString() }
      await t.deps.transactor.run(() => t.deps.delivery.webhooks.create(row, subscriptions + 1))
    }
    await t.deps.delivery.dispatcher.cycle() // baseline
    await t.deps.overrides.set({ mic: 'XLON', status: 'HALTED', reason: 'bench', expires_at: new Date(t.clock.now() + 3_600_000).toISOString() }, 'bench')
    const enqueueStart = performance.now()
    await t.deps.delivery.dispatcher.cycle()
    const enqueueMs = performance.now() - enqueueStart
    const deliverStart = performance.now()
    await t.deps.delivery.dispatcher.worker.drain()
    const deliverySeconds = (performance.now() - deliverStart) / 1000
    const delivered = (t.db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE state = 'delivered'`).get() as { n: number }).n
    if (delivered !== subscriptions || receiver.received.length !== subscriptions) throw new Error(`delivered ${delivered}, received ${receiver.received.length} of ${subscriptions}`)
    return { streams: report.connected, ticks: fullTicks.length, signaturesPerTick, fanOutMs, clientSpreadMs, subscriptions, enqueueMs, deliverySeconds, deliveriesPerSecond: subscriptions / deliverySeconds, concurrency: 16 }
  } finally {
    receiver.stop()
    certificate.dispose()
    void server.stop(true)
    removeTempDirs()
  }
}

/** The table rows of the delivery figures. */
export function deliveryRows(f: DeliveryBenchFigures): string[] {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  return [
    '| measure | figure | target | met |',
    '|---|---|---|---|',
    `| /v5/stream: signatures per tick with ${fmt(f.streams)} streams on one MIC (over ${f.ticks} ticks) | ${fmt(f.signaturesPerTick, 2)} | 1 | ${f.signaturesPerTick === 1 ? 'yes' : 'NO'} |`,
    `| /v5/stream: queue one tick's frame on ${fmt(f.streams)} streams (server side) | ${fmt(f.fanOutMs, 2)} ms | | |`,
    `| /v5/stream: first to last of ${fmt(f.streams)} EventSource clients receiving a tick (clients in one process) | ${fmt(f.clientSpreadMs, 1)} ms | | |`,
    `| webhooks: queue one state change for ${fmt(f.subscriptions)} subscriptions (sign, log, one transaction) | ${fmt(f.enqueueMs, 1)} ms | | |`,
    `| webhooks: deliver it to a local HTTPS receiver (concurrency ${f.concurrency}, receiver in the same process) | ${fmt(f.deliveriesPerSecond)} deliveries/s (${fmt(f.deliverySeconds, 2)} s for ${fmt(f.subscriptions)}) | | |`,
  ]
}

/** Writes the rows between the delivery markers of docs/performance.md. */
export function writeDeliveryFigures(rows: string[], header: string): void {
  const path = resolve(import.meta.dir, '../../docs/performance.md')
  const doc = readFileSync(path, 'utf8')
  const start = '<!-- bench-delivery:start -->'
  const end = '<!-- bench-delivery:end -->'
  if (!doc.includes(start) || !doc.includes(end)) return
  writeFileSync(path, `${doc.slice(0, doc.indexOf(start) + start.length)}\n${header}\n\n${rows.join('\n')}\n${doc.slice(doc.indexOf(end))}`)
}

if (import.meta.main) {
  const rows = deliveryRows(await deliveryBench())
  for (const row of rows) console.log(row)
  writeDeliveryFigures(rows, `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores; Bun ${Bun.version}; run ${new Date().toISOString()} (\`bun test/bench/delivery.ts\`, also part of \`bun run bench\`)`)
  process.exit(0)
}
