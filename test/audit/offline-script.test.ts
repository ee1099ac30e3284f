// docs/audit.md's offline verification script, run as published against files the service answered.
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { docCode } from '../helpers/doc-sections'
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp, tempDir } from '../helpers/app'

const script = docCode('audit.md', 'verify-audit.ts', 'ts')

describe('docs/audit.md offline script', () => {
  test('OK for a logged receipt in its sealed day; FAIL for a changed receipt id, a forged digest or an unsealed day', async () => {
    const harness = makeTestApp({ now: '2026-03-09T15:00:00.000Z' })
    await harness.deps.auditTrail.sealer.startedOn()
    const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
    const receipts = []
    for (let i = 0; i < 7; i++) receipts.push((await harness.json('/v5/status', { headers: { 'x-oracle-key': key } })).body)
    const dir = tempDir()
    const file = (name: string, value: unknown) => {
      writeFileSync(join(dir, name), JSON.stringify(value))
      return join(dir, name)
    }
    const scriptFile = join(dir, 'verify-audit.ts')
    writeFileSync(scriptFile, script)
    const run = (receipt: string, proof: string, digest: string, keys: string) => {
      const child = Bun.spawnSync(['bun', scriptFile, receipt, proof, digest, keys])
      return child.stdout.toString().trim()
    }
    const keys = file('keys.json', (await harness.json('/v5/keys')).body)
    const target = receipts[4]!
    const unsealedProof = file('proof0.json', (await harness.json(`/v5/audit/proof?receipt_id=${target.receipt_id}`)).body)
    expect(run(file('r.json', target), unsealedProof, file('d0.json', (await harness.json('/v5/audit/digest')).body), keys)).toStartWith('FAIL: the day is not sealed yet')

    harness.clock.set('2026-03-10T00:00:30.000Z')
    await harness.deps.auditTrail.sealer.tick()
    const proof = (await harness.json(`/v5/audit/proof?receipt_id=${target.receipt_id}`)).body
    const digest = (await harness.json('/v5/audit/digest?date=2026-03-09')).body
    expect(run(file('r.json', target), file('p.json', proof), file('d.json', digest), keys)).toBe(`OK: receipt ${target.receipt_id} is leaf 4 of 7 in the signed digest of 2026-03-09`)
    // Another receipt with this proof, a forged root, a forged count: all fail.
    expect(run(file('r2.json', { ...target, receipt_id: receipts[3]!.receipt_id }), file('p.json', { ...proof, receipt_id: receipts[3]!.receipt_id }), file('d.json', digest), keys)).toStartWith('FAIL: receipt is not in the signed root')
    expect(run(file('r.json', target), file('p.json', proof), file('d2.json', { ...digest, receipt: { ...digest.receipt, merkle_root: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' } }), keys)).toBe('FAIL: digest signature')
    expect(run(file('r.json', target), file('p3.json', { ...proof, tree_size: 8 }), file('d.json', digest), keys)).toBe('FAIL: tree size differs from the signed count')
  })
})
