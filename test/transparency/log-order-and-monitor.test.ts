// Two promises of the log's names, over the app on loopback: a receipt answered before another
// was requested has the lower index (checked over every such pair of a concurrent run), and
// `openbell log verify` keeps its state under $XDG_STATE_HOME/openbell/, else
// ~/.local/state/openbell/, unless --state names a file.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { issueKey } from '../../src/accounts/keys'
import { defaultStatePath, runLogCommand } from '../../src/cli/log'
import { decodeBundle } from '../../src/transparency/tiles'
import { makeTestApp, tempDir, type TestApp } from '../helpers/app'

let harness: TestApp
let key: string
let base: string

beforeAll(async () => {
  harness = makeTestApp()
  key = (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })).key
  const server = harness.app.listen({ port: 0, hostname: '127.0.0.1' }).server!
  base = `http://127.0.0.1:${server.port}`
})
afterAll(async () => {
  await harness.app.stop(true)
})

/** The receipt ids of the log in leaf order, read from its entry bundles as a client would. */
async function leafOrder(size: number): Promise<string[]> {
  const ids: string[] = []
  for (let bundle = 0; bundle * 256 < size; bundle++) {
    const width = Math.min(256, size - bundle * 256)
    const path = `/log/tile/entries/${String(bundle).padStart(3, '0')}${width < 256 ? `.p/${width}` : ''}`
    const response = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'gzip' } })
    expect(response.status).toBe(200)
    // fetch undoes Content-Encoding itself; a stored partial bundle is not compressed.
    let bytes = new Uint8Array(await response.arrayBuffer())
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = new Uint8Array(gunzipSync(bytes))
    for (const entry of decodeBundle(bytes)!) ids.push(JSON.parse(Buffer.from(entry).toString()).receipt_id)
  }
  return ids
}

describe('receipt order', () => {
  test('over 240 receipts from 12 concurrent clients: every receipt answered before another was requested has the lower index', async () => {
    // One event counter orders "answered" and "requested" moments across the clients.
    let events = 0
    const seen: { id: string; requested: number; answered: number }[] = []
    const client = async (worker: number) => {
      for (let i = 0; i < 20; i++) {
        const requested = events++
        const response = await fetch(`${base}/v5/status?mic=${(worker + i) % 3 === 0 ? 'XLON' : 'XNYS'}`, { headers: { 'x-oracle-key': key } })
        expect(response.status).toBe(200)
        const { receipt_id } = (await response.json()) as { receipt_id: string }
        seen.push({ id: receipt_id, requested, answered: events++ })
        // Uneven pauses, so that clients overlap in many ways.
        if ((worker * 7 + i) % 5 === 0) await Bun.sleep(worker % 4)
      }
    }
    await Promise.all(Array.from({ length: 12 }, (_, worker) => client(worker)))
    await harness.deps.audit.flush()
    await harness.deps.transparency.integrator.tick()
    const order = await leafOrder(seen.length)
    expect(order.length).toBe(240)
    const index = new Map(order.map((id, position) => [id, position]))
    expect(seen.every((receipt) => index.has(receipt.id))).toBe(true)
    let pairs = 0
    const wrong: string[] = []
    for (const earlier of seen) {
      for (const later of seen) {
        if (earlier.answered >= later.requested) continue
        pairs++
        if (index.get(earlier.id)! >= index.get(later.id)!) wrong.push(`${earlier.id} (leaf ${index.get(earlier.id)}) answered before ${later.id} (leaf ${index.get(later.id)}) was requested`)
      }
    }
    expect(wrong).toEqual([])
    // The run had both kinds: ordered pairs to check, and overlapping requests.
    expect(pairs).toBeGreaterThan(10_000)
    expect(pairs).toBeLessThan((240 * 239) / 2)
  })
})

describe('openbell log verify: where it keeps its state', () => {
  const quiet = () => {
    const out: string[] = []
    const err: string[] = []
    return { out, err, say: (line: string) => out.push(line), complain: (line: string) => err.push(line) }
  }
  const stateName = () => `log-127.0.0.1_${new URL(base).port}.json`

  test('default paths: $XDG_STATE_HOME/openbell/, else $HOME/.local/state/openbell/, one file per host', () => {
    expect(defaultStatePath('https://oracle.example:8443/', { XDG_STATE_HOME: '/x/state' })).toBe('/x/state/openbell/log-oracle.example_8443.json')
    expect(defaultStatePath('https://oracle.example', { HOME: '/home/someone' })).toBe('/home/someone/.local/state/openbell/log-oracle.example.json')
    expect(defaultStatePath('https://oracle.example', {})).toBe(join(homedir(), '.local/state/openbell/log-oracle.example.json'))
  })

  test('without --state: written under XDG_STATE_HOME, read back there by the next run; without XDG_STATE_HOME under HOME', async () => {
    for (let i = 0; i < 5; i++) await fetch(`${base}/v5/status?mic=XNYS`, { headers: { 'x-oracle-key': key } })
    await harness.deps.audit.flush()
    await harness.deps.transparency.integrator.tick()
    const xdg = tempDir()
    const first = quiet()
    expect(await runLogCommand(['verify', '--url', base], first.say, first.complain, { XDG_STATE_HOME: xdg, HOME: '/nonexistent' })).toBe(0)
    const file = join(xdg, 'openbell', stateName())
    expect(first.out.at(-1)).toBe(`OK: state saved to ${file}`)
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { size: number; url: string }
    expect(saved.url).toBe(base)
    // More receipts: the next run starts from the saved state and checks consistency with it.
    for (let i = 0; i < 3; i++) await fetch(`${base}/v5/status?mic=XNYS`, { headers: { 'x-oracle-key': key } })
    await harness.deps.audit.flush()
    await harness.deps.transparency.integrator.tick()
    const second = quiet()
    expect(await runLogCommand(['verify', '--url', base], second.say, second.complain, { XDG_STATE_HOME: xdg })).toBe(0)
    expect(second.out).toContain(`consistent with the checkpoint verified before (size ${saved.size})`)
    expect(second.out).toContain('tree rebuilt from 3 new entries: root matches')

    const home = tempDir()
    const third = quiet()
    expect(await runLogCommand(['verify', '--url', base], third.say, third.complain, { HOME: home })).toBe(0)
    expect(existsSync(join(home, '.local', 'state', 'openbell', stateName()))).toBe(true)
    // A first run from nothing rebuilds the whole log.
    expect(third.out).toContain(`tree rebuilt from ${saved.size + 3} new entries: root matches`)
  })

  test('--state names the file instead; the default places are not touched', async () => {
    const xdg = tempDir()
    const file = join(tempDir(), 'monitor', 'state.json')
    const run = quiet()
    expect(await runLogCommand(['verify', '--url', base, '--state', file], run.say, run.complain, { XDG_STATE_HOME: xdg })).toBe(0)
    expect(existsSync(file)).toBe(true)
    expect(existsSync(join(xdg, 'openbell'))).toBe(false)
    // A damaged state file is a mismatch (exit 1), and nothing is saved over it.
    const damaged = JSON.parse(readFileSync(file, 'utf8'))
    damaged.root = Buffer.alloc(32, 1).toString('base64')
    await Bun.write(file, JSON.stringify(damaged))
    const refused = quiet()
    expect(await runLogCommand(['verify', '--url', base, '--state', file], refused.say, refused.complain, {})).toBe(1)
    expect(refused.err.join('\n')).toContain('the state file is damaged')
    expect(JSON.parse(readFileSync(file, 'utf8')).root).toBe(damaged.root)
  })
})
