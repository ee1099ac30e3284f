// The regression guard (issue 32; `bun test/bench/regression.ts`, also run by `bun run bench`):
// GET /v5/status with a paid key on the real service of this checkout against the same of an
// earlier build, in alternated rounds, so that a change that costs throughput shows in the same
// table. The earlier build is BENCH_BASELINE (a commit, a tag, a branch), else the latest release
// tag, else `main` on a branch off it; it is checked out in a temporary git worktree outside the repository, with its
// own `bun install --frozen-lockfile`, and removed afterwards.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { CONNECTIONS, SECONDS, meanLoad, measure, type Load } from './measure'
import { startBenchService } from './service'
import { machineLine, writeDocFigures } from './doc-figures'

const ROOT = resolve(import.meta.dir, '../..')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)

export interface Regression {
  baseline: string
  commit: string
  landed: string
  current: Load
  earlier: Load
  rounds: number
}

const git = (args: string[], cwd = ROOT) => {
  const run = Bun.spawnSync(['git', ...args], { cwd, stderr: 'pipe' })
  return { ok: run.exitCode === 0, out: run.stdout.toString().trim(), err: run.stderr.toString().trim() }
}

/**
 * The build to compare with: BENCH_BASELINE, else the latest tag reachable from HEAD (the previous
 * release), else `main` when HEAD is a branch off it (what the branch would land on); null when
 * there is none of these.
 */
export function baselineRef(): string | null {
  if (process.env.BENCH_BASELINE) return process.env.BENCH_BASELINE
  const tag = git(['describe', '--tags', '--abbrev=0'])
  if (tag.ok && tag.out) return tag.out
  const main = git(['rev-parse', '--verify', 'main^{commit}'])
  return main.ok && main.out !== git(['rev-parse', 'HEAD']).out ? 'main' : null
}

export async function regressionBench(ref: string): Promise<Regression> {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`])
  if (!commit.ok) throw new Error(`BENCH_BASELINE ${ref} is not a commit of this repository`)
  const dir = join(mkdtempSync(join(tmpdir(), 'openbell-baseline-')), 'checkout')
  const added = git(['worktree', 'add', '--detach', dir, commit.out])
  if (!added.ok) throw new Error(`git worktree add failed: ${added.err}`)
  try {
    const install = Bun.spawnSync(['bun', 'install', '--frozen-lockfile'], { cwd: dir, stdout: 'ignore', stderr: 'pipe' })
    if (install.exitCode !== 0) throw new Error(`bun install in the baseline checkout failed: ${install.stderr.toString()}`)
    const current = await startBenchService(ROOT)
    const earlier = await startBenchService(dir)
    const runs: { current: Load[]; earlier: Load[] } = { current: [], earlier: [] }
    try {
      for (let round = 0; round < ROUNDS; round++) {
        // Who goes first alternates too: the machine's drift falls on both alike.
        const order = round % 2 ? [['earlier', earlier], ['current', current]] as const : [['current', current], ['earlier', earlier]] as const
        for (const [name, service] of order) runs[name].push(await measure(`${service.base}/v5/status?mic=XNYS`, { headers: { 'X-Oracle-Key': service.proKey() }, pid: service.pid }))
      }
    } finally {
      await current.stop()
      await earlier.stop()
    }
    return { baseline: ref, commit: commit.out.slice(0, 10), landed: git(['rev-parse', '--short=10', 'HEAD']).out, current: meanLoad(runs.current), earlier: meanLoad(runs.earlier), rounds: ROUNDS }
  } finally {
    git(['worktree', 'remove', '--force', dir])
    rmSync(resolve(dir, '..'), { recursive: true, force: true })
  }
}

export function regressionRows(result: Regression): string[] {
  const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const p99 = (l: Load) => (l.p99Ms === null ? 'n/a' : `${fmt(l.p99Ms, 2)} ms`)
  const cpu = (l: Load) => (l.loopCpuUs ? `${fmt(l.loopCpuUs, 1)} µs` : 'n/a')
  const ratio = result.current.rps / result.earlier.rps
  return [
    '| measure | this checkout | baseline | ratio |',
    '|---|---|---|---|',
    `| GET /v5/status, paid key (the real service, \`bun src/main.ts\`): req/s | ${fmt(result.current.rps)} | ${fmt(result.earlier.rps)} | ${ratio.toFixed(3)} |`,
    `| p99 at ${CONNECTIONS} connections | ${p99(result.current)} | ${p99(result.earlier)} | |`,
    `| event-loop CPU per request | ${cpu(result.current)} | ${cpu(result.earlier)} | ${result.current.loopCpuUs && result.earlier.loopCpuUs ? (result.current.loopCpuUs / result.earlier.loopCpuUs).toFixed(3) : ''} |`,
  ]
}

export const regressionHeader = (result: Regression) =>
  `${machineLine()}; wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${result.rounds} alternated rounds; this checkout ${result.landed} against ${result.baseline === result.commit ? result.commit : `${result.baseline} (${result.commit})`}`

if (import.meta.main) {
  const ref = baselineRef()
  if (!ref) {
    console.log('nothing to compare with (no release tag, and HEAD is main): set BENCH_BASELINE=<commit>')
    process.exit(0)
  }
  const result = await regressionBench(ref)
  const rows = regressionRows(result)
  console.log(regressionHeader(result))
  for (const row of rows) console.log(row)
  writeDocFigures('regression', regressionHeader(result), rows)
}
