// docs/scale-out.md "Moving up from SQLite", run as written: a single SQLite node that generated
// its own key in DATA_DIR answers a keyed receipt and stops; the page's cluster.env for moving up,
// its `db copy --to-file` command and its key-install command are taken from the page and run;
// then the two nodes of the unit start on the copy. Replaced, and only these: the binary
// (`bun src/main.ts`), `sudo` (the test is the service user), the paths under /etc/openbell and
// /var/lib/openbell (temp directories), the database URL (a throw-away PostgreSQL database), the
// node ports, and the halt feed (off: tests reach nothing outside loopback).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { tempDir } from '../helpers/app'
import { freePort, SLOW_SETUP_MS, startService, type RunningService } from '../helpers/process'
import { emptyDatabase, startClusterFirst, type TestDatabase } from '../helpers/postgres'
import { docCode } from '../helpers/doc-sections'
import { verifyWithRegistry, type KeyRegistry } from '../helpers/verify'

startClusterFirst()

const MAIN = resolve(import.meta.dir, '../../src/main.ts')
const block = (name: string, language: string) => docCode('scale-out.md', name, language)
const envFile = (text: string): Record<string, string> => Object.fromEntries(text.split('\n').filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line)).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]))

let dir: string
let etc: string
let varLib: string
let database: TestDatabase
const nodes: RunningService[] = []
/** The page's paths, moved into this test's directories. */
const place = (text: string) => text.replaceAll('/etc/openbell', etc).replaceAll('/var/lib/openbell', varLib)

/** Runs one `sudo -u openbell env VAR=… /opt/openbell/openbell <args>` line of the page. */
async function runPageCommand(line: string) {
  const match = /^sudo -u openbell env ((?:[A-Z_]+=\S+ )*)\/opt\/openbell\/openbell (.+)$/.exec(line.trim())
  if (!match) throw new Error(`not an openbell command line of the page: ${line}`)
  const env = Object.fromEntries(match[1]!.trim().split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), place(pair.slice(pair.indexOf('=') + 1))]))
  const { DATABASE_URL: _none, ...inherited } = process.env
  const child = Bun.spawn(['bun', MAIN, ...place(match[2]!).split(' ')], { env: { ...inherited, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, stdout, stderr }
}

/** Runs the page's `sudo install -o openbell -g openbell -m 0600 <files…> <directory>/`. */
function runInstall(line: string) {
  const match = /^sudo install -o openbell -g openbell -m (0[0-7]{3}) (.+) (\S+\/)$/.exec(line.trim())
  if (!match) throw new Error(`not the page's install line: ${line}`)
  return match[2]!.split(' ').map((file) => {
    const target = join(place(match[3]!), basename(file))
    copyFileSync(place(file), target)
    chmodSync(target, Number.parseInt(match[1]!, 8))
    return target
  })
}

interface Registry extends KeyRegistry {
  keys: { key_id: string; public_key: string; valid_from: string; valid_until: string | null }[]
}
let before: { keys: Registry; receipt: Record<string, unknown>; apiKey: string }

beforeAll(async () => {
  dir = tempDir('openbell-test-move-up-')
  etc = join(dir, 'etc-openbell')
  varLib = join(dir, 'var-lib-openbell')
  mkdirSync(etc, { mode: 0o700 })
  mkdirSync(varLib, { mode: 0o700 })
  database = await emptyDatabase('move_up')
  // The single node of docs/operations.md: DATA_DIR=/var/lib/openbell, its key generated there on first start.
  const single = await startService({ DATA_DIR: varLib, ISSUER: 'oracle.example.com' }, { startMs: 90_000 })
  try {
    const instant = (await (await fetch(`${single.base}/v5/keys/instant`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: 'move-up' }) })).json()) as { api_key: string }
    const receipt = (await (await fetch(`${single.base}/v5/status?mic=XNYS`, { headers: { 'x-oracle-key': instant.api_key } })).json()) as Record<string, unknown>
    before = { keys: (await (await fetch(`${single.base}/v5/keys`)).json()) as Registry, receipt, apiKey: instant.api_key }
  } finally {
    single.process.kill('SIGTERM')
    await single.process.exited
  }
}, SLOW_SETUP_MS)

afterAll(async () => {
  await Promise.all(nodes.map(async (node) => {
    node.process.kill('SIGTERM')
    await node.process.exited
  }))
  await database?.drop()
}, 60_000)

describe('docs/scale-out.md: moving up from SQLite', () => {
  test('the generated key is not dated 1 January (else the old failure could not show)', () => {
    expect(before.keys.keys[0]!.valid_from).not.toMatch(/-01-01T00:00:00\.000Z$/)
  })

  test('step 1 and 2: cluster.env without the key lines, and db copy --to-file reads the URL from it', async () => {
    const moveEnv = block('scale-out-move-env', 'sh')
    expect(moveEnv).not.toContain('PUBLIC_KEY_ID')
    expect(moveEnv).not.toContain('KEY_VALID_FROM')
    writeFileSync(join(etc, 'cluster.env'), place(moveEnv).replace(/^DATABASE_URL=.*$/m, `DATABASE_URL=${database.url}`), { mode: 0o600 })
    const copy = block('scale-out-copy', 'sh').trim()
    expect(copy).not.toMatch(/postgres:\/\//)
    const result = await runPageCommand(copy)
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) })
    expect(result.stdout).toContain('verified: ')
    const [recorded] = (await database.sql`SELECT key_id, public_key, valid_from FROM signing_key`) as Record<string, string>[]
    const key = before.keys.keys[0]!
    expect(recorded).toEqual({ key_id: key.key_id, public_key: key.public_key, valid_from: key.valid_from })
  }, 120_000)

  test('the old failure: the key file alone (valid-from defaults to 1 January) is refused against what db copy recorded', async () => {
    const bare = join(dir, 'bare')
    mkdirSync(bare, { mode: 0o700 })
    copyFileSync(join(varLib, 'signing-key.hex'), join(bare, 'signing-key.hex'))
    const env = { ...envFile(place(block('scale-out-move-env', 'sh'))), DATABASE_URL: database.url, SIGNING_KEY_FILE: join(bare, 'signing-key.hex'), NODE_ID: 'bare', DATA_DIR: join(dir, 'bare-data'), HOST: '127.0.0.1', PORT: String(freePort()), HALT_FEED_URL: 'off', TZ: 'UTC' }
    const child = Bun.spawn(['bun', MAIN], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
    clearTimeout(timer)
    expect(code).toBe(2)
    expect(`${stdout}${stderr}`).toMatch(/the database records key .*they differ in valid_from/)
  }, 90_000)

  test('step 3 and the nodes: the key with its signing-key.json; both nodes start with the key, id and valid-from the SQLite node published', async () => {
    const installed = runInstall(block('scale-out-move-key', 'sh'))
    expect(installed.map((file) => basename(file))).toEqual(['signing-key.hex', 'signing-key.json'])
    const unit = block('scale-out-unit', 'ini')
    const nodeEnvs: Record<string, Record<string, string>> = Object.fromEntries(block('scale-out-node-env', 'sh').split(/^# \/etc\/openbell\/(\w+)\.env\n/m).slice(1).reduce<[string, Record<string, string>][]>((pairs, part, i, parts) => (i % 2 === 0 ? [...pairs, [part, envFile(parts[i + 1]!)]] : pairs), []))
    const cluster = { ...envFile(place(block('scale-out-move-env', 'sh'))), DATABASE_URL: database.url }
    const started = await Promise.all(
      Object.keys(nodeEnvs).map((instance) => {
        // systemd's order: Environment= lines, then the EnvironmentFile=s (cluster.env, then the node's).
        const env: Record<string, string> = {}
        for (const line of unit.replaceAll('%i', instance).split('\n')) {
          const set = /^Environment=([A-Z_]+)=(.*)$/.exec(line)
          if (set) env[set[1]!] = set[2]!
        }
        const all: Record<string, string> = { ...env, ...cluster, ...nodeEnvs[instance] }
        // startService picks a free port itself (PORT is its own).
        const { PORT: _port, ...rest } = all
        return startService({ ...rest, DATA_DIR: join(dir, instance) }, { startMs: 90_000 })
      }),
    )
    nodes.push(...started)
    for (const node of started) {
      const keys = (await (await fetch(`${node.base}/v5/keys`)).json()) as Registry
      expect(keys.keys.map(({ key_id, public_key, valid_from, valid_until }) => ({ key_id, public_key, valid_from, valid_until }))).toEqual(before.keys.keys.map(({ key_id, public_key, valid_from, valid_until }) => ({ key_id, public_key, valid_from, valid_until })))
      // The receipt the SQLite node answered verifies with what the node publishes; the key made there works here.
      expect(verifyWithRegistry(keys, before.receipt)).toBe(true)
      const status = await fetch(`${node.base}/v5/status?mic=XNYS`, { headers: { 'x-oracle-key': before.apiKey } })
      expect(status.status).toBe(200)
      expect(verifyWithRegistry(keys, (await status.json()) as Record<string, unknown>)).toBe(true)
    }
  }, 180_000)
})
