// The test runner itself (test/run.ts), run as `bun run test` is, on the fixtures of
// test/fixtures/runner: a progress line as each file ends, before the group's output, and the
// combined summary last, in the form .ci/run reads; SIGTERM to `bun run test` (plain mode) and to
// the runner (grouped mode) stops the `bun test` process and everything it started, including a
// child in a process group of its own (as Chromium is), and leaves no summary.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { tempDir } from './helpers/app'
import { alive } from './runner/processes'

const ROOT = resolve(import.meta.dir, '..')

async function output(child: ReturnType<typeof Bun.spawn>): Promise<string> {
  const [stdout, stderr] = await Promise.all([new Response(child.stdout as ReadableStream).text(), new Response(child.stderr as ReadableStream).text()])
  return stdout + stderr
}

describe('bun run test', () => {
  test('grouped: a line per finished file while the group runs, then its output, then the summary .ci/run reads', async () => {
    const child = Bun.spawn(['bun', 'run', 'test', '--grouped', 'test/fixtures/runner'], { cwd: ROOT, env: { ...process.env, OPENBELL_RUNNER_FAIL: '1' }, stdout: 'pipe', stderr: 'pipe' })
    const [text, code] = await Promise.all([output(child), child.exited])
    expect(code).toBe(1)
    const lines = text.split('\n')
    const progress = lines.filter((line) => line.startsWith('[others '))
    // Numbered in the order bun test ran them (its own), one line per file with its own counts:
    // the failure bun test recaps after the last file is not counted again there.
    expect(progress.map((line) => line.slice(0, 13))).toEqual(['[others 1/3] ', '[others 2/3] ', '[others 3/3] '])
    expect(progress.map((line) => line.slice(13).replace(/\(\d+\.\d s\)$/, '(…)')).sort()).toEqual([
      'test/fixtures/runner/fails-on-request.test.ts: 0 passed, 1 failed (…)',
      'test/fixtures/runner/holds-children.test.ts: 0 passed, 0 failed, 1 skipped (…)',
      'test/fixtures/runner/quick.test.ts: 2 passed, 0 failed, 1 skipped (…)',
    ])
    // Progress first, the group's own output after it, the combined summary last.
    expect(lines.indexOf(progress.at(-1)!)).toBeLessThan(lines.findIndex((line) => line.startsWith('===== group "others"')))
    // (bun run writes its "$ <script>" line on stderr: the last line of all is on stdout.)
    expect(lines.filter((line) => !line.startsWith('$ ') && !line.startsWith('error: script')).filter(Boolean).at(-1)).toMatch(/^Ran 5 tests across 3 files\./)
    // What .ci/run greps: the last " N pass" and " N fail" lines, which progress lines never look like.
    expect(lines.filter((line) => /^ *[0-9]+ pass$/.test(line)).at(-1)).toBe(' 2 pass')
    expect(lines.filter((line) => /^ *[0-9]+ fail$/.test(line)).at(-1)).toBe(' 1 fail')
  }, 60_000)

  for (const mode of ['plain', 'grouped'] as const) {
    test(`${mode}: SIGTERM stops bun test and what its tests started; no summary`, async () => {
      const record = join(tempDir(), 'pids')
      const command = mode === 'plain' ? ['bun', 'run', 'test', 'test/fixtures/runner/holds-children.test.ts'] : ['bun', 'test/run.ts', '--grouped', 'test/fixtures/runner']
      const child = Bun.spawn(command, { cwd: ROOT, env: { ...process.env, OPENBELL_RUNNER_FIXTURE: record }, stdout: 'pipe', stderr: 'pipe' })
      const said = output(child)
      let pids: number[] = []
      for (const deadline = Date.now() + 30_000; !pids.length && Date.now() < deadline; ) {
        await Bun.sleep(100)
        try {
          pids = readFileSync(record, 'utf8').trim().split(/\s+/).map(Number)
        } catch {
          // not written yet
        }
      }
      expect(pids).toHaveLength(3)
      expect(pids.every(alive)).toBe(true)
      const signalled = Date.now()
      child.kill('SIGTERM')
      const code = await child.exited
      const text = await said
      expect({ code, stopped: pids.filter(alive) }).toEqual({ code: 143, stopped: [] })
      expect(Date.now() - signalled).toBeLessThan(20_000)
      if (mode === 'grouped') {
        expect(text).toContain('!! SIGTERM: stopping 1 bun test process and what they started')
        expect(text).not.toMatch(/^Ran \d+ tests/m)
      }
    }, 90_000)
  }
})
