// The durable list of calendar changes (migration 71): one event per venue and reload that changed
// a date, one row per changed date. The interface and its SQLite implementation (PostgreSQL:
// store-postgres.ts). Every node of a database reloads the same change itself; the first to
// record it stores it, and a node whose venue's latest event is already that change (same file
// hashes before and after) stores nothing, so a change is listed (and announced) once.
import type { Database } from 'bun:sqlite'
import type { Step } from '../../store/transaction'
import { sqliteStep } from '../../store/sqlite-transaction'
import { positional } from '../../store/sql-text'
import type { DayChange } from '../diff'
import type { CalendarDay } from '../days'

export interface ChangeEvent {
  mic: string
  at: string
  trigger: string
  data_version_before: string | null
  data_version_after: string | null
  hash_before: string | null
  hash_after: string | null
  days: readonly DayChange[]
}

export interface ChangeEventRow {
  id: number
  mic: string
  at: string
  trigger: string
  data_version_before: string | null
  data_version_after: string | null
  day_count: number
}

/** One changed date as GET /v5/calendar/changes lists it. */
export interface ChangeRow {
  id: number
  event_id: number
  mic: string
  at: string
  trigger: string
  data_version_before: string | null
  data_version_after: string | null
  date: string
  change: string
  to?: string
  before: CalendarDay | null
  after: CalendarDay | null
}

export interface ChangeQuery {
  mic?: string
  /** ISO instant: changes recorded at or after it. */
  since?: string
  /** Rows with an id below this (the previous page's cursor). */
  before?: number
  limit: number
}

export interface CalendarChangeStore {
  /** Stores the event and its days unless the venue's latest event is this same change; its id either way. */
  record(event: ChangeEvent): Step<{ id: number; recorded: boolean }>
  /** Changed dates, newest first. */
  list(query: ChangeQuery): Promise<ChangeRow[]>
  /** The newest events, each with its first `daysPerEvent` dates. */
  events(query: { mic?: string; limit: number; daysPerEvent: number }): Promise<(ChangeEventRow & { days: ChangeRow[] })[]>
  /** The newest event of a venue. */
  latest(mic: string): Promise<ChangeEventRow | null>
}

export const CHANGE_SQL = {
  latest: 'SELECT id, mic, at, trigger, data_version_before, data_version_after, day_count, hash_before, hash_after FROM calendar_change_events WHERE mic = $1 ORDER BY id DESC LIMIT 1',
  insertEvent: 'INSERT INTO calendar_change_events (mic, at, trigger, data_version_before, data_version_after, hash_before, hash_after, day_count) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id',
  insertDay: 'INSERT INTO calendar_changes (event_id, mic, at, date, change, range_to, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
} as const

const ROW_COLUMNS = 'c.id, c.event_id, c.mic, c.at, e.trigger, e.data_version_before, e.data_version_after, c.date, c.change, c.range_to, c.before, c.after'

/** The list statement and its parameters ($n), for the filters given. */
export function listStatement(query: ChangeQuery, cast = ''): { text: string; values: unknown[] } {
  const where: string[] = []
  const values: unknown[] = []
  if (query.mic) where.push(`c.mic = $${values.push(query.mic)}`)
  if (query.since) where.push(`c.at >= $${values.push(query.since)}`)
  if (query.before) where.push(`c.id < $${values.push(query.before)}`)
  const text = `SELECT ${ROW_COLUMNS.replace('c.id, c.event_id', `c.id${cast} AS id, c.event_id${cast} AS event_id`)} FROM calendar_changes c JOIN calendar_change_events e ON e.id = c.event_id${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY c.id DESC LIMIT $${values.push(query.limit)}`
  return { text, values }
}

export function eventsStatement(query: { mic?: string; limit: number }, cast = ''): { text: string; values: unknown[] } {
  const values: unknown[] = []
  const where = query.mic ? ` WHERE mic = $${values.push(query.mic)}` : ''
  return { text: `SELECT id${cast} AS id, mic, at, trigger, data_version_before, data_version_after, day_count FROM calendar_change_events${where} ORDER BY id DESC LIMIT $${values.push(query.limit)}`, values }
}

/** The first `perEvent` dates of each of the events (by id, so in date order). */
export const EVENT_DAYS_SQL = (cast = '') => `SELECT * FROM (SELECT ${ROW_COLUMNS.replace('c.id, c.event_id', `c.id${cast} AS id, c.event_id${cast} AS event_id`)}, row_number() OVER (PARTITION BY c.event_id ORDER BY c.id) AS n
FROM calendar_changes c JOIN calendar_change_events e ON e.id = c.event_id WHERE c.event_id IN ({ids})) ranked WHERE n <= $1 ORDER BY event_id DESC, id`

interface StoredRow extends Omit<ChangeRow, 'before' | 'after' | 'to'> {
  range_to: string | null
  before: string | null
  after: string | null
  n?: number
}

export function fromStoredRow(row: StoredRow): ChangeRow {
  const { range_to, before, after, n: _n, ...rest } = row
  return { ...rest, id: Number(rest.id), event_id: Number(rest.event_id), ...(range_to ? { to: range_to } : {}), before: before ? JSON.parse(before) : null, after: after ? JSON.parse(after) : null }
}

/** Whether the venue's latest event is this change already (recorded by another node that reloaded it). */
export const sameChange = (latest: { hash_before: string | null; hash_after: string | null } | null, event: ChangeEvent) => latest !== null && latest.hash_before === event.hash_before && latest.hash_after === event.hash_after

export const eventValues = (event: ChangeEvent) => [event.mic, event.at, event.trigger, event.data_version_before, event.data_version_after, event.hash_before, event.hash_after, event.days.length]
export const dayValues = (eventId: number, event: ChangeEvent, day: DayChange) => [eventId, event.mic, event.at, day.date, day.change, day.to ?? null, day.before ? JSON.stringify(day.before) : null, day.after ? JSON.stringify(day.after) : null]

type Latest = ChangeEventRow & { hash_before: string | null; hash_after: string | null }

export function sqliteCalendarChangeStore(db: Database): CalendarChangeStore {
  const latest = db.query(positional(CHANGE_SQL.latest))
  const insertEvent = db.query(positional(CHANGE_SQL.insertEvent))
  const insertDay = db.query(positional(CHANGE_SQL.insertDay))
  const publicEvent = (row: Latest | null): ChangeEventRow | null => (row ? { id: row.id, mic: row.mic, at: row.at, trigger: row.trigger, data_version_before: row.data_version_before, data_version_after: row.data_version_after, day_count: row.day_count } : null)
  return {
    record: (event) =>
      sqliteStep(() => {
        const current = latest.get(event.mic) as Latest | null
        if (sameChange(current, event)) return { id: current!.id, recorded: false }
        const { id } = insertEvent.get(...eventValues(event)) as { id: number }
        for (const day of event.days) insertDay.run(...dayValues(id, event, day))
        return { id, recorded: true }
      }),
    async list(query) {
      const { text, values } = listStatement(query)
      return (db.query(positional(text)).all(...(values as never[])) as StoredRow[]).map(fromStoredRow)
    },
    async events(query) {
      const { text, values } = eventsStatement(query)
      const events = db.query(positional(text)).all(...(values as never[])) as ChangeEventRow[]
      if (!events.length) return []
      const days = (db.query(positional(EVENT_DAYS_SQL().replace('{ids}', events.map((event) => Number(event.id)).join(', ')))).all(query.daysPerEvent) as StoredRow[]).map(fromStoredRow)
      return events.map((event) => ({ ...event, days: days.filter((day) => day.event_id === event.id) }))
    },
    async latest(mic) {
      return publicEvent(latest.get(mic) as Latest | null)
    },
  }
}
