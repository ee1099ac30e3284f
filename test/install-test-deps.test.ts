// .ci/install-test-deps: what the tests need beyond `bun install` (PostgreSQL, nginx, Chromium)
// is installed by the README's test command itself, through the one script .ci/run also runs.
// Debian's package mirrors are not reachable from a test (traffic stays on loopback), so apt-get
// is a stand-in here that records how it was called; everything else is the real script.
import { describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { tempDir } from './helpers/app'

const ROOT = resolve(import.meta.dir, '..')
const SCRIPT = join(ROOT, '.ci', 'install-test-deps')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

/** A directory with an `apt-get` that records its arguments and DEBIAN_FRONTEND, put first on PATH. */
function recordingAptGet(): { dir: string; calls: () => string[] } {
  const dir = tempDir('openbell-apt-')
  chmodSync(dir, 0o755)
  const record = join(dir, 'calls')
  writeFileSync(record, '')
  chmodSync(record, 0o666)
  writeFileSync(join(dir, 'apt-get'), `#!/bin/sh\necho "DEBIAN_FRONTEND=\${DEBIAN_FRONTEND:-} $*" >> ${record}\n`)
  chmodSync(join(dir, 'apt-get'), 0o755)
  return { dir, calls: () => readFileSync(record, 'utf8').split('\n').filter(Boolean) }
}

function run(env: Record<string, string>, asUser?: string) {
  const command = asUser ? ['runuser', '-u', asUser, '--', 'env', ...Object.entries(env).map(([name, value]) => `${name}=${value}`), 'bash', SCRIPT] : ['bash', SCRIPT]
  const result = Bun.spawnSync(command, { cwd: ROOT, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  return { code: result.exitCode, said: `${result.stdout.toString()}${result.stderr.toString()}`.trim() }
}

/** What the script should find missing here, by the places the tests look. */
function missingHere(chromium: string): string[] {
  const postgres = ['17', '16', '15', '14'].some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/pg_ctl`))
  const nginx = Bun.which('nginx') !== null || existsSync('/usr/sbin/nginx')
  return [...(postgres ? [] : ['postgresql']), ...(nginx ? [] : ['nginx']), ...(existsSync(chromium) ? [] : ['chromium'])]
}

describe('.ci/install-test-deps', () => {
  test('one script: the test runner and .ci/run both run it, and neither installs packages itself', () => {
    expect(read('test/run.ts')).toContain(".ci/install-test-deps'")
    expect(read('.ci/run')).toContain('bash .ci/install-test-deps')
    for (const file of ['test/run.ts', '.ci/run']) expect({ file, installs: read(file).includes('apt-get install') }).toEqual({ file, installs: false })
  })

  test('installs what is missing (here: Chromium, moved away by CHROMIUM_PATH, as the browser tests read it) in one apt-get run, non-interactively', () => {
    const apt = recordingAptGet()
    const chromium = '/nonexistent/chromium'
    const { code, said } = run({ PATH: `${apt.dir}:${process.env.PATH}`, CHROMIUM_PATH: chromium })
    const missing = missingHere(chromium)
    expect(missing).toContain('chromium')
    expect(code).toBe(0)
    expect(said).toContain(`== the tests need ${missing.join(' ')}: installing from Debian's packages (apt-get)`)
    const calls = apt.calls()
    expect(calls.map((call) => call.replace(/^DEBIAN_FRONTEND=\S* /, ''))).toEqual(['update -qq', `install -y -qq ${missing.join(' ')}`])
    expect(calls[1]).toStartWith('DEBIAN_FRONTEND=noninteractive ')
    // The stand-in installed nothing: the script says so, and still does not fail the run.
    expect(said).toContain('!! could not install chromium: the tests that need them will fail')
  })

  test('nothing missing: silent, and apt-get is not run', () => {
    const apt = recordingAptGet()
    const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
    if (missingHere(chromium).length) throw new Error(`this machine lacks ${missingHere(chromium).join(', ')}: bun run test installs them first`)
    expect(run({ PATH: `${apt.dir}:${process.env.PATH}` })).toEqual({ code: 0, said: '' })
    expect(apt.calls()).toEqual([])
  })

  test.skipIf(process.getuid?.() !== 0)('not root and no password-less sudo: names what to install, runs nothing, does not fail', () => {
    const apt = recordingAptGet()
    const { code, said } = run({ PATH: `${apt.dir}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin`, CHROMIUM_PATH: '/nonexistent/chromium' }, 'nobody')
    expect(code).toBe(0)
    expect(said).toContain("!! not root and no password-less sudo: install them yourself (apt-get install -y chromium); the tests that need them will fail")
    expect(apt.calls()).toEqual([])
  })
})
