// docs/scale-out.md "A runnable example", run as written: the settings files, the systemd unit's
// Environment= lines, EnvironmentFile=s and ExecStart for instances a and b, and the nginx server
// block, taken from the page. Replaced, and only these: the binary (`bun src/main.ts`), the
// database URL (an empty throw-away PostgreSQL database), the signing key file (made here with the
// page's openssl command), DATA_DIR (a temp directory), the node ports and nginx's listen port
// (free loopback ports), the certificate (made for the test), and the halt feed (off: tests reach
// nothing outside loopback). Node b reaches the database through a TCP relay on loopback, so that
// the test can take b's database away while a keeps it; the unit's ExecStartPost is run as
// written with the binary replaced.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { request as httpsRequest } from 'node:https'
import { tempDir } from '../helpers/app'
import { SLOW_SETUP_MS, startService, type RunningService } from '../helpers/process'
import { emptyDatabase, startClusterFirst, type TestDatabase } from '../helpers/postgres'
import { makeCertificate, type TestCertificate } from '../helpers/https-receiver'
import { startNginx, type TestNginx } from '../helpers/nginx'
import { startTcpRelay, type TcpRelay } from '../helpers/tcp-relay'
import { LEASED_JOBS, type Storage } from '../helpers/two-nodes'
import { docCode } from '../helpers/doc-sections'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { CONFIG_VARIABLES } from '../../src/config'
import { INSTANT_PER_ADDRESS_PER_DAY } from '../../src/accounts/offers'

startClusterFirst()

const MAIN = resolve(import.meta.dir, '../../src/main.ts')
const page = readFileSync(resolve(import.meta.dir, '../../docs/scale-out.md'), 'utf8')
const block = (name: string, language: string) => docCode('scale-out.md', name, language)
/** KEY=VALUE lines of an environment file (comments and blank lines skipped), as systemd reads them. */
const envFile = (text: string) => Object.fromEntries(text.split('\n').filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line)).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]))
const unit = block('scale-out-unit', 'ini')
const clusterEnv = envFile(block('scale-out-cluster-env', 'sh'))
const nodeEnvs = Object.fromEntries(block('scale-out-node-env', 'sh').split(/^# \/etc\/openbell\/(\w+)\.env\n/m).slice(1).reduce<[string, Record<string, string>][]>((pairs, part, i, parts) => (i % 2 === 0 ? [...pairs, [part, envFile(parts[i + 1]!)]] : pairs), []))
const nginxBlock = block('scale-out-nginx', 'nginx')

let dir: string
let database: TestDatabase
let certificate: TestCertificate
let nginx: TestNginx | undefined
let nginxPort: number
const nodes: Record<string, RunningService> = {}
let cluster: Record<string, string>
let apiKey = ''
let relay: TcpRelay
let afterThisTest = () => {}

/** The environment systemd gives instance `instance`: Environment= lines, then each EnvironmentFile= in order (they win). */
function unitEnvironment(instance: string): Record<string, string> {
  const lines = unit.replaceAll('%i', instance).split('\n')
  const env: Record<string, string> = {}
  for (const line of lines) {
    const set = /^Environment=([A-Z_]+)=(.*)$/.exec(line)
    if (set) env[set[1]!] = set[2]!
  }
  for (const line of lines) {
    const file = /^EnvironmentFile=(.*)$/.exec(line)?.[1]
    if (file === '/etc/openbell/cluster.env') Object.assign(env, cluster)
    else if (file === `/etc/openbell/${instance}.env`) Object.assign(env, nodeEnvs[instance])
    else if (file) throw new Error(`the unit reads an environment file the page does not show: ${file}`)
  }
  return env
}

/** One HTTPS request to nginx. */
function call(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string }>((done, fail) => {
    const request = httpsRequest({ host: '127.0.0.1', port: nginxPort, path, method: options.method ?? 'GET', ca: certificate.cert, servername: 'oracle.example.com', headers: options.headers, agent: false }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => (body += chunk))
      response.on('end', () => done({ status: response.statusCode!, body }))
    })
    request.on('error', fail)
    request.end(options.body)
  })
}

beforeAll(async () => {
  dir = tempDir('openbell-test-example-')
  database = await emptyDatabase('example')
  // The page's settings, checked where the example depends on them.
  expect(Object.keys(nodeEnvs)).toEqual(['a', 'b'])
  expect(unit).toContain('ExecStart=/opt/openbell/openbell\n')
  expect(clusterEnv.CLIENT_IP_HEADER).toBe('x-real-ip')
  expect(nginxBlock).toContain('proxy_set_header X-Real-IP $remote_addr;')
  const keyFile = join(dir, 'signing-key.hex')
  const key = Bun.spawnSync(['openssl', 'rand', '-hex', '32'])
  writeFileSync(keyFile, key.stdout, { mode: 0o600 })
  cluster = { ...clusterEnv, DATABASE_URL: database.url, SIGNING_KEY_FILE: keyFile }
  const databaseUrl = new URL(database.url)
  relay = startTcpRelay({ host: databaseUrl.hostname, port: Number(databaseUrl.port) })
  // Both instances at once, as `systemctl enable --now openbell@a openbell@b` starts them.
  const started = await Promise.all(
    Object.keys(nodeEnvs).map(async (instance) => {
      const env = unitEnvironment(instance)
      expect(env.DATA_DIR).toBe(`/var/lib/openbell/${instance}`)
      // startService picks a free port itself (PORT is its own).
      const { PORT: _port, ...rest } = env
      const viaRelay: Record<string, string> = instance === 'b' ? { DATABASE_URL: relayedUrl() } : {}
      const service = await startService({ ...rest, ...viaRelay, DATA_DIR: join(dir, instance), LOG_LEVEL: 'info' }, { startMs: 90_000 })
      return [instance, service] as const
    }),
  )
  for (const [instance, service] of started) nodes[instance] = service
  certificate = makeCertificate('DNS:oracle.example.com,IP:127.0.0.1')
  nginx = await startNginx({
    dir,
    serverBlock: nginxBlock,
    // Every line naming a node's port (its primary and its backup entry).
    upstreams: Object.keys(nodeEnvs).map((instance): [RegExp, string] => [new RegExp(`server 127\\.0\\.0\\.1:${nodeEnvs[instance]!.PORT} `, 'g'), `server 127.0.0.1:${new URL(nodes[instance]!.base).port} `]),
    certificate,
    ready: async (port) => {
      nginxPort = port
      return (await call('/v5/health')).status === 200
    },
  })
}, SLOW_SETUP_MS)

afterEach(() => {
  afterThisTest()
  afterThisTest = () => {}
})

afterAll(async () => {
  await nginx?.stop()
  await Promise.all(Object.values(nodes).map(async (node) => {
    node.process.kill('SIGTERM')
    await node.process.exited
  }))
  certificate?.dispose()
  relay?.stop()
  await database?.drop()
})

/** The database URL with the relay's port: node b's way to the database. */
const relayedUrl = () => {
  const url = new URL(database.url)
  url.port = String(relay.port)
  return url.toString()
}

/** The unit's ExecStartPost for an instance, as written (binary replaced, `--wait` as given); its exit code and stderr. */
async function execStartPost(instance: string, wait?: string): Promise<{ code: number; stderr: string }> {
  const line = /^ExecStartPost=-\/opt\/openbell\/openbell (.*)$/m.exec(unit)
  expect(line).not.toBeNull()
  const args = line![1]!.split(' ')
  if (wait) args[args.indexOf('--wait') + 1] = wait
  const env = { ...process.env, ...unitEnvironment(instance), PORT: new URL(nodes[instance]!.base).port, DATA_DIR: join(dir, instance) }
  const child = Bun.spawn(['bun', MAIN, ...args], { env, stdout: 'pipe', stderr: 'pipe' })
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited])
  return { code, stderr }
}

const health = async () => JSON.parse((await call('/v5/health')).body) as { storage: Storage; public_key_id: string }

describe('docs/scale-out.md example: two nodes, PostgreSQL and nginx', () => {
  test('both nodes started at once on the empty database, which was migrated once', async () => {
    const [row] = await database.sql`SELECT count(*)::int AS n FROM schema_migrations`
    expect(row).toEqual({ n: MIGRATIONS.length })
    const migrated = Object.values(nodes).filter((node) => node.output().includes('"msg":"database migrated"'))
    expect(migrated).toHaveLength(1)
    const connections = await database.sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()`
    console.log(`connections to the database with two idle nodes: ${(connections[0] as { n: number }).n} (this test's pool included)`)
  })

  test('nginx spreads requests over both nodes; every node answers with the one key', async () => {
    const seen = new Set<string>()
    for (let i = 0; i < 6; i++) {
      const answer = await health()
      expect(answer.storage.backend).toBe('postgres')
      expect(answer.public_key_id).toBe(clusterEnv.PUBLIC_KEY_ID!)
      seen.add(answer.storage.node_id)
    }
    expect([...seen].sort()).toEqual(['a', 'b'])
  }, 30_000)

  test('a key made with the operator command works through nginx on both nodes; the proxy sets the client address', async () => {
    const child = Bun.spawn(['bun', MAIN, 'keys', 'create', '--plan', 'pro'], { env: { ...process.env, ...cluster }, stdout: 'pipe', stderr: 'pipe' })
    const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited])
    expect(code).toBe(0)
    const key = (apiKey = stdout.split('\n')[0]!)
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })))
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200))
    const [surfaces] = await database.sql`SELECT count(*)::int AS n FROM audit_log WHERE surface = '/v5/status'`
    expect(surfaces).toEqual({ n: 6 })
    // A client's own X-Real-IP is replaced by nginx: eleven "addresses" are one, and its allowance holds.
    const instant = await Promise.all(Array.from({ length: INSTANT_PER_ADDRESS_PER_DAY + 1 }, (_, i) => call('/v5/keys/instant', { method: 'POST', headers: { 'content-type': 'application/json', 'x-real-ip': `198.51.100.${i + 1}` }, body: JSON.stringify({ agent_id: `example-${i}` }) })))
    expect(instant.map((answer) => answer.status).sort()).toEqual([...Array(INSTANT_PER_ADDRESS_PER_DAY).fill(200), 429])
  }, 60_000)

  test("node b's database gone: b is not ready (its liveness still OK), nginx sends every request to a, and b is back in rotation once the database returns", async () => {
    const direct = async (node: RunningService, path: string) => {
      const response = await fetch(`${node.base}${path}`)
      return { status: response.status, body: (await response.json()) as Record<string, any> }
    }
    expect((await direct(nodes.b!, '/v5/ready')).status).toBe(200)
    // The unit's ExecStartPost (systemctl start returns once the node is ready) agrees.
    expect(await execStartPost('b')).toEqual({ code: 0, stderr: '' })
    relay.cut()
    // Whatever fails below, b gets its database back for the tests after this one.
    afterThisTest = () => relay.restore()
    const cutAt = Date.now()
    for (const deadline = Date.now() + 10_000; (await direct(nodes.b!, '/v5/ready')).status !== 503; await Bun.sleep(100)) if (Date.now() > deadline) throw new Error('node b stayed ready without its database')
    const notReadyMs = Date.now() - cutAt
    const notReady = await direct(nodes.b!, '/v5/ready')
    expect(notReady.body).toMatchObject({ error: 'NOT_READY', node_id: 'b', checks: { storage: { ok: false, backend: 'postgres', status: 'degraded' } } })
    expect(notReady.body.failing).toContain('storage')
    // Liveness is unchanged (compatibility): the process runs and signs, and says degraded inside.
    const liveness = await direct(nodes.b!, '/v5/health')
    expect([liveness.status, liveness.body.status, liveness.body.storage.status]).toEqual([200, 'OK', 'degraded'])
    expect((await direct(nodes.a!, '/v5/ready')).status).toBe(200)
    const postStart = await execStartPost('b', '1')
    expect(postStart.code).toBe(1)
    expect(postStart.stderr).toContain('/v5/ready answered 503')

    // Traffic through nginx: every answer 200 (a 503 of b's is tried again on a, and b is left
    // alone for fail_timeout); b sees at most one request per fail_timeout.
    const seenBefore = nodes.b!.output().length
    const statuses: number[] = []
    const started = Date.now()
    for (let i = 0; i < 60; i++) {
      statuses.push((await call('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': apiKey } })).status)
      await Bun.sleep(100)
    }
    const elapsed = Date.now() - started
    const reachedB = (nodes.b!.output().slice(seenBefore).match(/"msg":"request","method":"GET","path":"\/v5\/status/g) ?? []).length
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    const failTimeout = Number(/max_fails=1 fail_timeout=(\d+)s/.exec(nginxBlock)![1]) * 1000
    expect(reachedB).toBeLessThanOrEqual(Math.ceil(elapsed / failTimeout) + 1)
    console.log(`node b's database cut: b not ready after ${(notReadyMs / 1000).toFixed(1)} s; ${statuses.length} requests through nginx in ${(elapsed / 1000).toFixed(1)} s, all 200; ${reachedB} live requests reached b (fail_timeout ${failTimeout / 1000} s)`)

    relay.restore()
    const restoredAt = Date.now()
    for (const deadline = Date.now() + 30_000; (await direct(nodes.b!, '/v5/ready')).status !== 200; await Bun.sleep(100)) if (Date.now() > deadline) throw new Error('node b did not become ready again')
    const readyMs = Date.now() - restoredAt
    // Back in rotation once fail_timeout has passed: nginx hands b requests again.
    let backMs = 0
    for (const deadline = Date.now() + failTimeout + 15_000; !backMs; await Bun.sleep(200)) {
      if ((await health()).storage.node_id === 'b') backMs = Date.now() - restoredAt
      else if (Date.now() > deadline) throw new Error('nginx did not send node b requests again')
    }
    console.log(`database back for node b: ready ${(readyMs / 1000).toFixed(1)} s later, answering through nginx ${(backMs / 1000).toFixed(1)} s later`)
  }, 120_000)

  test('a 503 that every node gives (x402 where payments are off) reaches the client as it is, and takes nobody out of service', async () => {
    const payment = { 'x-payment': JSON.stringify({ txHash: `0x${'1'.repeat(64)}`, network: 'base', amount: '0.001' }) }
    // Enough of them to mark every node failed, were it not for the backup entries (502 "no live upstreams" then).
    for (let i = 0; i < 4; i++) {
      const refused = await call('/v5/status?mic=XNYS', { headers: payment })
      expect([refused.status, JSON.parse(refused.body).error]).toEqual([503, 'PAYMENTS_NOT_CONFIGURED'])
    }
    const after = await Promise.all(Array.from({ length: 6 }, () => call('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': apiKey } })))
    expect(after.map((answer) => answer.status)).toEqual(Array(6).fill(200))
  })

  test('stopping one node (SIGTERM, as systemctl stop) loses no request through nginx; its jobs move to the other', async () => {
    const leaders = async (node: RunningService) => ((await (await fetch(`${node.base}/v5/health`)).json()) as { storage: Storage }).storage.leader_of
    // Jobs are leased by each node's first lease rounds after it starts: on a loaded machine some
    // are still unheld when this test begins (seen on CI), so wait for every one to have a holder.
    let jobsA: string[] = []
    let jobsB: string[] = []
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await Bun.sleep(100)) {
      ;[jobsA, jobsB] = [await leaders(nodes.a!), await leaders(nodes.b!)]
      if ([...jobsA, ...jobsB].length >= LEASED_JOBS.length) break
    }
    expect([...jobsA, ...jobsB].sort()).toEqual([...LEASED_JOBS])
    const [stopping, staying] = jobsA.length ? [nodes.a!, nodes.b!] : [nodes.b!, nodes.a!]
    let running = true
    const statuses: number[] = []
    const traffic = (async () => {
      while (running) statuses.push((await call('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': apiKey } })).status)
    })()
    await Bun.sleep(300)
    stopping.process.kill('SIGTERM')
    expect(await stopping.process.exited).toBe(0)
    const stoppedAt = Date.now()
    let jobs: string[] = []
    while (Date.now() - stoppedAt < 15_000) {
      jobs = await leaders(staying)
      if (LEASED_JOBS.every((job) => jobs.includes(job))) break
      await Bun.sleep(100)
    }
    const movedMs = Date.now() - stoppedAt
    await Bun.sleep(500)
    running = false
    await traffic
    expect(jobs).toEqual([...LEASED_JOBS])
    expect(statuses.length).toBeGreaterThan(10)
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    console.log(`clean stop: jobs on the other node ${(movedMs / 1000).toFixed(1)} s after the stopped node exited; ${statuses.length} requests through nginx meanwhile, all 200`)
  }, 60_000)

  test('the page says of every variable how it applies to several nodes', () => {
    const table = page.slice(page.indexOf('## Variables'), page.indexOf('## Backups'))
    expect(Object.keys(CONFIG_VARIABLES).filter((name) => !table.includes(`\`${name}\``))).toEqual([])
  })

  test('the unit passes systemd-analyze verify (where systemd is installed)', () => {
    if (Bun.spawnSync(['sh', '-c', 'command -v systemd-analyze']).exitCode !== 0) return
    const unitDir = join(dir, 'unit')
    mkdirSync(unitDir)
    // The binary and the settings files of this test, at the paths the unit names replaced.
    writeFileSync(join(unitDir, 'openbell@a.service'), unit.replaceAll('/opt/openbell/openbell', process.execPath).replaceAll('/etc/openbell/', `${unitDir}/`))
    writeFileSync(join(unitDir, 'cluster.env'), '')
    writeFileSync(join(unitDir, 'a.env'), '')
    const verify = Bun.spawnSync(['systemd-analyze', 'verify', '--man=no', join(unitDir, 'openbell@a.service')], { stderr: 'pipe' })
    expect({ code: verify.exitCode, stderr: verify.stderr.toString() }).toEqual({ code: 0, stderr: expect.any(String) })
  })
})
