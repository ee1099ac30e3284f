// Many real EventSource clients in one process, for the 1,000-stream test and the benchmark.
// Bun's fetch allows 256 concurrent requests unless BUN_CONFIG_MAX_HTTP_REQUESTS is raised at
// start, so the caller spawns this with it set.
// Usage: bun stream-clients.ts <base> <mic> <count> <ticks> <key>[,<key>…]
// Prints one JSON line: {connected, ticks: [{id, received, spread_ms}]} where each tick after the
// first full one counts the clients that got that receipt id.
import { EventSource } from 'eventsource'

const [base, mic, countText, ticksText, keyList] = process.argv.slice(2)
const count = Number(countText)
const ticks = Number(ticksText)
const keys = keyList!.split(',')
const seen = new Map<string, { received: number; first: number; last: number }>()
const order: string[] = []
let connected = 0
const sources: EventSource[] = []

await new Promise<void>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`timed out: ${connected}/${count} connected, ${order.length} ids`)), 45_000)
  const done = () => {
    // Done when `ticks` receipts signed after every client connected reached every client.
    const complete = order.filter((id) => seen.get(id)!.received === count)
    if (connected === count && complete.length >= ticks) {
      clearTimeout(timer)
      resolve()
    }
  }
  for (let i = 0; i < count; i++) {
    const source = new EventSource(`${base}/v5/stream?mic=${mic}&key=${keys[i % keys.length]}`)
    let first = true
    source.addEventListener('market_status', (event) => {
      if (first) {
        first = false
        connected++
      }
      const now = performance.now()
      let entry = seen.get(event.lastEventId)
      if (!entry) {
        entry = { received: 0, first: now, last: now }
        seen.set(event.lastEventId, entry)
        order.push(event.lastEventId)
      }
      entry.received++
      entry.last = now
      done()
    })
    source.onerror = () => {}
    sources.push(source)
  }
})
for (const source of sources) source.close()
const complete = order.filter((id) => seen.get(id)!.received === count)
console.log(JSON.stringify({ connected, ids: order.length, ticks: complete.map((id) => ({ id, received: seen.get(id)!.received, spread_ms: Math.round((seen.get(id)!.last - seen.get(id)!.first) * 100) / 100 })) }))
process.exit(0)
