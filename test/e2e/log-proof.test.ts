// A receipt's proof outlives the service: a live service answers a receipt, its tlog-proof, its
// policy and its keys; the service is stopped; the verifier package and `openbell log verify --proof` (run as a process,
// with no service to reach) verifies the receipt was logged and witnessed, and fails, naming the
// reason, for a proof whose path, checkpoint, cosignature or extra line was altered, for a
// policy asking two witnesses, and for another receipt.
import { expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'
import { tempDir } from '../helpers/app'
import { startService, waitFor } from '../helpers/process'
import { openDatabase } from '../../src/store/database'
import { applyMigrations } from '../../src/store/migrate'
import { MIGRATIONS } from '../../src/wiring/migrations'
import { sqliteAccountStore } from '../../src/accounts/store'
import { issueKey } from '../../src/accounts/keys'
import { runLogProofCommand } from '../../src/cli/log-proof'
import { verifyReceiptProof } from '@openbell/verify'

const MAIN = resolve(import.meta.dir, '../../src/main.ts')

/** Another witness's Ed25519 cosigner vkey (type 0x04), of a made-up key. */
function otherWitness(): string {
  const key = Buffer.alloc(32, 9)
  const id = createHash('sha256').update('other.example/w\n').update(Buffer.of(0x04)).update(key).digest().subarray(0, 4).toString('hex')
  return `other.example/w+${id}+${Buffer.concat([Buffer.of(0x04), key]).toString('base64')}`
}

async function cli(args: string[]) {
  // No network: the service is gone, and no URL is given.
  const child = Bun.spawn(['bun', MAIN, 'log', 'verify', ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, LOG_LEVEL: 'error' } })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, stdout, stderr }
}

test('a receipt, its proof and policy verify offline after the service has stopped; each alteration fails for its reason', async () => {
  const dataDir = tempDir('openbell-proof-e2e-')
  const db = openDatabase(join(dataDir, 'openbell.sqlite'))
  applyMigrations(db, MIGRATIONS)
  const { key } = await issueKey(sqliteAccountStore(db), { plan: 'pro', now: new Date() })
  db.close()
  const service = await startService({ DATA_DIR: dataDir, ISSUER: 'proof.test', PUBLIC_BASE_URL: 'https://proof.test' })
  const dir = tempDir()
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text)
    return join(dir, name)
  }
  let receiptText: string, proof: string, policy: string, keys: string
  try {
    // Four receipts, so the proof of the second has a path to alter.
    const answers: string[] = []
    for (let i = 0; i < 4; i++) answers.push(await (await fetch(`${service.base}/v5/status?mic=XNYS`, { headers: { 'x-oracle-key': key } })).text())
    receiptText = answers[1]!
    const id = JSON.parse(receiptText).receipt_id
    // Before the next checkpoint: 404 with Retry-After, or already the proof.
    const early = await fetch(`${service.base}/log/proof/receipt/${id}`)
    if (early.status === 404) expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0)
    proof = await waitFor(async () => {
      const response = await fetch(`${service.base}/log/proof/receipt/${id}`)
      const text = response.status === 200 ? await response.text() : null
      // The newest checkpoint covers all four.
      return text && /\nindex 1\n(.+\n){2}\n/.test(text) ? text : undefined
    }, 10_000, 'the receipt\'s proof')
    policy = await (await fetch(`${service.base}/log/policy`)).text()
    keys = await (await fetch(`${service.base}/v5/keys`)).text()
  } finally {
    service.process.kill('SIGTERM')
    await service.process.exited
  }
  // The service is gone: the package checks the same files (it makes no request).
  const packaged = verifyReceiptProof(receiptText, proof, policy, { keys: JSON.parse(keys), now: Date.parse(JSON.parse(receiptText).issued_at) })
  expect([packaged.valid, packaged.signature?.valid, packaged.proof.cosignatures?.length]).toEqual([true, true, 2])
  const files = { receipt: file('receipt.json', receiptText), proof: file('receipt.tlog-proof', proof), policy: file('policy.txt', policy), keys: file('keys.json', keys) }
  const ok = await cli(['--proof', files.proof, '--policy', files.policy, '--receipt', files.receipt, '--keys', files.keys])
  expect({ code: ok.code, stderr: ok.stderr }).toEqual({ code: 0, stderr: '' })
  expect(ok.stdout).toContain('OK: receipt')
  expect(ok.stdout).toMatch(/witness proof\.test\/witness#ml-dsa-44 .*cosigned/)
  // Without the receipt: the checkpoint and quorum are checked, the inclusion is said to be not.
  const partial = await cli(['--proof', files.proof, '--policy', files.policy])
  expect(partial.code).toBe(0)
  expect(partial.stdout).toContain('was not checked: give --receipt')

  const lines = proof.split('\n')
  const blank = lines.indexOf('', 2)
  const flip = (base64: string, at = 0) => Buffer.from(Buffer.from(base64, 'base64').map((byte, i) => (i === at ? byte ^ 1 : byte))).toString('base64')
  const variant = (at: number, change: (line: string) => string) => lines.map((line, i) => (i === at ? change(line) : line)).join('\n')
  const witnessLine = lines.findIndex((line) => line.startsWith('\u2014 proof.test/witness '))
  const failures: [string, string, string[]][] = [
    ['inclusion path', 'inclusion_failed', [variant(3, (line) => flip(line)), files.policy, files.receipt]],
    ['checkpoint', 'log_signature_invalid', [variant(blank + 3, (line) => flip(line)), files.policy, files.receipt]],
    ['cosignature', 'cosignature_invalid', [variant(witnessLine, (line) => `${line.split(' ').slice(0, 2).join(' ')} ${flip(line.split(' ')[2]!, 30)}`), files.policy, files.receipt]],
    ['extra line', 'extra_mismatch', [variant(1, () => `extra ${Buffer.from('00000000-0000-4000-8000-000000000000').toString('base64')}`), files.policy, files.receipt]],
    ['quorum of two', 'quorum_not_met', [proof, file('two.txt', policy.replace(/^quorum .*$/m, `witness other ${otherWitness()}\ngroup two 2 proof.test/witness other\nquorum two`)), files.receipt]],
    ['another receipt', 'inclusion_failed', [proof, files.policy, file('other.json', receiptText.replace(/"status":"\w+"/, '"status":"UNKNOWN"'))]],
  ]
  // The first as a process, the others through the same command in this process (faster, same code).
  for (const [i, [name, reason, [proofText, policyFile, receiptFile]]] of failures.entries()) {
    const args = ['--proof', file(`${name}.tlog-proof`, proofText!), '--policy', policyFile!, '--receipt', receiptFile!]
    const out: string[] = []
    const code = i === 0 ? (await cli(args)).code : runLogProofCommand(args, (line) => out.push(line), (line) => out.push(line))
    const first = i === 0 ? (await cli(args)).stdout : out.join('\n')
    expect({ name, code, reason: /^FAIL: (\w+):/.exec(first)?.[1] }).toEqual({ name, code: 1, reason })
  }
  expect((await cli(['--proof', files.proof])).code).toBe(2)
  expect((await cli(['--proof', join(dir, 'missing'), '--policy', files.policy])).code).toBe(2)
}, 240_000)
