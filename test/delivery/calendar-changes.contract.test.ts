// Recording a calendar change and queuing its deliveries, on both backends: one unit of work
// stores the change and one delivery per active subscription of the MIC that chose
// calendar_change (not the status_change-only ones, not paused ones, not other MICs); a second
// node recording the same change (it reloaded the same files) stores and queues nothing, also when
// both record at once.
import { expect, test } from 'bun:test'
import { recordCalendarChange, calendarChangeBody, MAX_DAYS_PER_EVENT } from '../../src/delivery/calendar-changes'
import { sqliteWebhookStore, type WebhookRow, type WebhookStore } from '../../src/delivery/webhooks/store'
import { postgresWebhookStore } from '../../src/delivery/webhooks/store-postgres'
import { sqliteDeliveryQueue, type DeliveryQueue } from '../../src/delivery/webhooks/queue'
import { postgresDeliveryQueue } from '../../src/delivery/webhooks/queue-postgres'
import { sqliteCalendarChangeStore, type CalendarChangeStore, type ChangeEvent } from '../../src/calendar/changes/store'
import { postgresCalendarChangeStore } from '../../src/calendar/changes/store-postgres'
import { sqliteTransactor } from '../../src/store/sqlite-transaction'
import { postgresTransactor } from '../../src/store/postgres-transaction'
import type { Transactor } from '../../src/store/transaction'
import { forEachBackend } from '../helpers/backends'

const subscription = (id: string, mics: string[], events: WebhookRow['events'], status: WebhookRow['status'] = 'active'): WebhookRow => ({
  id, key_hash: 'k'.repeat(64), url: `https://receiver.example/${id}`, mics, events, secret: 'whsec_x', status, paused_reason: null, created_at: '2026-12-01T00:00:00.000Z',
})

const event = (days: number): ChangeEvent => ({
  mic: 'XNYS', at: '2026-12-06T10:00:00.000Z', trigger: 'upstream', data_version_before: '2026.11.3', data_version_after: '2026.12.0', hash_before: 'a'.repeat(64), hash_after: 'b'.repeat(64),
  days: Array.from({ length: days }, (_, i) => ({ date: `2027-01-${String(i + 1).padStart(2, '0')}`, change: 'hours_changed' as const, before: null, after: null })),
})

forEachBackend('calendar change deliveries', (fresh) => {
  const open = async () => {
    const backend = await fresh()
    return {
      transactor: backend.pick<Transactor>({ sqlite: sqliteTransactor, postgres: postgresTransactor }),
      webhooks: backend.pick<WebhookStore>({ sqlite: sqliteWebhookStore, postgres: postgresWebhookStore }),
      queue: backend.pick<DeliveryQueue>({ sqlite: sqliteDeliveryQueue, postgres: postgresDeliveryQueue }),
      changes: backend.pick<CalendarChangeStore>({ sqlite: sqliteCalendarChangeStore, postgres: postgresCalendarChangeStore }),
    }
  }

  test('one delivery per active calendar_change subscription of the MIC, in the unit of work that records the change; once across nodes', async () => {
    const stores = await open()
    const rows = [
      subscription('both', ['XNYS', 'XLON'], ['status_change', 'calendar_change']),
      subscription('calendar', ['XNYS'], ['calendar_change']),
      subscription('status', ['XNYS'], ['status_change']),
      subscription('london', ['XLON'], ['calendar_change']),
      subscription('paused', ['XNYS'], ['calendar_change'], 'paused'),
    ]
    for (const row of rows) await stores.transactor.run(() => stores.webhooks.create(row, 10))
    const change = event(1)
    // Two nodes that reloaded the same change record it at once: one row, one set of deliveries.
    const [first, second] = await Promise.all([1, 2].map(() => stores.transactor.run(() => recordCalendarChange(stores, change, 'https://oracle.example', Date.parse(change.at)))))
    expect([first!.recorded, second!.recorded].sort()).toEqual([false, true])
    expect(first!.deliveries + second!.deliveries).toBe(2)
    const queued: Record<string, unknown[]> = Object.fromEntries(await Promise.all(rows.map(async (row) => [row.id, (await stores.queue.forWebhook(row.id)).map((delivery) => JSON.parse(delivery.body) as unknown)] as const)))
    expect(Object.fromEntries(Object.entries(queued).map(([id, list]) => [id, list.length]))).toEqual({ both: 1, calendar: 1, status: 0, london: 0, paused: 0 })
    expect(queued.calendar![0]).toEqual({
      type: 'calendar_change', webhook_id: 'calendar', mic: 'XNYS', event_id: first!.id, trigger: 'upstream', data_version_before: '2026.11.3', data_version_after: '2026.12.0', occurred_at: change.at,
      days: change.days, days_total: 1, changes_url: 'https://oracle.example/v5/calendar/changes?mic=XNYS&since=2026-12-06T10%3A00%3A00.000Z',
    })
    expect((await stores.changes.list({ limit: 10 })).length).toBe(1)
  })

  test('a change of more dates than one delivery carries: the first 100, the count and the link', () => {
    const body = calendarChangeBody(event(MAX_DAYS_PER_EVENT + 5), 7, 'https://oracle.example', 'w')
    expect(body.days.length).toBe(MAX_DAYS_PER_EVENT)
    expect(body).toMatchObject({ days_total: MAX_DAYS_PER_EVENT + 5, truncated: true, event_id: 7, webhook_id: 'w' })
  })
})
