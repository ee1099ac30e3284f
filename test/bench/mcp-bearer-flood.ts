// Issue 30 (`bun test/bench/mcp-bearer-flood.ts`): what one bearer token can make the tool
// endpoint hold. BENCH_FLOOD_CONNECTIONS (default 150) connections of one free key's token each
// send a 100-element batch of get_market_calendar calls (BENCH_FLOOD_RANGE: `default` = 30 days,
// `year` = 2026) and do not read for 10 s; the bench app's resident memory (VmRSS, VmHWM from
// /proc) is read before and every 250 ms, then the answers' status lines are counted.
import { readFileSync } from 'node:fs'
import { startServer } from './start-server'

const CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 150)
const RANGE = process.env.BENCH_FLOOD_RANGE === 'year' ? { from: '2026-01-01', to: '2026-12-31' } : {}
const kib = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])

const server = await startServer('app.ts', { WITNESS_BODIES: '10' })
const [port, , , , , freeKey] = server.fields
try {
  const tokenAnswer = await fetch(`http://127.0.0.1:${port}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${freeKey}` })
  const token = ((await tokenAnswer.json()) as { access_token: string }).access_token
  const body = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'get_market_calendar', arguments: { mic: 'XLON', ...RANGE } } })))
  const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  await Bun.sleep(1000)
  const beforeKiB = kib(server.pid, 'VmRSS')
  const statuses = new Map<string, number>()
  const sockets = await Promise.all(
    Array.from({ length: CONNECTIONS }, () => {
      let first = true
      return Bun.connect({
        hostname: '127.0.0.1',
        port: Number(port),
        socket: {
          data(_socket, data) {
            if (!first) return
            first = false
            const status = data.toString('latin1').slice(9, 12)
            statuses.set(status, (statuses.get(status) ?? 0) + 1)
          },
        },
      })
    }),
  )
  for (const socket of sockets) {
    socket.pause()
    socket.write(request)
  }
  let peakKiB = beforeKiB
  for (let i = 0; i < 40; i++) {
    await Bun.sleep(250)
    peakKiB = Math.max(peakKiB, kib(server.pid, 'VmRSS'))
  }
  for (const socket of sockets) socket.resume()
  await Bun.sleep(2000)
  for (const socket of sockets) socket.terminate()
  console.log(JSON.stringify({ connections: CONNECTIONS, range: process.env.BENCH_FLOOD_RANGE ?? 'default', rss_before_mib: Math.round(beforeKiB / 1024), rss_peak_mib: Math.round(peakKiB / 1024), growth_mib: Math.round((peakKiB - beforeKiB) / 1024), statuses: Object.fromEntries(statuses) }))
} finally {
  await server.stop()
}
