// Smoke test of a running binary: /v5/health answers 200 and its signature verifies, with an
// independent Ed25519 implementation, against the key published at /v5/keys.
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'

ed.hashes.sha512 = sha512
const base = process.argv[2]
if (!base) throw new Error('usage: bun .ci/smoke.ts <base-url>')

async function waitForHealth(): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000
  for (;;) {
    try {
      const response = await fetch(`${base}/v5/health`)
      if (response.status === 200) return (await response.json()) as Record<string, unknown>
      throw new Error(`health answered ${response.status}`)
    } catch (error) {
      if (Date.now() > deadline) throw error
      await Bun.sleep(200)
    }
  }
}

const health = await waitForHealth()
const registry = (await (await fetch(`${base}/v5/keys`)).json()) as {
  keys: { key_id: string; public_key: string }[]
  canonical_payload_spec: { health_fields: string[] }
}
const key = registry.keys.find((entry) => entry.key_id === health.public_key_id)
if (!key) throw new Error('health receipt names a key the registry does not list')
const payload = JSON.stringify(Object.fromEntries(registry.canonical_payload_spec.health_fields.map((name) => [name, health[name]])))
const ok = ed.verify(Buffer.from(String(health.signature), 'hex'), new TextEncoder().encode(payload), Buffer.from(key.public_key, 'hex'), { zip215: false })
if (!ok) throw new Error('health signature does not verify')
// The binary ran from another directory: its calendars must come from schedules/ beside it.
const schedule = (await (await fetch(`${base}/v5/schedule?mic=XNYS`)).json()) as { data_version: string | null }
if (!schedule.data_version) throw new Error('no calendar loaded: schedules/ next to the binary was not found')
const demo = (await (await fetch(`${base}/v5/demo?mic=XLON`)).json()) as Record<string, unknown>
const receiptFields = registry.canonical_payload_spec as unknown as Record<string, string[]>
const demoPayload = JSON.stringify(Object.fromEntries(receiptFields[demo.reason ? 'override_fields' : 'receipt_fields']!.map((name) => [name, demo[name]])))
if (!ed.verify(Buffer.from(String(demo.signature), 'hex'), new TextEncoder().encode(demoPayload), Buffer.from(key.public_key, 'hex'), { zip215: false })) throw new Error('demo receipt does not verify')
console.log(`health ${health.status} and a demo receipt verified with key ${key.key_id}; XNYS calendar ${schedule.data_version}`)
// The board pages come from the binary itself: each page for a browser, every asset it names,
// and the JSON index still for curl's Accept.
const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
for (const path of ['/', '/venue/XNYS', '/verify', '/witness']) {
  const response = await fetch(`${base}${path}`, { headers: { accept: browserAccept } })
  const html = await response.text()
  if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html')) throw new Error(`${path} answered ${response.status} ${response.headers.get('content-type')}`)
  for (const [, asset] of html.matchAll(/(?:src|href)="(\/(?:assets\/[^"]+|favicon\.svg))"/g)) {
    const answer = await fetch(`${base}${asset}`)
    if (answer.status !== 200 || (await answer.text()).length < 100) throw new Error(`${path}: asset ${asset} answered ${answer.status}`)
  }
}
const index = (await (await fetch(`${base}/`, { headers: { accept: '*/*' } })).json()) as { service?: string }
if (index.service !== 'openbell') throw new Error('GET / with Accept */* no longer answers the JSON index')
const board = (await (await fetch(`${base}/v5/board`)).json()) as { venues: unknown[] }
console.log(`board pages and their assets served by the binary; /v5/board lists ${board.venues.length} venues`)
