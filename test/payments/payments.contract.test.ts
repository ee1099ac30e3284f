// The payments stores on both backends: spent proofs (claim, spend, settle, fail, release), the
// credits ledger, and purchases as one unit of work with the accounts domain's writes. The
// concurrency claims go through two "nodes" (two pools on PostgreSQL): a proof sent to both at
// once is accepted once, and what it buys is granted once.
import { expect, test } from 'bun:test'
import { loadConfig } from '../../src/config'
import { memoryLogger } from '../../src/log'
import { sqlitePaymentStore, type PaymentStore, type ProofClaim } from '../../src/payments/store'
import { postgresPaymentStore } from '../../src/payments/store-postgres'
import { sqliteCreditLedger, type CreditLedger } from '../../src/payments/credits'
import { postgresCreditLedger } from '../../src/payments/credits-postgres'
import { sqliteAccountWrites, type AccountWrites } from '../../src/accounts/account-writes'
import { postgresAccountWrites } from '../../src/accounts/account-writes-postgres'
import { sqliteMailOutbox, type MailOutbox } from '../../src/accounts/mail/outbox'
import { postgresMailOutbox } from '../../src/accounts/mail/outbox-postgres'
import { spendTransfer, type PaymentDeps } from '../../src/payments/service'
import type { VerifiedTransfer } from '../../src/payments/chain-proof'
import { forEachBackend, type TestBackend } from '../helpers/backends'
import { testNodes, type TestNode } from '../helpers/nodes'
import { FakeClock } from '../helpers/app'

const NOW = Date.parse('2026-11-25T12:00:00.000Z')
const AT = new Date(NOW).toISOString()
const config = loadConfig({ X402_PAY_TO: '0x' + '2'.repeat(40), X402_NETWORK: 'eip155:84532', X402_ASSET: '0x' + '3'.repeat(40) })

interface PaymentsNode {
  node: TestNode
  payments: PaymentStore
  ledger: CreditLedger
  writes: AccountWrites
  outbox: MailOutbox
  deps: PaymentDeps
}

function paymentsNode(node: TestNode): PaymentsNode {
  const payments = node.pick({ sqlite: sqlitePaymentStore, postgres: postgresPaymentStore })
  return {
    node,
    payments,
    ledger: node.pick({ sqlite: sqliteCreditLedger, postgres: postgresCreditLedger }),
    writes: node.pick({ sqlite: sqliteAccountWrites, postgres: postgresAccountWrites }),
    outbox: node.pick({ sqlite: sqliteMailOutbox, postgres: postgresMailOutbox }),
    deps: { config, clock: new FakeClock(NOW), log: memoryLogger(), payments, transactor: node.transactor },
  }
}

const claimOf = (reference: string, kind: ProofClaim['kind'] = 'authorization'): ProofClaim => ({ reference, kind, purpose: 'status', network: 'eip155:84532', payer: '0xabc', amount_atomic: '1000', created_at: AT })

let serial = 0
const transferOf = (): VerifiedTransfer => ({ txHash: `0x${(++serial).toString(16).padStart(64, '0')}`, payer: `0x${'4'.repeat(40)}`, amount: 800_000n, blockTime: NOW / 1000, authorizations: [] })

forEachBackend('payment stores', (fresh) => {
  const nodeOf = testNodes()
  const twoNodes = async () => {
    const backend: TestBackend = await fresh()
    return [paymentsNode(nodeOf(backend)), paymentsNode(nodeOf(backend))] as const
  }
  const claim = (n: PaymentsNode, c: ProofClaim, conflicts?: string[]) => n.node.transactor.run(() => n.payments.claim(c, conflicts))
  const spend = (n: PaymentsNode, c: ProofClaim, conflicts?: string[]) => n.node.transactor.run(() => n.payments.spend(c, conflicts))

  test('a proof is claimed once; a released claim pays again; a failed or settled one never does', async () => {
    const [a, b] = await twoNodes()
    expect(await claim(a, claimOf('auth:1'))).toBe(true)
    expect(await claim(b, claimOf('auth:1'))).toBe(false)
    await b.payments.release('auth:1')
    expect(await claim(b, claimOf('auth:1'))).toBe(true)
    await a.payments.fail('auth:1')
    await a.payments.release('auth:1') // a failed proof is kept: release removes claims only
    expect(await claim(a, claimOf('auth:1'))).toBe(false)
    expect(await claim(a, claimOf('auth:2'))).toBe(true)
    await a.payments.settle('auth:2', '0xsettled', '2026-11-25T12:00:01.000Z')
    await a.payments.release('auth:2')
    await a.payments.fail('auth:2') // settled stays settled
    expect(await claim(b, claimOf('auth:2'))).toBe(false)
    expect(await a.node.query(`SELECT reference, state, settlement_tx FROM payment_proofs ORDER BY reference`)).toEqual([
      { reference: 'auth:1', state: 'failed', settlement_tx: null },
      { reference: 'auth:2', state: 'settled', settlement_tx: '0xsettled' },
    ])
    expect(await b.payments.stats()).toEqual({ settled: 1, first_settled_at: '2026-11-25T12:00:01.000Z', last_settled_at: '2026-11-25T12:00:01.000Z' })
  })

  test('a settled row cannot be deleted or changed, even by hand', async () => {
    const [a] = await twoNodes()
    expect(await spend(a, claimOf('tx:1', 'transaction'))).toBe(true)
    await expect(a.node.query(`DELETE FROM payment_proofs WHERE reference = 'tx:1'`)).rejects.toThrow(/append-only/)
    await expect(a.node.query(`UPDATE payment_proofs SET state = 'claimed' WHERE reference = 'tx:1'`)).rejects.toThrow(/never changes/)
  })

  test('a transfer whose signed authorization is claimed or settled here is refused; a failed one lets it pay once', async () => {
    const [a, b] = await twoNodes()
    await claim(a, claimOf('auth:claimed'))
    await claim(a, claimOf('auth:failed'))
    await a.payments.fail('auth:failed')
    expect(await spend(b, claimOf('tx:settling', 'transaction'), ['auth:claimed'])).toBe(false)
    expect(await claim(b, claimOf('tx:settling', 'transaction'), ['auth:claimed'])).toBe(false)
    expect(await spend(b, claimOf('tx:landed', 'transaction'), ['auth:failed'])).toBe(true)
    expect(await spend(a, claimOf('tx:landed', 'transaction'), ['auth:failed'])).toBe(false)
    expect((await a.node.query(`SELECT reference FROM payment_proofs WHERE kind = 'transaction'`)).map((row) => row.reference)).toEqual(['tx:landed'])
  })

  test('one proof claimed at once on two nodes: accepted once', async () => {
    const [a, b] = await twoNodes()
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(i % 2 ? a : b, claimOf('auth:burst'))))
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await a.node.query(`SELECT count(*)::int AS n FROM payment_proofs`)).toEqual([{ n: 1 }])
  }, 30_000)

  test('one transfer spent at once on two nodes buys once: one grant, one ledger row, one key, one mail', async () => {
    const [a, b] = await twoNodes()
    const owner = await a.node.transactor.run(() => a.writes.issueKey({ plan: 'free', keyClass: 'free', email: null, creditBalance: 0, now: NOW }))
    const credits = transferOf()
    const buyCredits = (n: PaymentsNode) =>
      spendTransfer(n.deps, credits, 'credits', function* () {
        const balance = yield* n.writes.grantCredits(owner.accountId, 1000)
        yield* n.ledger.record(owner.accountId, 1000, 'grant', `tx:${credits.txHash}`, AT)
        return balance
      })
    const bought = await Promise.all(Array.from({ length: 10 }, (_, i) => buyCredits(i % 2 ? a : b)))
    expect(bought.filter((result) => result.spent)).toEqual([{ spent: true, reference: `tx:84532:${credits.txHash}`, granted: 1000 }])
    expect(await a.node.query(`SELECT credit_balance FROM api_keys WHERE id = $1`, [owner.accountId])).toEqual([{ credit_balance: 1000 }])
    expect(await b.node.query(`SELECT delta, reference FROM credit_ledger`)).toEqual([{ delta: 1000, reference: `tx:${credits.txHash}` }])
    expect(await b.ledger.lastGrantAt(owner.accountId)).toBe(AT)

    const mint = transferOf()
    const mintKey = (n: PaymentsNode) =>
      spendTransfer(n.deps, mint, 'mint:builder', function* () {
        const issued = yield* n.writes.issueKey({ plan: 'builder', keyClass: 'paid', email: 'buyer@example.test', creditBalance: 0, now: NOW })
        yield* n.outbox.enqueue({ to: 'buyer@example.test', subject: 'your key', text: issued.key }, NOW)
        return issued.key
      })
    const minted = await Promise.all(Array.from({ length: 10 }, (_, i) => mintKey(i % 2 ? a : b)))
    const won = minted.filter((result) => result.spent)
    expect(won).toHaveLength(1)
    expect(await a.node.query(`SELECT plan FROM api_keys WHERE plan = 'builder'`)).toEqual([{ plan: 'builder' }])
    // The mail carries the key the winner returned: a body that ran again left nothing behind.
    expect(await b.node.query(`SELECT body FROM mail_outbox`)).toEqual([{ body: (won[0] as { granted: string }).granted }])
  }, 30_000)

  test('a grant that fails leaves the transfer unspent', async () => {
    const [a] = await twoNodes()
    const transfer = transferOf()
    const failing = spendTransfer(a.deps, transfer, 'credits', function* () {
      yield* a.ledger.record(999_999, 1, 'grant', 'no such account', AT) // foreign key violation
      return null
    })
    await expect(failing).rejects.toThrow()
    expect(await a.node.query(`SELECT count(*)::int AS n FROM payment_proofs`)).toEqual([{ n: 0 }])
    expect((await spendTransfer(a.deps, transfer, 'credits', function* () { return 1 })).spent).toBe(true)
  })

  test('refunds of failed requests are not purchases', async () => {
    const [a] = await twoNodes()
    const owner = await a.node.transactor.run(() => a.writes.issueKey({ plan: 'free', keyClass: 'credit', email: null, creditBalance: 0, now: NOW }))
    expect(await a.ledger.lastGrantAt(owner.accountId)).toBeNull()
    await a.node.transactor.run(() => a.ledger.record(owner.accountId, 5, 'grant', 'tx:0x1', AT))
    await a.node.transactor.run(() => a.ledger.record(owner.accountId, 1, 'grant', 'refund:/v5/status', '2026-11-25T13:00:00.000Z'))
    await a.node.transactor.run(() => a.ledger.record(owner.accountId, -1, 'debit', 'req', '2026-11-25T13:00:00.000Z'))
    expect(await a.ledger.lastGrantAt(owner.accountId)).toBe(AT)
    await expect(a.node.query(`UPDATE credit_ledger SET delta = 100`)).rejects.toThrow(/append-only/)
  })
})
