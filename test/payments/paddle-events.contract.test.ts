// Paddle notifications on both backends, through the handler's unit of work (event, purchase,
// account writes, key mail). Two "nodes" (two pools on PostgreSQL) receiving the same event at
// once apply it once; events of one subscription applied at once on both nodes, in any arrival
// order, leave the account as the event latest in provider time says.
import { expect, test } from 'bun:test'
import { sqlitePaddleStore } from '../../src/payments/paddle/store'
import { postgresPaddleStore } from '../../src/payments/paddle/store-postgres'
import { paddleEventHandler, type PaddleEventHandler } from '../../src/payments/paddle/handler'
import type { PaddleEvent } from '../../src/payments/paddle/events'
import { sqliteCreditLedger } from '../../src/payments/credits'
import { postgresCreditLedger } from '../../src/payments/credits-postgres'
import { sqliteAccountWrites } from '../../src/accounts/account-writes'
import { postgresAccountWrites } from '../../src/accounts/account-writes-postgres'
import { sqliteMailOutbox } from '../../src/accounts/mail/outbox'
import { postgresMailOutbox } from '../../src/accounts/mail/outbox-postgres'
import { forEachBackend } from '../helpers/backends'
import { testNodes, type TestNode } from '../helpers/nodes'

const NOW = Date.parse('2026-11-25T12:00:00.000Z')
const PRICES = { builder: 'pri_builder', pro: 'pri_pro', credits: 'pri_credits' }

function handlerOf(node: TestNode): PaddleEventHandler {
  const outbox = node.pick({ sqlite: sqliteMailOutbox, postgres: postgresMailOutbox })
  return paddleEventHandler(
    {
      store: node.pick({ sqlite: sqlitePaddleStore, postgres: postgresPaddleStore }),
      ledger: node.pick({ sqlite: sqliteCreditLedger, postgres: postgresCreditLedger }),
      writes: node.pick({ sqlite: sqliteAccountWrites, postgres: postgresAccountWrites }),
      keyMail: (mail) => outbox.enqueue({ to: mail.to, subject: `your ${mail.product} key`, text: mail.key }, mail.now),
      transactor: node.transactor,
    },
    PRICES,
  )
}

const purchase = (id: string, price: string, occurredAt: string, subscriptionId: string | null): PaddleEvent => ({
  event_id: `evt_${id}`,
  event_type: 'transaction.completed',
  occurred_at: occurredAt,
  data: { id: `txn_${id}`, items: [{ price: { id: price } }], customer_id: 'ctm_1', subscription_id: subscriptionId, custom_data: { email: 'buyer@example.test' } },
})

const subscriptionEvent = (id: string, type: string, occurredAt: string, data: Record<string, unknown>): PaddleEvent => ({ event_id: `evt_${id}`, event_type: type, occurred_at: occurredAt, data: { id: 'sub_1', ...data } })

forEachBackend('paddle events', (fresh) => {
  const nodeOf = testNodes()
  const twoNodes = async () => {
    const backend = await fresh()
    const nodes = [nodeOf(backend), nodeOf(backend)] as const
    return { nodes, handlers: nodes.map(handlerOf) as [PaddleEventHandler, PaddleEventHandler] }
  }

  test('one purchase delivered to two nodes at once: one key, one mail, one ledger grant; the rest are duplicates', async () => {
    const { nodes, handlers } = await twoNodes()
    const event = purchase('credits', 'pri_credits', '2026-11-25T11:00:00.000Z', null)
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => handlers[i % 2]!(event, 'buyer@example.test', NOW)))
    expect(results.filter((result) => result.outcome === 'applied')).toHaveLength(1)
    expect(results.filter((result) => result.outcome === 'duplicate')).toHaveLength(7)
    expect(await nodes[0].query(`SELECT class, credit_balance FROM api_keys`)).toEqual([{ class: 'credit', credit_balance: 1000 }])
    expect(await nodes[1].query(`SELECT count(*)::int AS n FROM mail_outbox`)).toEqual([{ n: 1 }])
    expect(await nodes[1].query(`SELECT delta, reference FROM credit_ledger`)).toEqual([{ delta: 1000, reference: 'paddle:txn_credits' }])
    expect(await nodes[0].query(`SELECT event_id, outcome FROM paddle_events`)).toEqual([{ event_id: 'evt_credits', outcome: 'applied' }])
  }, 30_000)

  test('events of one subscription applied at once on two nodes, in any order: the latest in provider time decides', async () => {
    const { nodes, handlers } = await twoNodes()
    expect((await handlers[0](purchase('sub', 'pri_builder', '2026-11-25T10:00:00.000Z', 'sub_1'), 'buyer@example.test', NOW)).outcome).toBe('applied')
    const events = [
      subscriptionEvent('a', 'subscription.updated', '2026-11-25T10:10:00.000Z', { status: 'active', items: [{ price: { id: 'pri_pro' } }] }),
      subscriptionEvent('b', 'subscription.past_due', '2026-11-25T10:20:00.000Z', {}),
      subscriptionEvent('c', 'subscription.canceled', '2026-11-25T10:40:00.000Z', {}),
      subscriptionEvent('d', 'subscription.updated', '2026-11-25T10:30:00.000Z', { status: 'active', items: [{ price: { id: 'pri_builder' } }] }),
      subscriptionEvent('e', 'subscription.updated', '2026-11-25T10:05:00.000Z', { status: 'active', items: [{ price: { id: 'pri_pro' } }] }),
    ]
    // Every event to both nodes at once (a retry racing the first delivery), in two arrival orders.
    const results = await Promise.all([...events.map((event) => handlers[0](event, null, NOW)), ...[...events].reverse().map((event) => handlers[1](event, null, NOW))])
    expect(results.filter((result) => result.outcome === 'duplicate')).toHaveLength(5)
    expect(await nodes[0].query(`SELECT plan, status FROM api_keys`)).toEqual([{ plan: 'builder', status: 'cancelled' }])
    expect(await nodes[1].query(`SELECT status, status_at, plan, plan_at FROM paddle_subscriptions`)).toEqual([
      { status: 'cancelled', status_at: '2026-11-25T10:40:00.000Z', plan: 'builder', plan_at: '2026-11-25T10:30:00.000Z' },
    ])
    expect(await nodes[1].query(`SELECT count(*)::int AS n FROM paddle_events`)).toEqual([{ n: 6 }])
  }, 30_000)

  test('a renewal makes no second key; a status that came before the purchase applies to the key it creates', async () => {
    const { nodes, handlers } = await twoNodes()
    expect((await handlers[1](subscriptionEvent('early', 'subscription.past_due', '2026-11-25T10:30:00.000Z', {}), null, NOW)).outcome).toBe('applied')
    expect((await handlers[0](purchase('first', 'pri_pro', '2026-11-25T10:00:00.000Z', 'sub_1'), 'buyer@example.test', NOW)).outcome).toBe('applied')
    expect((await handlers[1](purchase('renewal', 'pri_pro', '2026-11-25T11:00:00.000Z', 'sub_1'), 'buyer@example.test', NOW)).outcome).toBe('applied')
    expect(await nodes[0].query(`SELECT plan, status FROM api_keys`)).toEqual([{ plan: 'pro', status: 'suspended' }])
    expect(await nodes[0].query(`SELECT transaction_id FROM paddle_transactions ORDER BY transaction_id`)).toEqual([{ transaction_id: 'txn_first' }, { transaction_id: 'txn_renewal' }])
    expect(await nodes[1].query(`SELECT count(*)::int AS n FROM mail_outbox`)).toEqual([{ n: 1 }])
  })
})
