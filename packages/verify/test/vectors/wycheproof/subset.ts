// Makes the two gzipped subsets of C2SP Wycheproof's ML-DSA-44 vectors stored beside this file
// (README.md says what is kept and why). Every kept test, and every kept group's members, are the
// published ones unchanged; only whole tests are left out. Run with Bun from a Wycheproof clone:
//   bun subset.ts <path of a clone of github.com/C2SP/wycheproof> [commit]
import { gzipSync } from 'node:zlib'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

const [clone, commit = 'dac1dd4729fd1f8dd9e1e9f3dce51d783da6c166'] = process.argv.slice(2)
if (!clone) throw new Error('usage: bun subset.ts <wycheproof clone> [commit]')
const repo: string = clone

type Test = { tcId: number; comment: string; msg?: string; ctx?: string; sig: string; result: string; flags: string[] }
type Group = { publicKey?: string | null; tests: Test[]; [member: string]: unknown }
type File = { testGroups: Group[]; [member: string]: unknown }

function published(path: string): File {
  const shown = Bun.spawnSync(['git', '-C', repo, 'show', `${commit}:${path}`], { stdout: 'pipe', stderr: 'pipe' })
  if (shown.exitCode !== 0) throw new Error(shown.stderr.toString())
  return JSON.parse(shown.stdout.toString())
}

const iterations = (test: Test) => /^signature that takes \d+ iteration\(s\)$/.test(test.comment)
/** Of the signing rejection-loop series, the tests taking 1, 2, 5, 10, 20 and 39 (the most) iterations. */
const KEPT_ITERATIONS = new Set([1, 2, 5, 10, 20, 39])
/** Of the 42 infinity-norm violations: one in each direction in each of z's four polynomials, and both boundary cases. */
const KEPT_NORM_VIOLATIONS = new Set([81, 82, 91, 92, 101, 102, 111, 114, 125, 126])

function subset(file: File, keep: (group: Group, test: Test) => boolean): File {
  const testGroups = file.testGroups.map((group) => ({ ...group, tests: group.tests.filter((test) => keep(group, test)) })).filter((group) => group.tests.length)
  return { ...file, testGroups, numberOfTests: testGroups.reduce((sum, group) => sum + group.tests.length, 0) }
}

const sign = subset(published('testvectors_v1/mldsa_44_sign_seed_test.json'), (_, test) => !iterations(test) || KEPT_ITERATIONS.has(Number(/\d+/.exec(test.comment)![0])))
const signed = new Set(sign.testGroups.flatMap((group) => group.tests.map((test) => JSON.stringify([group.publicKey, test.msg, test.ctx ?? '', test.sig]))))
const verify = subset(published('testvectors_v1/mldsa_44_verify_test.json'), (group, test) => {
  if (test.flags.includes('InfinityNormViolation')) return KEPT_NORM_VIOLATIONS.has(test.tcId)
  if (test.result !== 'valid') return true
  // A valid signature the sign subset holds is verified there; the rest of the iteration series only tests signing.
  return !signed.has(JSON.stringify([group.publicKey, test.msg, test.ctx ?? '', test.sig])) && !iterations(test)
})

const here = import.meta.dir
for (const [name, file] of [['mldsa_44_verify_test.subset.json.gz', verify], ['mldsa_44_sign_seed_test.subset.json.gz', sign]] as const) {
  const bytes = gzipSync(`${JSON.stringify({ source: { repository: 'https://github.com/C2SP/wycheproof', commit }, ...file }, null, 1)}\n`, { level: 9 })
  writeFileSync(join(here, name), bytes)
  console.log(`${name}: ${file.numberOfTests} tests, ${bytes.length} bytes`)
}
