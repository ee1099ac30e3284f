// `openbell log verify` against a hostile log on loopback (test/helpers/hostile-log.ts), run as a
// child process whose peak resident memory is measured: a checkpoint claiming 2^40 entries with
// 16 MiB bundles, a 1 MB gzip bomb of 1 GiB, a slow drip, a stall, a silent server, redirects to
// another origin and in a circle, terminal escape sequences in an error body and in the log's
// name, answers larger than their format allows. Each ends in a clear message and a non-zero
// exit (or, for what is only odd, a clean verification), with the state file untouched and
// memory under PEAK_BOUND.
//
// The peak is GNU time's %M (the kernel's ru_maxrss of the command, from wait4). Not Bun's
// resourceUsage(): a child spawned by Bun starts as a vfork of this test process, and Linux
// carries the parent's high-water mark across the exec, so every child would read at least as
// much as this process uses. Without /usr/bin/time, VmHWM of /proc/<pid>/status is sampled.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { HUGE_SIZE, startHostileLog, type HostileLog } from '../helpers/hostile-log'
import { tempDir } from '../helpers/app'
import { SLOW_SETUP_MS } from '../helpers/process'
import { descendants } from '../runner/processes'

const MAIN = resolve(import.meta.dir, '../../src/main.ts')
/** The client's peak resident memory must stay under this whatever the log does (docs/transparency.md). */
const PEAK_BOUND = 256 * 1024 * 1024
/** Bundles of 16 MiB the client reads from the 2^40 claim before it is stopped (about 400 MB). */
const HUGE_BUNDLES = 24

let log: HostileLog
const peaks: string[] = []

beforeAll(async () => {
  log = await startHostileLog()
}, SLOW_SETUP_MS)

afterAll(async () => {
  await log?.stop()
  console.log(`log verify against a hostile log, peak RSS per run: ${peaks.join('; ')}`)
})

interface Run {
  code: number
  stdout: string
  stderr: string
  ms: number
  peak: number
  state: string
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null

/** The highest VmHWM seen of a running process (the fallback without GNU time), in bytes. */
function sampleHighWater(pid: number, seen: { peak: number }): void {
  try {
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    seen.peak = Math.max(seen.peak, kb * 1024)
  } catch {
    // gone
  }
}

/** Runs the command on one scenario; with `until`, kills it once that holds (checked every 20 ms). */
async function verify(scenario: string, flags: string[] = [], until?: () => boolean): Promise<Run> {
  const dir = tempDir()
  const state = join(dir, 'state.json')
  const peakFile = join(dir, 'peak')
  const command = ['bun', MAIN, 'log', 'verify', '--url', `${log.base}/${scenario}`, '--state', state, ...flags]
  const started = performance.now()
  const child = Bun.spawn(TIME ? [TIME, '-f', '%M', '-o', peakFile, ...command] : command, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, LOG_LEVEL: 'error' } })
  // The command itself: time's child, or the spawned process.
  const target = async () => {
    if (!TIME) return child.pid
    for (;;) {
      const [pid] = descendants([child.pid])
      if (pid || child.exitCode !== null) return pid ?? child.pid
      await Bun.sleep(5)
    }
  }
  const sampled = { peak: 0 }
  const watcher = (async () => {
    const pid = await target()
    while (child.exitCode === null) {
      if (!TIME) sampleHighWater(pid, sampled)
      if (until?.()) {
        sampleHighWater(pid, sampled)
        process.kill(pid, 'SIGKILL')
        return
      }
      await Bun.sleep(20)
    }
  })()
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  await watcher
  // GNU time writes "Command terminated by signal 9" before the figure when the command was killed.
  const peak = TIME ? Number(readFileSync(peakFile, 'utf8').trim().split('\n').at(-1)) * 1024 : sampled.peak
  peaks.push(`${scenario} ${(peak / 2 ** 20).toFixed(0)} MiB`)
  // time exits with the command's status, or 128 + its signal.
  return { code, stdout, stderr, ms: performance.now() - started, peak, state }
}

/** Nothing a terminal would act on: no C0 control but newline, no DEL, no C1, no bidi override. */
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

function expectRefused(run: Run, message: string | RegExp): void {
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' })
  expect(run.stderr).toStartWith('REFUSED: ')
  if (typeof message === 'string') expect(run.stderr).toContain(message)
  else expect(run.stderr).toMatch(message)
  expect(run.stderr).toContain('the state is unchanged')
  expect(existsSync(run.state)).toBe(false)
  expect(run.peak).toBeLessThan(PEAK_BOUND)
}

describe('openbell log verify against a hostile log', () => {
  test('control: an honest empty log verifies', async () => {
    const run = await verify('honest')
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
    expect(run.stdout).toContain('root matches')
    expect(run.peak).toBeLessThan(PEAK_BOUND)
  }, 30_000)

  test(`a checkpoint claiming 2^40 entries with 16 MiB bundles: memory stays bounded while ${HUGE_BUNDLES} bundles (about 400 MB) are read`, async () => {
    const run = await verify('huge', [], () => log.count('huge', 'bundle') >= HUGE_BUNDLES)
    // Still going (it would read 2^32 bundles) when stopped; every bundle's tile was checked on the way.
    expect(run.code).not.toBe(0)
    expect(run.stdout).toBe('')
    expect(log.count('huge', 'bundle')).toBeGreaterThanOrEqual(HUGE_BUNDLES)
    expect(log.count('huge', 'tile')).toBeGreaterThanOrEqual(HUGE_BUNDLES - 1)
    expect(run.peak).toBeLessThan(PEAK_BOUND)
    console.log(`2^40 claim (${HUGE_SIZE} entries): ${log.count('huge', 'bundle')} bundles of 16 MiB read in ${(run.ms / 1000).toFixed(1)} s, peak RSS ${(run.peak / 2 ** 20).toFixed(0)} MiB`)
  }, 120_000)

  test('a gzip bomb (1 MB expanding to 1 GiB) as an entry bundle is refused at the cap of a bundle', async () => {
    const run = await verify('bomb')
    expectRefused(run, /GET \/log\/tile\/entries\/000: the answer expands to more than the 16777472 bytes accepted for it/)
  }, 30_000)

  test('a body dripping a byte every 0.5 s is cut at --timeout (the idle timeout alone would never fire)', async () => {
    const run = await verify('drip', ['--timeout', '3', '--idle-timeout', '2'])
    expectRefused(run, /GET \/log\/checkpoint took longer than 3 s \(--timeout\)/)
    expect(run.ms).toBeLessThan(30_000)
  }, 30_000)

  test('a body that stops after its first byte is cut at --idle-timeout', async () => {
    const run = await verify('stall', ['--idle-timeout', '1'])
    expectRefused(run, /GET \/log\/checkpoint: the answer stalled \(no byte for 1 s, --idle-timeout\)/)
  }, 30_000)

  test('a server that never answers is cut at --connect-timeout', async () => {
    const run = await verify('silent', ['--connect-timeout', '1'])
    expectRefused(run, /GET \/v5\/keys: no answer within 1 s \(--connect-timeout\)/)
  }, 30_000)

  test('a redirect to another origin is refused and that origin is never asked; same-origin redirects are followed, a few at most', async () => {
    const away = await verify('redirect-away')
    expectRefused(away, `GET /v5/keys was redirected to another origin (${log.elsewhere.base}); a log's answers must come from ${log.base}`)
    expect(log.elsewhere.hits()).toBe(0)
    const same = await verify('redirect-same')
    expect({ code: same.code, stderr: same.stderr }).toEqual({ code: 0, stderr: '' })
    expect(log.count('redirect-same', '/v5/keys-moved')).toBe(1)
    const loop = await verify('redirect-loop')
    expectRefused(loop, 'GET /v5/keys was redirected more than 3 times')
    expect(log.count('redirect-loop', 'keys')).toBe(4)
  }, 30_000)

  test('terminal escape sequences in a 500 body (of 12 MB) and in the log name are not echoed', async () => {
    const failed = await verify('escape')
    // A server error proves nothing about the log: not verified (2), not a mismatch (1).
    expect(failed.code).toBe(2)
    expect(failed.stderr).toStartWith(`cannot verify ${log.base}/escape: GET /v5/keys answered 500: ]0;owned[2J[1;31mOK: state saved[0m 31mredgnp.exe`)
    expect(failed.stderr).not.toMatch(CONTROLS)
    // One line: the body's own line breaks cannot forge "OK: state saved" at the start of a line.
    expect(failed.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(failed.stderr).toContain('…; try again later')
    expect(failed.stderr.length).toBeLessThan(400)
    expect(failed.peak).toBeLessThan(PEAK_BOUND)

    const named = await verify('c1-origin')
    expect({ code: named.code, stderr: named.stderr }).toEqual({ code: 0, stderr: '' })
    expect(named.stdout).toContain('checkpoint: hostile.test/2Jlog size 0')
    expect(named.stdout).not.toMatch(CONTROLS)
  }, 30_000)

  test('answers larger than their format allows are refused: announced, unannounced, and an entry bundle above 16 MiB', async () => {
    expectRefused(await verify('oversize-keys'), 'GET /v5/keys: the answer is 8388608 bytes; at most 1048576 are accepted for it')
    expectRefused(await verify('oversize-chunked'), 'GET /v5/keys: the answer is larger than the 1048576 bytes accepted for it')
    expectRefused(await verify('oversize-bundle'), 'GET /log/tile/entries/000: the answer is larger than the 16777472 bytes accepted for it')
  }, 30_000)

  test('bad timeout flags are usage errors', async () => {
    const run = await verify('honest', ['--timeout', '0'])
    expect(run.code).toBe(2)
    expect(run.stderr).toStartWith('--timeout must be a number of seconds above 0')
  }, 30_000)
})
