// The durable list of calendar changes on PostgreSQL (store.ts says what it holds). `record` reads
// the venue's latest event and inserts inside the caller's SERIALIZABLE unit of work: two nodes
// recording the same change at once cannot both insert (one runs again and finds the other's).
import type { SQL } from 'bun'
import { postgresStep } from '../../store/postgres-transaction'
import { CHANGE_SQL, dayValues, EVENT_DAYS_SQL, eventsStatement, eventValues, fromStoredRow, listStatement, sameChange, type CalendarChangeStore, type ChangeEventRow } from './store'

const LATEST = CHANGE_SQL.latest.replace('SELECT id,', 'SELECT id::float8 AS id,')
type Latest = ChangeEventRow & { hash_before: string | null; hash_after: string | null }

export function postgresCalendarChangeStore(sql: SQL): CalendarChangeStore {
  const latest = async (handle: SQL, mic: string) => ((await handle.unsafe(LATEST, [mic])) as Latest[])[0] ?? null
  return {
    *record(event) {
      const current = yield* postgresStep((tx) => latest(tx, event.mic))
      if (sameChange(current, event)) return { id: current!.id, recorded: false }
      const id = yield* postgresStep(async (tx) => {
        const [row] = (await tx.unsafe(CHANGE_SQL.insertEvent.replace('RETURNING id', 'RETURNING id::float8 AS id'), eventValues(event))) as { id: number }[]
        for (const day of event.days) await tx.unsafe(CHANGE_SQL.insertDay, dayValues(row!.id, event, day))
        return row!.id
      })
      return { id, recorded: true }
    },
    async list(query) {
      const { text, values } = listStatement(query, '::float8')
      return ((await sql.unsafe(text, values)) as Parameters<typeof fromStoredRow>[0][]).map(fromStoredRow)
    },
    async events(query) {
      const { text, values } = eventsStatement(query, '::float8')
      const events = (await sql.unsafe(text, values)) as ChangeEventRow[]
      if (!events.length) return []
      const ids = events.map((event) => Number(event.id)).join(', ')
      const days = ((await sql.unsafe(EVENT_DAYS_SQL('::float8').replace('{ids}', ids), [query.daysPerEvent])) as Parameters<typeof fromStoredRow>[0][]).map(fromStoredRow)
      return events.map((event) => ({ ...event, days: days.filter((day) => day.event_id === event.id) }))
    },
    async latest(mic) {
      const row = await latest(sql, mic)
      return row ? { id: row.id, mic: row.mic, at: row.at, trigger: row.trigger, data_version_before: row.data_version_before, data_version_after: row.data_version_after, day_count: row.day_count } : null
    },
  }
}
