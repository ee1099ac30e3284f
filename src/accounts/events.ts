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
  const ofDay = db.query('SELECT e.channel, e.account_id, k.key_hash FROM key_events e JOIN api_keys k ON k.id = e.account_id WHERE e.day = ?')
  // The metering's stored counts (written behind within a second) say whether a key made a metered call.
  const metered = db.query('SELECT EXISTS (SELECT 1 FROM key_usage WHERE account_id = ? AND requests > 0) AS used')
  return {
    /** Synchronous: joins the transaction that creates the key. */
    record(accountId: number, channel: KeyChannel, now: number, useCase: string | null = null): void {
      const at = new Date(now).toISOString()
      insert.run(accountId, channel, at.slice(0, 10), at, useCase)
    },
    /**
     * The day's keys and how many of them were used: counted by the metering (`key_usage`), or,
     * for a count not yet written, found by `usedElsewhere` (the audit log's keyed receipts).
     */
    async funnel(date: string, usedElsewhere: (keyHash: string) => Promise<boolean>): Promise<FunnelDay> {
      const rows = ofDay.all(date) as { channel: KeyChannel; account_id: number; key_hash: string }[]
      const channels = Object.fromEntries(KEY_CHANNELS.map((channel) => [channel, 0])) as Record<KeyChannel, number>
      let used = 0
      for (const row of rows) {
        channels[row.channel] += 1
        const counted = (metered.get(row.account_id) as { used: number }).used === 1
        if (counted || (await usedElsewhere(row.key_hash))) used += 1
      }
      return { date, top_of_funnel: rows.length, conversion_rate: rows.length ? Math.round((used / rows.length) * 10_000) / 10_000 : 0, channels }
    },
  }
}

export type KeyEvents = ReturnType<typeof keyEvents>
