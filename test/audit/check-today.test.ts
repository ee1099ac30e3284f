// docs/audit.md's day-one script (check-today.ts), run as published against files the service
// answered on the same day: today's proof and partial digest (issue 24 item 19).
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { docCode } from '../helpers/doc-sections'
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp, tempDir } from '../helpers/app'

const script = docCode('audit.md', 'check-today.ts', 'ts')

describe("docs/audit.md day-one script", () => {
  test("OK for a receipt of today with its proof and today's partial digest, also after the tree grew; FAIL for a changed receipt, another receipt's proof or a digest in another order", async () => {
    const harness = makeTestApp({ now: '2026-03-09T15:00:00.000Z' })
    await harness.deps.auditTrail.sealer.startedOn()
    const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
    const status = async () => (await harness.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })).body
    const receipts = []
    for (let i = 0; i < 5; i++) receipts.push(await status())
    const target = receipts[2]!
    const proof = (await harness.json(`/v5/audit/proof?receipt_id=${target.receipt_id}`)).body
    expect(proof).toMatchObject({ partial: true, tree_size: 5, leaf_index: 2 })
    // More receipts after the proof: the digest fetched later lists more ids.
    for (let i = 0; i < 3; i++) receipts.push(await status())
    const digest = (await harness.json('/v5/audit/digest')).body
    expect(digest).toMatchObject({ partial: true, date: '2026-03-09', total_receipts_issued: 8 })
    const keys = (await harness.json('/v5/keys')).body

    const dir = tempDir()
    const file = (name: string, value: unknown) => {
      writeFileSync(join(dir, name), JSON.stringify(value))
      return join(dir, name)
    }
    writeFileSync(join(dir, 'check-today.ts'), script)
    const run = (receipt: unknown, proofFile: unknown, digestFile: unknown) => Bun.spawnSync(['bun', join(dir, 'check-today.ts'), file('r.json', receipt), file('p.json', proofFile), file('d.json', digestFile), file('k.json', keys)]).stdout.toString().trim()

    expect(run(target, proof, digest)).toBe(`OK: receipt ${target.receipt_id} is leaf 2 of 5 in today's tree (2026-03-09, 8 receipts so far); after 00:00 UTC check it against the signed root with verify-audit.ts`)
    expect(run({ ...target, status: target.status === 'OPEN' ? 'CLOSED' : 'OPEN' }, proof, digest)).toBe('FAIL: receipt signature')
    expect(run(receipts[3], { ...proof, receipt_id: receipts[3]!.receipt_id }, digest)).toBe("FAIL: the audit path does not lead to the proof's root")
    const swapped = [...digest.receipt_ids]
    ;[swapped[0], swapped[1]] = [swapped[1], swapped[0]]
    expect(run(target, proof, { ...digest, receipt_ids: swapped })).toBe("FAIL: the digest's ids do not give the proof's root")
    expect(run(target, proof, { ...digest, receipt_ids: digest.receipt_ids.slice(0, 4) })).toStartWith('FAIL: the tree is past this page of ids')
  })
})
