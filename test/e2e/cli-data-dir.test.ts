// The compiled binary as an operator uses it: the service and the CLI find the same database
// (data/ beside the binary) whatever the working directory, the CLI names that database on its
// first line and creates none without --init, and the files are owner-only.
import { beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { tempDir } from '../helpers/app'
import { freePort, SLOW_SETUP_MS } from '../helpers/process'

const root = resolve(import.meta.dir, '../..')
let installDir: string
let binary: string
let elsewhere: string

async function run(args: string[], env: Record<string, string> = {}, cwd = elsewhere) {
  const child = Bun.spawn([binary, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/', USER: 'alice', TZ: 'UTC', ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { stdout, stderr, code, lines: stdout.trim().split('\n'), errLines: stderr.trim().split('\n') }
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)

beforeAll(async () => {
  installDir = tempDir('openbell-install-')
  binary = join(installDir, 'openbell')
  const build = Bun.spawnSync(['bun', 'build', 'src/main.ts', '--compile', '--outfile', binary], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
  if (build.exitCode !== 0) throw new Error(build.stderr.toString())
  symlinkSync(join(root, 'schedules'), join(installDir, 'schedules'))
  elsewhere = tempDir('openbell-cwd-')
}, SLOW_SETUP_MS)

describe('the CLI and the service share one data directory', () => {
  test('a command that needs the database names it first and refuses to create it without --init', async () => {
    const result = await run(['keys', 'create', '--plan', 'pro'])
    expect(result.code).toBe(1)
    expect(result.errLines[0]).toBe(`database: ${join(installDir, 'data', 'openbell.sqlite')}`)
    expect(result.stderr).toContain('--init')
    expect(existsSync(join(installDir, 'data'))).toBe(false)
    expect(existsSync(join(elsewhere, 'data'))).toBe(false)
  })

  test('--init creates it beside the binary (0700 directory, 0600 files), not in the working directory', async () => {
    const result = await run(['keys', 'list', '--init'])
    expect(result.code).toBe(0)
    expect(result.errLines[0]).toBe(`database: ${join(installDir, 'data', 'openbell.sqlite')}`)
    expect(mode(join(installDir, 'data'))).toBe('700')
    expect(mode(join(installDir, 'data', 'openbell.sqlite'))).toBe('600')
    expect(existsSync(join(elsewhere, 'data'))).toBe(false)
  })

  test('a key created from another directory is accepted by the running service; overrides record the OS user', async () => {
    const created = await run(['keys', 'create', '--plan', 'pro'])
    expect(created.code).toBe(0)
    // stdout carries only what the command prints: the key is its first line.
    const key = created.lines[0]!
    expect(key).toMatch(/^svc_live_/)
    const port = freePort()
    // The service started from yet another directory, with no DATA_DIR: the same database.
    const service = Bun.spawn([binary], { cwd: tempDir(), env: { PATH: process.env.PATH ?? '', TZ: 'UTC', PORT: String(port), HOST: '127.0.0.1', HALT_FEED_URL: 'off', LOG_LEVEL: 'warn' }, stdout: 'pipe', stderr: 'pipe' })
    try {
      let status = 0
      for (let i = 0; i < 100 && status !== 200; i++) {
        await Bun.sleep(100)
        status = await fetch(`http://127.0.0.1:${port}/v5/health`).then((r) => r.status, () => 0)
      }
      expect((await fetch(`http://127.0.0.1:${port}/v5/status?mic=XNYS`, { headers: { 'x-oracle-key': key } })).status).toBe(200)
      // The binary serves its API reference from itself.
      const page = await (await fetch(`http://127.0.0.1:${port}/docs`)).text()
      expect(page).toContain('/docs/assets/swagger-ui-bundle.js')
      expect((await fetch(`http://127.0.0.1:${port}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200)
      // WAL files made by the running service are owner-only too, and so is a backup.
      expect(mode(join(installDir, 'data', 'openbell.sqlite-wal'))).toBe('600')
      expect(mode(join(installDir, 'data', 'signing-key.hex'))).toBe('600')
      const backup = join(elsewhere, 'copy.sqlite')
      const backedUp = await run(['backup', backup])
      expect(backedUp.code).toBe(0)
      expect(mode(backup)).toBe('600')

      const set = await run(['overrides', 'set', 'XNYS', 'HALTED', '--reason', 'drill', '--for', '1h'])
      expect(set.code).toBe(0)
      const listed = await run(['overrides', 'list'])
      expect(listed.stdout).toContain('by cli:alice')
      const named = await run(['overrides', 'set', 'XLON', 'HALTED', '--reason', 'drill', '--for', '1h', '--actor', 'bob'])
      expect(named.code).toBe(0)
      expect((await run(['overrides', 'list'])).stdout).toContain('by cli:bob')
    } finally {
      service.kill()
      await service.exited
    }
  }, 60_000)
})

describe('WORKERS from the single binary', () => {
  test('the supervisor starts the binary itself as its workers; both answer on the one port; SIGTERM stops them all', async () => {
    const port = freePort()
    const dataDir = tempDir()
    const service = Bun.spawn([binary], { cwd: tempDir(), env: { PATH: process.env.PATH ?? '', TZ: 'UTC', PORT: String(port), HOST: '127.0.0.1', HALT_FEED_URL: 'off', LOG_LEVEL: 'info', DATA_DIR: dataDir, WORKERS: '2' }, stdout: 'pipe', stderr: 'pipe' })
    const output = new Response(service.stdout).text()
    try {
      let workers: { id: string; pid: number }[] = []
      for (let i = 0; i < 1200 && workers.length < 2; i++) {
        await Bun.sleep(100)
        workers = await fetch(`http://127.0.0.1:${port}/v5/health`, { keepalive: false }).then(async (r) => ((await r.json()) as { workers?: { id: string; pid: number }[] }).workers ?? [], () => [])
      }
      expect(workers).toHaveLength(2)
      // Each worker is the binary itself, a child of the supervisor.
      for (const worker of workers) {
        expect(readFileSync(`/proc/${worker.pid}/cmdline`, 'utf8').split('\0')[0]).toBe(binary)
        expect(readFileSync(`/proc/${worker.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]).toBe(String(service.pid))
      }
      const answering = new Set<string>()
      for (let i = 0; i < 30; i++) answering.add(((await (await fetch(`http://127.0.0.1:${port}/v5/health`, { keepalive: false })).json()) as { storage: { node_id: string } }).storage.node_id)
      expect([...answering].sort()).toEqual(workers.map((worker) => worker.id).sort())
      service.kill('SIGTERM')
      expect(await service.exited).toBe(0)
      const last = (await output).trim().split('\n').at(-1)!
      expect(JSON.parse(last)).toMatchObject({ msg: 'stopped', code: 0 })
      for (const worker of workers) expect(() => process.kill(worker.pid, 0)).toThrow()
    } finally {
      service.kill('SIGKILL')
      await service.exited
    }
  }, 150_000)
})

describe('--help', () => {
  test('exits 0 from the binary', async () => {
    const result = await run(['--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('--init')
  })
})

describe('the override actor', () => {
  test('is --actor, else the user behind sudo, else USER; a bad name is refused', async () => {
    const { cliActor } = await import('../../src/cli/overrides')
    expect(cliActor('bob', { USER: 'alice' })).toBe('cli:bob')
    expect(cliActor(undefined, { SUDO_USER: 'dave', USER: 'root' })).toBe('cli:dave')
    expect(cliActor(undefined, { USER: 'carol' })).toBe('cli:carol')
    expect(() => cliActor('bob smith')).toThrow('--actor')
  })

  test('without SUDO_USER, USER or LOGNAME it is the passwd name of the effective uid, never a placeholder', async () => {
    const { accountName, cliActor } = await import('../../src/cli/overrides')
    const passwd = join(tempDir(), 'passwd')
    writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\nopenbell:x:998:998::/nonexistent:/usr/sbin/nologin\n')
    expect(accountName(998, passwd)).toBe('openbell')
    expect(accountName(0, passwd)).toBe('root')
    expect(accountName(4242, passwd)).toBeUndefined()
    expect(accountName(0, join(tempDir(), 'missing'))).toBeUndefined()
    // This machine's own entry (when /etc/passwd has one), as `id -un` names it.
    const own = accountName()
    if (own !== undefined) {
      expect(Bun.spawnSync(['id', '-un']).stdout.toString().trim()).toBe(own)
      expect(cliActor(undefined, {})).toBe(`cli:${own}`)
    }
  })
})
