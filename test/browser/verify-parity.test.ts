// The verify page's verifier (board/client/verify-core.ts over the verifier package, run here in
// Bun without a browser; Chromium runs the same code) and the service's POST /v5/verify must agree: what one
// calls valid the other calls valid, for real receipts of every type and for each way of spoiling
// one (a changed member, a non-canonical or malformed signature, a missing member, a foreign key
// id, an expired receipt). Otherwise the page would vouch for what the service refuses, or the
// reverse. It sits in test/browser because its type check needs the DOM's lib.
import { describe, expect, test } from 'bun:test'
import { verifyReceipt, type KeyRegistry } from '../../src/board/client/verify-core'
import { receiptType, signedFieldsOf } from '../../src/crypto/signed-fields'
import { issueKey } from '../../src/accounts/keys'
import { makeTestApp } from '../helpers/app'
import { clientKey, entryHash, submission } from '../helpers/checkpoints'
import { sealWithLogSizeInReceipt } from '../helpers/legacy-digest'

const NOW = '2026-11-25T15:10:00.000Z'
const t = makeTestApp({ now: NOW })
await t.deps.auditTrail.sealer.startedOn()
const apiKey = (await issueKey(t.deps.accounts, { plan: 'pro', now: new Date(t.clock.now()) })).key
const get = async (path: string) => (await t.json(path, { headers: { 'x-oracle-key': apiKey } })).body as Record<string, string>

// Ed25519's group order: S + L is the same signature for a lax verifier, refused by a strict one.
const L = 2n ** 252n + 27742317777372353535851937790883648493n
function withNonCanonicalS(signature: string): string {
  const s = BigInt(`0x${signature.slice(64).match(/../g)!.reverse().join('')}`) + L
  return signature.slice(0, 64) + s.toString(16).padStart(64, '0').match(/../g)!.reverse().join('')
}

/** A real receipt, and each way of spoiling it. */
function spoiled(name: string, receipt: Record<string, string>): [string, unknown][] {
  const type = receiptType(receipt)
  expect({ name, type }).not.toEqual({ name, type: null })
  const cases: [string, unknown][] = []
  cases.push([`${name}: as issued`, receipt])
  cases.push([`${name}: an unsigned member added`, { ...receipt, note: 'not signed' }])
  for (const member of signedFieldsOf(type!, receipt)) {
    cases.push([`${name}: ${member} changed`, { ...receipt, [member]: `${receipt[member]}x` }])
    cases.push([`${name}: ${member} missing`, Object.fromEntries(Object.entries(receipt).filter(([key]) => key !== member))])
  }
  cases.push([`${name}: signature in upper case`, { ...receipt, signature: receipt.signature!.toUpperCase() }])
  cases.push([`${name}: signature one byte short`, { ...receipt, signature: receipt.signature!.slice(0, 126) }])
  cases.push([`${name}: S + L`, { ...receipt, signature: withNonCanonicalS(receipt.signature!) }])
  cases.push([`${name}: another key id`, { ...receipt, public_key_id: 'key_1999_v9' }])
  cases.push([`${name}: a number where a string is signed`, { ...receipt, [signedFieldsOf(type!, receipt)[0]!]: 1 }])
  return cases
}

async function bothVerdicts(registry: KeyRegistry, receipt: unknown) {
  const service = (await t.json('/v5/verify', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ receipt }) })).body
  const page = await verifyReceipt(registry, receipt, t.clock.now())
  return {
    // The members left out of the signature matter when the signature holds.
    service: { valid: service.valid, expired: service.expired, type: service.receipt_type, unsigned: service.valid ? service.unsigned_members : null },
    page: { valid: page.valid, expired: page.valid && page.expired, type: page.type, unsigned: page.valid ? page.unsigned : null },
  }
}

describe('the page and POST /v5/verify agree', () => {
  test('on real receipts of every type, and on each way of spoiling them', async () => {
    const registry = (await t.json('/v5/keys')).body as KeyRegistry
    const witnessKey = clientKey()
    const witnessed = (await t.json('/v1/witness/checkpoints', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(submission(witnessKey, { session_id: 'parity', count: 1, last_entry_hash: entryHash(1) })) })).body
    await t.deps.overrides.set({ mic: 'XPAR', status: 'HALTED', reason: 'parity halt', expires_at: new Date(t.clock.now() + 600_000).toISOString() }, 'test')
    const real: Record<string, Record<string, string>> = {
      status: await get('/v5/status?mic=XNYS'),
      override: await get('/v5/status?mic=XPAR'),
      health: await get('/v5/health'),
      demo: await get('/v5/demo?mic=XJPX'),
      witness: (witnessed.receipt ?? witnessed) as Record<string, string>,
      'safe-to-trade': (await get('/v1/safe-to-trade/sample?venue=XLON&max_age=30')).receipt as unknown as Record<string, string>,
    }
    const cases: [string, unknown][] = []
    for (const [name, receipt] of Object.entries(real)) cases.push(...spoiled(name, receipt))
    const verdicts = await Promise.all(cases.map(async ([name, receipt]) => ({ name, ...(await bothVerdicts(registry, receipt)) })))
    expect(verdicts.filter((verdict) => JSON.stringify(verdict.page) !== JSON.stringify(verdict.service))).toEqual([])
    // The corpus is not all one answer: every real receipt is valid, and every spoiled signed part invalid.
    expect(verdicts.filter((verdict) => verdict.page.valid).map((verdict) => verdict.name).sort()).toEqual(Object.keys(real).flatMap((name) => [`${name}: an unsigned member added`, `${name}: as issued`]).sort())

    // Two minutes later the market-state receipts have expired: valid signatures, both say expired.
    t.clock.advance(120_000)
    const later = await Promise.all(Object.entries(real).map(async ([name, receipt]) => ({ name, ...(await bothVerdicts(registry, receipt)) })))
    expect(later.filter((verdict) => JSON.stringify(verdict.page) !== JSON.stringify(verdict.service))).toEqual([])
    expect(later.filter((verdict) => verdict.page.expired).length).toBeGreaterThanOrEqual(3)
    await t.deps.overrides.clear('XPAR', 'test')

    // The day's digest, sealed after midnight as the release before the log receipt sealed it (its
    // log size signed inside receipt); the next day's by the sealer, which first signs the
    // earlier one again and makes its log receipt: every signed object a digest answers with.
    const day = new Date(t.clock.now()).toISOString().slice(0, 10)
    const nextDay = new Date(t.clock.now() + 86_400_000).toISOString().slice(0, 10)
    t.clock.set(`${nextDay}T00:00:30.000Z`)
    await sealWithLogSizeInReceipt(t, day, (await t.deps.auditTrail.trees.tree(day)).size)
    t.clock.set(`${new Date(t.clock.now() + 86_400_000).toISOString().slice(0, 10)}T00:00:30.000Z`)
    expect(await t.deps.auditTrail.sealer.tick()).toEqual([nextDay])
    const first = (await t.json(`/v5/audit/digest?date=${day}`)).body
    const sealed = (await t.json(`/v5/audit/digest?date=${nextDay}`)).body
    // The digest signs exactly digest_fields; its log receipt (the log size holding the day) is its own signed object.
    expect(signedFieldsOf('digest_fields', sealed.receipt)).not.toContain('log_tree_size')
    expect(signedFieldsOf('digest_fields', first.receipt_with_log_tree_size)).toContain('log_tree_size')
    const digestObjects: Record<string, Record<string, string>> = {
      digest: sealed.receipt,
      'digest log': sealed.log_receipt,
      'digest signed again': first.receipt,
      'its log receipt': first.log_receipt,
      'receipt_with_log_tree_size': first.receipt_with_log_tree_size,
    }
    const signedObjects = Object.entries(digestObjects).flatMap(([name, receipt]) => spoiled(name, receipt))
    const digestVerdicts = await Promise.all(signedObjects.map(async ([name, receipt]) => ({ name, ...(await bothVerdicts(registry, receipt)) })))
    expect(digestVerdicts.filter((verdict) => JSON.stringify(verdict.page) !== JSON.stringify(verdict.service))).toEqual([])
    expect(digestVerdicts.filter((verdict) => verdict.page.valid).map((verdict) => verdict.name).sort()).toEqual(Object.keys(digestObjects).flatMap((name) => [`${name}: an unsigned member added`, `${name}: as issued`]).sort())
    expect(digestVerdicts.filter((verdict) => verdict.name.endsWith(': as issued')).map((verdict) => verdict.page.type)).toEqual(['digest_fields', 'digest_log_fields', 'digest_fields', 'digest_log_fields', 'digest_fields'])
    // The page says which member only the receipt as first published signs, and where that rule is published.
    const optional = await Promise.all(Object.values(digestObjects).map(async (receipt) => (await verifyReceipt(registry, receipt, t.clock.now())).optional))
    expect(optional).toEqual([[], [], [], [], ['log_tree_size']])
  })
})
