// The verifier package in Node 20+: its cases on the compiled output (node --test), over the
// published vectors and those of a service in this process; and the publishable build (dist/,
// with declarations) imports and verifies in Node.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cases } from '../../packages/verify/test/cases'
import { publishedVectors } from '../helpers/verify-package-vectors'
import { serviceVectors } from '../helpers/signed-vectors'
import { tempDir } from '../helpers/app'

const ROOT = join(import.meta.dir, '../..')
const PACKAGE = join(ROOT, 'packages/verify')
const TSC = join(ROOT, 'node_modules/.bin/tsc')

function run(command: string[], env: Record<string, string> = {}, cwd = ROOT) {
  const result = Bun.spawnSync(command, { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  return { exitCode: result.exitCode, output: `${result.stdout.toString()}${result.stderr.toString()}` }
}

test('node --test runs every case on the compiled package, with the service’s vectors', async () => {
  const vectors = { ...publishedVectors(), service: await serviceVectors() }
  const file = join(tempDir(), 'vectors.json')
  writeFileSync(file, JSON.stringify(vectors))
  const built = run([TSC, '-p', join(PACKAGE, 'tsconfig.test.json')])
  expect(built).toEqual({ exitCode: 0, output: '' })
  const version = run(['node', '--version']).output.trim()
  expect(Number(/^v(\d+)/.exec(version)?.[1])).toBeGreaterThanOrEqual(20)
  const tested = run(['node', '--test', 'test/node.test.mjs'], { OPENBELL_VERIFY_VECTORS: file }, PACKAGE)
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tested.output)?.[1])
  expect({ exitCode: tested.exitCode, pass: count('pass'), fail: count('fail') }).toEqual({ exitCode: 0, pass: cases(vectors).length, fail: 0 })
}, 120_000)

test('the publishable build (dist/ with declarations) runs in Node: a signed object and a tlog-proof verify through its exports', async () => {
  const built = run([TSC, '-p', join(PACKAGE, 'tsconfig.build.json')])
  expect(built).toEqual({ exitCode: 0, output: '' })
  expect(await Bun.file(join(PACKAGE, 'dist/index.d.ts')).exists()).toBe(true)
  const vectors = await serviceVectors()
  const file = join(tempDir(), 'service.json')
  writeFileSync(file, JSON.stringify(vectors))
  const script = `import { verifySigned, verifyReceiptProof } from '@openbell/verify'
import { readFileSync } from 'node:fs'
const v = JSON.parse(readFileSync(${JSON.stringify(file)}, 'utf8'))
const live = v.objects[0]
const signed = verifySigned(live.object, v.keys, { now: live.at })
const proof = verifyReceiptProof(v.receiptText, v.proof, v.policy, { keys: v.keys, now: live.at })
console.log(JSON.stringify({ signed: signed.valid, kind: signed.kind, proof: proof.valid }))`
  // Resolved by its package name, as an installed dependency would be (the package's own exports map).
  const dir = tempDir()
  const moduleDir = join(dir, 'node_modules/@openbell')
  run(['mkdir', '-p', moduleDir])
  run(['ln', '-s', PACKAGE, join(moduleDir, 'verify')])
  run(['ln', '-s', join(ROOT, 'node_modules/@noble'), join(dir, 'node_modules/@noble')])
  writeFileSync(join(dir, 'check.mjs'), script)
  const checked = run(['node', '--preserve-symlinks', 'check.mjs'], {}, dir)
  expect(checked.output.trim()).toBe(JSON.stringify({ signed: true, kind: 'market_state', proof: true }))
}, 120_000)
