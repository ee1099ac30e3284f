// Key-issued events (one row per self-service key, by channel) and the funnel computed from them.
// The rows are written by the self-service store in the transaction that creates the key.
export const KEY_CHANNELS = ['instant', 'email', 'sandbox'] as const
export type KeyChannel = (typeof KEY_CHANNELS)[number]

export interface FunnelDay {
  date: string
  top_of_funnel: number
  /** Share (0–1, four decimals) of the day's keys that have made a metered call. */
  conversion_rate: number
  channels: Record<KeyChannel, number>
}

export interface KeyEventReads {
  /** The keys issued on a UTC day (YYYY-MM-DD) with their channel. */
  eventsOfDay(day: string): Promise<{ channel: KeyChannel; account_id: number; key_hash: string }[]>
  /** Whether the metering's stored counts (written behind within a second) show a call of the key. */
  hasMeteredUse(accountId: number): Promise<boolean>
}

/**
 * The day's keys and how many of them were used: counted by the metering (`key_usage`), or,
 * for a count not yet written, found by `usedElsewhere` (the audit log's keyed receipts).
 */
export async function funnelOf(store: KeyEventReads, date: string, usedElsewhere: (keyHash: string) => Promise<boolean>): Promise<FunnelDay> {
  const rows = await store.eventsOfDay(date)
  const channels = Object.fromEntries(KEY_CHANNELS.map((channel) => [channel, 0])) as Record<KeyChannel, number>
  let used = 0
  for (const row of rows) {
    channels[row.channel] += 1
    if ((await store.hasMeteredUse(row.account_id)) || (await usedElsewhere(row.key_hash))) used += 1
  }
  return { date, top_of_funnel: rows.length, conversion_rate: rows.length ? Math.round((used / rows.length) * 10_000) / 10_000 : 0, channels }
}
