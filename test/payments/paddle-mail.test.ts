// A card purchase end to end: a signed Paddle notification makes a key, the key arrives in a real
// SMTP inbox on loopback, it works on /v5/status, and a cancellation stops it on every surface.
// (Paddle itself cannot run locally; the notification is signed as Paddle signs, see paddle.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { makeTestApp, type TestApp } from '../helpers/app'
import { keyInMail, startSmtp, type TestSmtp } from '../helpers/smtp'

const SECRET = 'pdl_ntfset_mail_secret_0123456789'
let smtp: TestSmtp
let t: TestApp
beforeAll(async () => {
  smtp = await startSmtp()
  t = makeTestApp({
    now: new Date().toISOString(),
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'openbell <keys@oracle.test>', PADDLE_WEBHOOK_SECRET: SECRET, PADDLE_PRICE_BUILDER: 'pri_buildermail', PADDLE_PRICE_CREDITS: 'pri_creditsmail' },
  })
})
afterAll(async () => {
  await smtp.close()
})

let sequence = 0
async function deliver(type: string, data: Record<string, unknown>) {
  const body = JSON.stringify({ event_id: `evt_mail_${++sequence}`, event_type: type, occurred_at: new Date(t.clock.now() + sequence).toISOString(), notification_id: `ntf_mail_${sequence}`, data })
  const ts = Math.floor(Date.now() / 1000)
  const signature = `ts=${ts};h1=${createHmac('sha256', SECRET).update(`${ts}:${body}`).digest('hex')}`
  return t.json('/webhooks/paddle', { method: 'POST', headers: { 'content-type': 'application/json', 'paddle-signature': signature }, body })
}

describe('Paddle purchase → e-mailed key', () => {
  test('a builder subscription key arrives by SMTP, works, and stops working when the subscription is cancelled', async () => {
    const before = smtp.received.length
    const paid = await deliver('transaction.completed', { id: 'txn_mail_1', status: 'completed', customer_id: 'ctm_mail', subscription_id: 'sub_mail_1', items: [{ price: { id: 'pri_buildermail' }, quantity: 1 }], custom_data: { email: 'card.buyer@example.com' } })
    expect(paid.status).toBe(200)
    // The message was stored with the key in the same transaction; the mail job sends it.
    expect(await t.deps.mail.tick()).toBe(1)
    const [mail] = (await smtp.waitFor(before + 1)).slice(before)
    expect(mail!.to).toEqual(['card.buyer@example.com'])
    const key = keyInMail(mail!, 'svc_live_')
    const stored = t.db.query('SELECT body FROM mail_outbox ORDER BY id DESC LIMIT 1').get() as { body: string }
    expect(stored.body).not.toContain(key)

    const status = await t.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
    expect(status.status).toBe(200)
    const account = await t.json('/v5/account', { headers: { 'x-oracle-key': key } })
    expect(account.body).toMatchObject({ plan: 'builder', status: 'active' })

    expect((await deliver('subscription.canceled', { id: 'sub_mail_1', status: 'canceled' })).status).toBe(200)
    const stopped = await t.json('/v5/status?mic=XNYS', { headers: { 'x-oracle-key': key } })
    expect(stopped.status).toBe(402)
    expect(stopped.body.status).toBe('cancelled')
    expect((await t.json('/v5/account', { headers: { 'x-oracle-key': key } })).status).toBe(402)
  })

  test('with the mail job running, the key is sent at once after the commit (not at the next 5 s round)', async () => {
    const stop = t.deps.mail.start()
    try {
      await Bun.sleep(50) // the first round at start has passed
      const before = smtp.received.length
      expect((await deliver('transaction.completed', { id: 'txn_mail_3', status: 'completed', customer_id: 'ctm_mail', items: [{ price: { id: 'pri_buildermail' }, quantity: 1 }], custom_data: { email: 'prompt.buyer@example.com' } })).status).toBe(200)
      const [mail] = (await smtp.waitFor(before + 1, 2000)).slice(before)
      expect(mail!.to).toEqual(['prompt.buyer@example.com'])
    } finally {
      await stop()
    }
  })

  test('a credits purchase mails a credit key holding 1,000 credits', async () => {
    const before = smtp.received.length
    await deliver('transaction.completed', { id: 'txn_mail_2', status: 'completed', customer_id: 'ctm_mail', items: [{ price: { id: 'pri_creditsmail' }, quantity: 1 }], custom_data: { email: 'credits.buyer@example.com' } })
    expect(await t.deps.mail.tick()).toBe(1)
    const [mail] = (await smtp.waitFor(before + 1)).slice(before)
    const key = keyInMail(mail!, 'svc_crd_')
    const balance = await t.json('/v5/credits/balance', { headers: { 'x-oracle-key': key } })
    expect(balance.body.balance).toBe(1000)
  })
})
