// The /mcp flood of issue 24 item 1, for `bun run bench`: 40 connections each send large batches
// (pipelined, three per connection) and never read an answer. Reported: the server's resident
// memory before and at its peak while they hold on, what the kernel holds in the server's send
// queues, and how many of the connections the server closed. Each case runs against a fresh app.
import { readFileSync } from 'node:fs'
import { loadConfig } from '../../src/config'
import { MCP_MAX_BATCH } from '../../src/mcp/limits'
import { startServer } from './start-server'

export const FLOOD_CONNECTIONS = 40
const REQUESTS_PER_CONNECTION = 3
const HOLD_MS = Number(process.env.BENCH_FLOOD_HOLD_MS ?? 13_000)

type StartServer = (script: string, env?: Record<string, string>) => Promise<{ fields: string[]; pid: number; stop: () => Promise<void> }>

export interface FloodCase {
  name: string
  bodyBytes: number
  messages: number
  rssBeforeMiB: number
  rssPeakMiB: number
  kernelQueuedPeakMiB: number
  /** Server-side connections no longer established at the end of the hold. */
  closedByServer: number
}

const toolsList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' })

/** As many tools/list calls as fit in the 256 KiB body limit (the report had 5,577). */
function reportedBatch(): string {
  const one = JSON.stringify(toolsList(1))
  const count = Math.floor((256 * 1024 - 2) / (one.length + 1))
  return `[${Array(count).fill(one).join(',')}]`
}

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024

/**
 * The server's sockets on `port` from /proc/net/tcp: bytes in their kernel send queues, and how
 * many are still established (the others were closed by the server; a client that does not read
 * never sees the close itself).
 */
function serverSockets(port: number): { queuedMiB: number; established: number } {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  let bytes = 0
  let established = 0
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // Local address is field 1; state field 3 (01 = ESTABLISHED, 0A = LISTEN); tx_queue:rx_queue field 4.
      if (!fields[1]?.endsWith(`:${hexPort}`) || fields[3] === '0A') continue
      bytes += parseInt(fields[4]!.split(':')[0]!, 16)
      if (fields[3] === '01') established++
    }
  }
  return { queuedMiB: bytes / 2 ** 20, established }
}

async function floodCase(start: StartServer, name: string, body: string, env: Record<string, string>): Promise<FloodCase> {
  const server = await start('app.ts', { WITNESS_BODIES: '10', ...env })
  const port = Number(server.fields[0])
  try {
    const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    // Warm-up: one answered request, so that the baseline includes what any first request loads.
    await (await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify(toolsList(0)) })).text()
    Bun.gc(true)
    await Bun.sleep(500)
    const rssBefore = rssMiB(server.pid)
    const establishedBefore = serverSockets(port).established
    const sockets = await Promise.all(Array.from({ length: FLOOD_CONNECTIONS }, () => Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {}, drain() {} } })))
    for (const socket of sockets) {
      // Never read: the answers stay in the kernel buffers and, past them, in the server.
      socket.pause()
      for (let i = 0; i < REQUESTS_PER_CONNECTION; i++) socket.write(request)
    }
    let rssPeak = rssBefore
    let queuedPeak = 0
    const until = performance.now() + HOLD_MS
    while (performance.now() < until) {
      rssPeak = Math.max(rssPeak, rssMiB(server.pid))
      queuedPeak = Math.max(queuedPeak, serverSockets(port).queuedMiB)
      await Bun.sleep(100)
    }
    const closedByServer = FLOOD_CONNECTIONS + establishedBefore - serverSockets(port).established
    for (const socket of sockets) socket.terminate()
    const messages = (JSON.parse(body) as unknown[]).length
    return { name, bodyBytes: Buffer.byteLength(body), messages, rssBeforeMiB: rssBefore, rssPeakMiB: rssPeak, kernelQueuedPeakMiB: queuedPeak, closedByServer }
  } finally {
    await server.stop()
  }
}

export async function floodBench(start: StartServer): Promise<FloodCase[]> {
  const defaultRate = String(loadConfig({}).mcp.anonymousRatePerMinute)
  const atCap = JSON.stringify(Array.from({ length: MCP_MAX_BATCH }, (_, i) => toolsList(i)))
  return [
    // The report, as a client meets the service: one address, the default anonymous rate.
    await floodCase(start, 'the reported 256 KiB batch, default anonymous rate', reportedBatch(), { MCP_ANON_RATE_PER_MINUTE: defaultRate }),
    // The most a set of addresses can make it hold: the rate lifted, every batch at the cap answered.
    await floodCase(start, `batches at the cap (${MCP_MAX_BATCH} tools/list), rate lifted (as from 40 addresses)`, atCap, {}),
  ]
}

export function floodRows(cases: FloodCase[]): string[] {
  const fmt = (n: number) => n.toFixed(1)
  return cases.map(
    (c) =>
      `| /mcp flood: ${FLOOD_CONNECTIONS} connections × ${REQUESTS_PER_CONNECTION} pipelined requests, never reading, held ${HOLD_MS / 1000} s — ${c.name} (${(c.bodyBytes / 1024).toFixed(0)} KiB, ${c.messages} messages) | RSS ${fmt(c.rssBeforeMiB)} → peak ${fmt(c.rssPeakMiB)} MiB (growth ${fmt(c.rssPeakMiB - c.rssBeforeMiB)} MiB); kernel send queues at most ${fmt(c.kernelQueuedPeakMiB)} MiB; ${c.closedByServer}/${FLOOD_CONNECTIONS} connections closed by the server | growth < 100 MB | ${(c.rssPeakMiB - c.rssBeforeMiB) * 2 ** 20 < 100e6 ? 'yes' : 'NO'} |`,
  )
}

if (import.meta.main) for (const row of floodRows(await floodBench(startServer))) console.log(row)
