// Key-issued events (one row per self-service key, by channel) and the funnel computed from them.
import type { Database } from 'bun:sqlite'

export const KEY_CHANNELS = ['instant', 'email', 'sandbox'] as const
export type KeyChannel = (typeof KEY_CHANNELS)[number]

export interface FunnelDay {
  date: string
  top_of_funnel: number
  /** Share (0–1, four decimals) of the day's keys that have made a metered call. */
  conversion_rate: number
  channels: Record<KeyChannel, number>
}

export function keyEvents(db: Database) {
  const insert = db.query('INSERT INTO key_events (account_id, channel, day, created_at, use_case) VALUES (?, ?, ?, ?, ?)')
  const ofDay = db.query('SELECT e.channel, k.key_hash FROM key_events e JOIN api_keys k ON k.id = e.account_id WHERE e.day = ?')
  // Metering may record a last use on the key row (api_keys.last_used_at); read it when the column exists.
  const hasLastUsed = (db.query(`SELECT count(*) AS n FROM pragma_table_info('api_keys') WHERE name = 'last_used_at'`).get() as { n: number }).n > 0
  const lastUsed = hasLastUsed ? db.query('SELECT last_used_at IS NOT NULL AS used FROM api_keys WHERE key_hash = ?') : null
  return {
    /** Synchronous: joins the transaction that creates the key. */
    record(accountId: number, channel: KeyChannel, now: number, useCase: string | null = null): void {
      const at = new Date(now).toISOString()
      insert.run(accountId, channel, at.slice(0, 10), at, useCase)
    },
    /**
     * The day's keys and how many of them were used. `usedElsewhere` answers for a key whose row
     * records no use (the audit log's keyed receipts).
     */
    async funnel(date: string, usedElsewhere: (keyHash: string) => Promise<boolean>): Promise<FunnelDay> {
      const rows = ofDay.all(date) as { channel: KeyChannel; key_hash: string }[]
      const channels = Object.fromEntries(KEY_CHANNELS.map((channel) => [channel, 0])) as Record<KeyChannel, number>
      let used = 0
      for (const row of rows) {
        channels[row.channel] += 1
        const onRow = lastUsed ? (lastUsed.get(row.key_hash) as { used: number } | null)?.used === 1 : false
        if (onRow || (await usedElsewhere(row.key_hash))) used += 1
      }
      return { date, top_of_funnel: rows.length, conversion_rate: rows.length ? Math.round((used / rows.length) * 10_000) / 10_000 : 0, channels }
    },
  }
}

export type KeyEvents = ReturnType<typeof keyEvents>
