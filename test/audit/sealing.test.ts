// Daily sealing: digests sealed once and in order (also after missed midnights and clock jumps),
// empty days sealed, in-flight receipts included, signed digests verifiable, the chain checked,
// proofs against sealed roots (also after pruning), and tampering detected.
import { describe, expect, test } from 'bun:test'
import { issueKey } from '../../src/accounts/keys'
import { sqliteDeps } from '../../src/wiring/sqlite'
import { buildApp } from '../../src/app'
import { AuditLog } from '../../src/audit/log'
import { sqliteAuditStore, type DigestRow } from '../../src/audit/store'
import { sealedDigest } from '../../src/audit/digest'
import { auditRowOf } from '../../src/audit/record'
import { verifyInclusion, EMPTY_ROOT_HEX, leafHash, rootOf, toHex } from '../../src/audit/merkle'
import { openDatabase } from '../../src/store/database'
import { SEAL_CHECK_MS, SEAL_GRACE_MS } from '../../src/audit/sealer'
import { waitFor } from '../helpers/process'
import { makeTestApp, type TestApp } from '../helpers/app'
import { verifyWithRegistry } from '../helpers/verify'

const DAY1 = '2026-03-09T15:00:00.000Z'

async function setup(now = DAY1) {
  const harness = makeTestApp({ now })
  const { key } = await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date(harness.clock.now()) })
  // The chain starts on the first start.
  await harness.deps.auditTrail.sealer.startedOn()
  const status = async (mic = 'XNYS') => {
    const response = await harness.json(`/v5/status?mic=${mic}`, { headers: { 'x-oracle-key': key } })
    expect(response.status).toBe(200)
    return response.body as Record<string, string>
  }
  return { harness, key, status }
}

const digest = (harness: TestApp, date: string) => harness.json(`/v5/audit/digest?date=${date}`)

describe('sealing', () => {
  test('seals the previous day just after midnight, once; the row is append-only; the signed digest verifies', async () => {
    const { harness, status } = await setup()
    const ids = [(await status()).receipt_id!, (await status("XLON")).receipt_id!, (await status()).receipt_id!]
    const partial = await digest(harness, '2026-03-09')
    expect(partial.body).toMatchObject({ date: '2026-03-09', partial: true, total_receipts_issued: 3, receipt_ids: ids, exchanges_attested: ['XLON', 'XNYS'], previous_day_merkle_root: null, chain_length: 1 })
    expect(partial.body.merkle_root).toBe(toHex(rootOf(ids.map(leafHash))))
    expect(partial.body.receipt).toBeUndefined()

    harness.clock.set('2026-03-10T00:00:01.000Z')
    expect(await harness.deps.auditTrail.sealer.tick()).toEqual([]) // inside the grace period
    // Yesterday not sealed yet and today begun: a proof of yesterday's receipt is against yesterday's current tree.
    await status()
    const early = (await harness.json(`/v5/audit/proof?receipt_id=${ids[1]}`)).body
    expect(early).toMatchObject({ date: '2026-03-09', leaf_index: 1, tree_size: 3, merkle_root: partial.body.merkle_root, partial: true })
    expect(verifyInclusion(ids[1]!, 1, 3, early.audit_path, early.merkle_root)).toBe(true)
    // Today's partial digest links to yesterday's root (not sealed yet, but it is the root that will be) and counts the chain from its start.
    expect((await digest(harness, '2026-03-10')).body).toMatchObject({ partial: true, total_receipts_issued: 1, previous_day_merkle_root: partial.body.merkle_root, chain_length: 2 })
    harness.clock.set('2026-03-10T00:00:20.000Z')
    expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-09'])
    expect(await harness.deps.auditTrail.sealer.tick()).toEqual([])
    const sealed = await digest(harness, '2026-03-09')
    expect(sealed.body).toMatchObject({ partial: false, total_receipts_issued: 3, receipt_ids: ids, merkle_root: partial.body.merkle_root, previous_day_merkle_root: null, chain_length: 1, computed_at: '2026-03-10T00:00:20.000Z' })
    const signed = sealed.body.receipt
    expect(signed).toMatchObject({ date: '2026-03-09', merkle_root: partial.body.merkle_root, previous_day_merkle_root: '', total_receipts_issued: '3', chain_length: '1', exchanges_attested: '["XLON","XNYS"]', issuer: 'oracle.test' })
    const keys = (await harness.json('/v5/keys')).body
    // Exactly digest_fields; the log's size holding the day is in the separately signed log receipt.
    expect(Object.keys(signed).filter((k) => k !== 'signature').sort()).toEqual(keys.canonical_payload_spec.digest_fields)
    const logReceipt = sealed.body.log_receipt
    expect(Object.keys(logReceipt).filter((k) => k !== 'signature').sort()).toEqual(keys.canonical_payload_spec.digest_log_fields)
    expect(logReceipt).toMatchObject({ type: 'audit.digest-log/1', date: '2026-03-09', merkle_root: partial.body.merkle_root, log_tree_size: '3', log_origin: 'oracle.test/log', issuer: 'oracle.test', public_key_id: signed.public_key_id })
    expect(sealed.body.log_tree_size).toBe(3)
    expect(sealed.body).not.toHaveProperty('receipt_with_log_tree_size')
    expect(verifyWithRegistry(keys, signed)).toBe(true)
    expect(verifyWithRegistry(keys, logReceipt)).toBe(true)
    expect((await harness.json('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: logReceipt }) })).body).toMatchObject({ valid: true, expired: false, receipt_type: 'digest_log_fields', unsigned_members: [] })
    expect(verifyWithRegistry(keys, { ...signed, merkle_root: EMPTY_ROOT_HEX })).toBe(false)
    const verified = await harness.json('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: signed }) })
    expect(verified.body).toMatchObject({ valid: true, expired: false, reason: 'SIGNATURE_VALID', receipt_type: 'digest_fields' })
    const forged = await harness.json('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt: { ...signed, total_receipts_issued: '2' } }) })
    expect(forged.body).toMatchObject({ valid: false, reason: 'INVALID_SIGNATURE' })

    expect(() => harness.db.run("UPDATE audit_digests SET merkle_root = 'x'")).toThrow(/append-only/)
    expect(() => harness.db.run('DELETE FROM audit_digests')).toThrow(/append-only/)
    expect(() => harness.db.run("UPDATE audit_log SET receipt_id = 'x'")).toThrow(/append-only/)
    expect(() => harness.db.run('DELETE FROM audit_log')).toThrow(/append-only/)
    // A day once sealed refuses late rows instead of missing them.
    harness.clock.set('2026-03-09T23:59:59.000Z')
    const late = await harness.json('/v5/status', { headers: { 'x-oracle-key': (await issueKey(harness.deps.accounts, { plan: 'pro', now: new Date() })).key } })
    expect(late.status).toBe(503)
    expect(late.body.error).toBe('AUDIT_LOG_UNAVAILABLE')
    expect((await digest(harness, '2026-03-09')).body.total_receipts_issued).toBe(3)
  })

  test('a receipt still in flight at midnight is in its day: sealing commits it first', async () => {
    const { harness, key } = await setup('2026-03-09T23:59:59.990Z')
    // A log whose timer would commit only after a minute: the row waits, and sealing must not overtake it.
    const slowLog = new AuditLog(sqliteAuditStore(harness.db), harness.log, { flushMs: 60_000 })
    const deps = sqliteDeps({ config: harness.config, clock: harness.clock, log: harness.log, signer: harness.deps.signer, calendars: harness.deps.calendars, db: harness.db }, { audit: slowLog, accounts: harness.deps.accounts })
    const app = buildApp(deps)
    const pending = app.handle(new Request('http://localhost/v5/status', { headers: { 'x-oracle-key': key } })).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, string> }))
    while (slowLog.pending === 0) await Bun.sleep(1)
    harness.clock.set('2026-03-10T00:00:30.000Z')
    expect(await deps.auditTrail.sealer.tick()).toEqual(['2026-03-09'])
    const answered = await pending
    expect(answered.status).toBe(200)
    expect(answered.body.issued_at!.slice(0, 10)).toBe('2026-03-09')
    expect((await digest(harness, '2026-03-09')).body.receipt_ids).toEqual([answered.body.receipt_id])
  })

  test('the running job (as main.ts starts it) seals at once after a clock moved forward by hours, and within its interval after a midnight', async () => {
    const { harness, status } = await setup()
    await status()
    expect(SEAL_GRACE_MS + SEAL_CHECK_MS).toBeLessThanOrEqual(150_000)
    const sealedDates = () => (harness.db.query('SELECT date FROM audit_digests ORDER BY date').all() as { date: string }[]).map((row) => row.date)
    harness.clock.set('2026-03-10T02:00:00.000Z') // 11 hours on, past midnight
    const stop = harness.deps.auditTrail.sealer.start()
    try {
      await waitFor(() => sealedDates().length === 1, 2000, 'the seal at start')
      expect(sealedDates()).toEqual(['2026-03-09'])
      // The next midnight passes while the job runs: sealed by the interval, without a call from here.
      harness.clock.set(new Date(Date.parse('2026-03-11T00:00:00.000Z') + SEAL_GRACE_MS).toISOString())
      await waitFor(() => sealedDates().length === 2, SEAL_CHECK_MS + 2000, 'the seal after midnight')
      expect(sealedDates()).toEqual(['2026-03-09', '2026-03-10'])
      expect((await digest(harness, '2026-03-10')).body).toMatchObject({ partial: false, total_receipts_issued: 0, chain_length: 2 })
    } finally {
      stop()
    }
  }, 20_000)

  test('two processes over one database (REUSE_PORT): a row of a day the other process sealed is refused, not logged outside its root', async () => {
    const harness = makeTestApp({ now: '2026-03-09T23:59:59.000Z', fileDatabase: true })
    await harness.deps.auditTrail.sealer.startedOn()
    // Process B: its own connection and its own log, which has not seen the seal yet.
    const other = openDatabase(harness.config.databasePath)
    const logB = new AuditLog(sqliteAuditStore(other), harness.log)
    const late = auditRowOf({ receipt_id: crypto.randomUUID(), issued_at: '2026-03-09T23:59:59.500Z', schema_version: 'v5.0', mic: 'XNYS', status: 'CLOSED', source: 'SCHEDULE' }, { surface: '/v5/status', keyHash: 'b'.repeat(64) })
    const today = auditRowOf({ receipt_id: crypto.randomUUID(), issued_at: '2026-03-10T00:00:31.000Z', schema_version: 'v5.0', mic: 'XNYS', status: 'CLOSED', source: 'SCHEDULE' }, { surface: '/v5/status', keyHash: 'b'.repeat(64) })
    harness.clock.set('2026-03-10T00:00:30.000Z')
    expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-09'])
    // The late row and a row of today arrive in one batch of B: the late one is refused, today's is logged.
    const [lateAnswer, todayAnswer] = await Promise.allSettled([logB.append([late]), logB.append([today])])
    expect(lateAnswer.status).toBe('rejected')
    expect(((lateAnswer as PromiseRejectedResult).reason as { errorCode: string }).errorCode).toBe('AUDIT_LOG_UNAVAILABLE')
    expect(todayAnswer.status).toBe('fulfilled')
    expect(logB.sealedThrough).toBe('2026-03-09')
    expect(harness.db.query("SELECT count(*) AS n FROM audit_log WHERE day = '2026-03-09'").get()).toEqual({ n: 0 })
    expect(harness.db.query('SELECT receipt_id FROM audit_log').all()).toEqual([{ receipt_id: today.receipt_id }])
    other.close()
  })

  test('a start after missed midnights, and a clock moved forward by weeks, seal every day in order; empty days too', async () => {
    const { harness, status } = await setup()
    const first = await status()
    // "Restart" three days later: a fresh log and sealer over the same database.
    harness.clock.set('2026-03-12T08:00:00.000Z')
    const restarted = sqliteDeps({ config: harness.config, clock: harness.clock, log: harness.log, signer: harness.deps.signer, calendars: harness.deps.calendars, db: harness.db })
    expect(await restarted.auditTrail.sealer.tick()).toEqual(['2026-03-09', '2026-03-10', '2026-03-11'])
    harness.clock.set('2026-04-02T12:00:00.000Z')
    const sealed = await restarted.auditTrail.sealer.tick()
    expect(sealed[0]).toBe('2026-03-12')
    expect(sealed.at(-1)).toBe('2026-04-01')
    expect(sealed).toHaveLength(21)
    const empty = await digest(harness, '2026-03-10')
    expect(empty.body).toMatchObject({ total_receipts_issued: 0, receipt_ids: [], merkle_root: EMPTY_ROOT_HEX, exchanges_attested: [], partial: false, chain_length: 2 })
    const chain = await harness.json('/v5/audit/chain?days=30')
    expect(chain.body).toMatchObject({ chain_length: 24, chain_intact: true, latest_date: '2026-04-01', oldest_date: '2026-03-09' })
    expect(chain.body.digests).toHaveLength(24)
    for (let i = 0; i + 1 < chain.body.digests.length; i++) expect(chain.body.digests[i].previous_day_merkle_root).toBe(chain.body.digests[i + 1].merkle_root)
    expect(chain.body.digests.at(-1)).toMatchObject({ date: '2026-03-09', previous_day_merkle_root: null })
    // The proof of the first receipt is against its sealed root.
    const proof = await harness.json(`/v5/audit/proof?receipt_id=${first.receipt_id}`)
    expect(proof.body).toMatchObject({ date: '2026-03-09', leaf_index: 0, tree_size: 1, sealed: true })
    expect(proof.body.merkle_root).toBe((await digest(harness, '2026-03-09')).body.merkle_root)
    expect(verifyInclusion(first.receipt_id!, 0, 1, proof.body.audit_path, proof.body.merkle_root)).toBe(true)
  })
})

describe('chain, proofs, pruning and tampering', () => {
  test('proofs for today are against the current tree; after sealing against the signed root; they survive pruning', async () => {
    const { harness, status } = await setup()
    const receipts = []
    for (let i = 0; i < 13; i++) receipts.push(await status(i % 2 ? 'XLON' : 'XNYS'))
    const today = await harness.json(`/v5/audit/proof?receipt_id=${receipts[5]!.receipt_id}`)
    expect(today.body).toMatchObject({ date: '2026-03-09', leaf_index: 5, tree_size: 13, partial: true, sealed: false })
    expect(today.body.merkle_root).toBe((await digest(harness, '2026-03-09')).body.merkle_root)
    expect(verifyInclusion(receipts[5]!.receipt_id!, 5, 13, today.body.audit_path, today.body.merkle_root)).toBe(true)

    harness.clock.set('2026-03-10T00:01:00.000Z')
    await harness.deps.auditTrail.sealer.tick()
    const sealedRoot = (await digest(harness, '2026-03-09')).body.receipt.merkle_root
    for (const [index, receipt] of receipts.entries()) {
      const proof = (await harness.json(`/v5/audit/proof?receipt_id=${receipt.receipt_id}`)).body
      expect(proof).toMatchObject({ leaf_index: index, tree_size: 13, merkle_root: sealedRoot, sealed: true })
      expect(verifyInclusion(receipt.receipt_id!, index, 13, proof.audit_path, sealedRoot)).toBe(true)
    }

    // 40 days later (retention 35): bodies pruned, proofs and digests unchanged.
    harness.clock.set('2026-04-18T12:00:00.000Z')
    await harness.deps.auditTrail.sealer.tick()
    // Bodies are pruned once the transparency log holds them (its job runs in the background).
    await harness.deps.transparency.integrator.tick()
    expect(await harness.deps.auditTrail.retention.tick()).toBe(13)
    expect((harness.db.query('SELECT count(*) AS n FROM audit_log WHERE receipt_json IS NOT NULL').get() as { n: number }).n).toBe(0)
    const after = (await harness.json(`/v5/audit/proof?receipt_id=${receipts[12]!.receipt_id}`)).body
    expect(verifyInclusion(receipts[12]!.receipt_id!, 12, 13, after.audit_path, sealedRoot)).toBe(true)
    expect((await digest(harness, '2026-03-09')).body.receipt_ids).toEqual(receipts.map((r) => r.receipt_id))
  })

  test('pruning a large day runs in short transactions with the event loop free in between, and resumes after the last pruned day', async () => {
    const { harness } = await setup()
    const rows = Array.from({ length: 10_000 }, (_, i) => auditRowOf({ receipt_id: crypto.randomUUID(), issued_at: new Date(Date.parse(DAY1) + i).toISOString(), schema_version: 'v5.0', mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE' }, { surface: '/v5/status', keyHash: 'a'.repeat(64) }))
    await harness.deps.audit.append(rows)
    harness.clock.set('2026-04-18T12:00:00.000Z')
    await harness.deps.auditTrail.sealer.tick()
    await harness.deps.transparency.integrator.tick()
    const bodies = () => (harness.db.query('SELECT count(*) AS n FROM audit_log WHERE receipt_json IS NOT NULL').get() as { n: number }).n
    // A probe that runs whenever the event loop is free: it must see the day partly pruned.
    const seen: number[] = []
    let probing = true
    const probe = () => {
      seen.push(bodies())
      if (probing) setImmediate(probe)
    }
    setImmediate(probe)
    const pruned = await harness.deps.auditTrail.retention.tick()
    probing = false
    expect(pruned).toBe(10_000)
    expect(bodies()).toBe(0)
    expect(seen.some((n) => n > 0 && n < 10_000)).toBe(true)
    // Nothing left: the next run starts after the last pruned day and prunes nothing.
    expect(await harness.deps.auditTrail.retention.tick()).toBe(0)
    expect(harness.log.lines.filter((line) => line.msg === 'audit receipt bodies pruned')).toHaveLength(1)
  })

  test('a sealed day of several blocks: block roots are stored, so proofs after a restart read one block', async () => {
    const { harness } = await setup()
    const rows = Array.from({ length: 2500 }, (_, i) => auditRowOf({ receipt_id: crypto.randomUUID(), issued_at: new Date(Date.parse(DAY1) + i).toISOString(), schema_version: 'v5.0', mic: 'XNYS', status: 'OPEN', source: 'SCHEDULE' }, { surface: '/v5/status', keyHash: 'a'.repeat(64) }))
    await harness.deps.audit.append(rows)
    // Before sealing: found through the day's tree, across block edges, against the current root.
    for (const index of [0, 1023, 1024, 2048, 2499]) {
      const proof = (await harness.json(`/v5/audit/proof?receipt_id=${rows[index]!.receipt_id}`)).body
      expect(proof).toMatchObject({ leaf_index: index, tree_size: 2500, partial: true })
      expect(verifyInclusion(rows[index]!.receipt_id, index, 2500, proof.audit_path, proof.merkle_root)).toBe(true)
    }
    harness.clock.set('2026-03-10T00:01:00.000Z')
    await harness.deps.auditTrail.sealer.tick()
    expect(harness.db.query('SELECT count(*) AS n FROM audit_blocks').get()).toEqual({ n: 2 })
    const root = (await digest(harness, '2026-03-09')).body.merkle_root
    expect(root).toBe(toHex(rootOf(rows.map((row) => leafHash(row.receipt_id)))))
    const restarted = sqliteDeps({ config: harness.config, clock: harness.clock, log: harness.log, signer: harness.deps.signer, calendars: harness.deps.calendars, db: harness.db })
    const app = buildApp(restarted)
    for (const index of [0, 1023, 1024, 2047, 2048, 2499]) {
      const proof = (await (await app.handle(new Request(`http://localhost/v5/audit/proof?receipt_id=${rows[index]!.receipt_id}`))).json()) as { leaf_index: number; audit_path: string[]; merkle_root: string }
      expect(proof.leaf_index).toBe(index)
      expect(proof.merkle_root).toBe(root)
      expect(verifyInclusion(rows[index]!.receipt_id, index, 2500, proof.audit_path, root)).toBe(true)
    }
    expect(() => harness.db.run('DELETE FROM audit_blocks')).toThrow(/append-only/)
  })

  test('404 for demo, sample-door and unknown ids; 400 for a malformed id', async () => {
    const { harness } = await setup()
    const demo = (await harness.json('/v5/demo')).body
    expect((await harness.json(`/v5/audit/proof?receipt_id=${demo.receipt_id}`)).status).toBe(404)
    const sample = (await harness.json('/v1/safe-to-trade/sample?max_age=30')).body
    expect((await harness.json(`/v5/audit/proof?receipt_id=${sample.receipt_id}`)).body.error).toBe('RECEIPT_NOT_FOUND')
    expect((await harness.json(`/v5/audit/proof?receipt_id=${crypto.randomUUID()}`)).status).toBe(404)
    expect((await harness.json('/v5/audit/proof?receipt_id=nope')).body.error).toBe('INVALID_RECEIPT_ID')
    expect((await harness.json('/v5/audit/proof')).status).toBe(400)
  })

  test('tampering with one stored id breaks its proof; tampering with a sealed root breaks chain_intact', async () => {
    const { harness, status } = await setup()
    const receipts = [await status(), await status(), await status()]
    harness.clock.set('2026-03-10T12:00:00.000Z')
    await status()
    harness.clock.set('2026-03-11T00:01:00.000Z')
    await harness.deps.auditTrail.sealer.tick()
    expect((await harness.json('/v5/audit/chain')).body.chain_intact).toBe(true)
    // Someone with database access bypasses the append-only triggers.
    harness.db.run('DROP TRIGGER audit_log_prune_only')
    harness.db.run(`UPDATE audit_log SET receipt_id = '${crypto.randomUUID()}' WHERE receipt_id = '${receipts[0]!.receipt_id}'`)
    const proof = (await harness.json(`/v5/audit/proof?receipt_id=${receipts[2]!.receipt_id}`)).body
    expect(verifyInclusion(receipts[2]!.receipt_id!, 2, 3, proof.audit_path, proof.merkle_root)).toBe(false)
    harness.db.run('DROP TRIGGER audit_digests_no_update')
    harness.db.run(`UPDATE audit_digests SET merkle_root = '${EMPTY_ROOT_HEX}' WHERE date = '2026-03-09'`)
    expect((await harness.json('/v5/audit/chain')).body.chain_intact).toBe(false)
  })

  for (const [date, which] of [['2026-03-10', 'a middle day'], ['2026-03-09', 'the first day (its link must be empty)']] as const) {
    test(`a digest re-sealed with only its previous-day link changed breaks chain_intact and the compliance check: ${which}`, async () => {
      const { harness, status } = await setup()
      for (const at of ['2026-03-09T15:00:00.000Z', '2026-03-10T15:00:00.000Z', '2026-03-11T15:00:00.000Z']) {
        harness.clock.set(at)
        await status()
      }
      harness.clock.set('2026-03-12T00:01:00.000Z')
      expect(await harness.deps.auditTrail.sealer.tick()).toEqual(['2026-03-09', '2026-03-10', '2026-03-11'])
      expect((await harness.json('/v5/audit/chain')).body.chain_intact).toBe(true)
      // Whoever holds the database and the signing key re-seals the day as if it followed another
      // day: the same root, count, date and chain length, a valid signature, a mirror that agrees
      // with the row. Only its link to the day before is wrong, and only the link check sees it.
      const stored = harness.db.query('SELECT * FROM audit_digests WHERE date = ?').get(date) as DigestRow
      const otherDayBefore = { merkle_root: EMPTY_ROOT_HEX, chain_length: stored.chain_length - 1 } as DigestRow
      const forged = sealedDigest(harness.deps.signer, harness.config.issuer, date, { rootHex: stored.merkle_root, size: stored.total_receipts_issued }, JSON.parse(stored.exchanges_attested), otherDayBefore, stored.computed_at)
      expect([forged.merkle_root, forged.chain_length, forged.previous_day_merkle_root]).toEqual([stored.merkle_root, stored.chain_length, EMPTY_ROOT_HEX])
      expect(stored.previous_day_merkle_root).not.toBe(EMPTY_ROOT_HEX)
      harness.db.run('DROP TRIGGER audit_digests_no_update')
      harness.db.query('UPDATE audit_digests SET previous_day_merkle_root = ?, signed_json = ? WHERE date = ?').run(forged.previous_day_merkle_root, forged.signed_json, date)
      const keys = (await harness.json('/v5/keys')).body
      const chain = (await harness.json('/v5/audit/chain')).body
      expect(verifyWithRegistry(keys, chain.digests.find((digest: { date: string }) => digest.date === date).receipt)).toBe(true)
      expect(chain.chain_intact).toBe(false)
      const check = (await harness.json('/v5/compliance')).body.checks.find((item: { check: string }) => item.check === 'audit_chain')
      expect(check).toMatchObject({ status: 'fail', evidence: expect.stringContaining('BROKEN') })
    })
  }

  test('digest and chain errors', async () => {
    const { harness } = await setup()
    for (const bad of ['2026-02-30', '2026-3-01', 'yesterday', '2026-13-01']) {
      const response = await digest(harness, bad)
      expect(response.status).toBe(400)
      expect(response.body.error).toBe('INVALID_DATE')
    }
    expect((await digest(harness, '2026-03-10')).status).toBe(400)
    expect((await digest(harness, '2026-03-08')).body.error).toBe('DIGEST_NOT_FOUND')
    expect((await harness.json('/v5/audit/digest')).body).toMatchObject({ date: '2026-03-09', partial: true, total_receipts_issued: 0, merkle_root: EMPTY_ROOT_HEX })
    expect((await harness.json('/v5/audit/chain?days=31')).status).toBe(400)
    expect((await harness.json('/v5/audit/chain?days=0')).body.error).toBe('INVALID_DAYS')
    expect((await harness.json('/v5/audit/chain')).body).toEqual({ chain_length: 0, chain_intact: true, latest_date: null, oldest_date: null, digests: [] })
  })
})
