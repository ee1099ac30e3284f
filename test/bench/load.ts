export {}
// Fallback load generator when wrk is not installed: `connections` concurrent fetch loops for a
// fixed time, in its own process. Prints JSON {requests, seconds, rps, p99_ms, errors}.
const [url, connectionsText, secondsText, headerJson, bodiesFile] = process.argv.slice(2)
const connections = Number(connectionsText ?? 64)
const seconds = Number(secondsText ?? 5)
const headers = JSON.parse(headerJson ?? '{}') as Record<string, string>
const bodies = bodiesFile ? (await Bun.file(bodiesFile).text()).trim().split('\n') : null
let next = 0
const latencies: number[] = []
let errors = 0
const deadline = performance.now() + seconds * 1000
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (performance.now() < deadline) {
      const start = performance.now()
      try {
        const body = bodies ? bodies[next++ % bodies.length] : undefined
        const response = await fetch(url!, body ? { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body } : { headers })
        await response.arrayBuffer()
        if (response.status >= 400) errors++
      } catch {
        errors++
      }
      latencies.push(performance.now() - start)
    }
  }),
)
latencies.sort((a, b) => a - b)
console.log(JSON.stringify({ requests: latencies.length, seconds, rps: latencies.length / seconds, p99_ms: latencies[Math.floor(latencies.length * 0.99)] ?? null, errors }))
