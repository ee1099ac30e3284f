// Baseline: Bun.serve answering one constant JSON document. Every HTTP figure is a ratio to this.
const body = JSON.stringify({ status: 'OK', source: 'SYSTEM', note: 'constant baseline' })
const server = Bun.serve({ port: Number(process.argv[2] ?? 0), hostname: '127.0.0.1', fetch: () => new Response(body, { headers: { 'content-type': 'application/json' } }) })
console.log(`READY ${server.port}`)
