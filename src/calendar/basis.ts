// What a calendar's dates rest on: counts of entered dates by basis (the exchange's notice or a
// codified rule) and of provisional dates, and the next provisional date. For operators
// (`openbell calendars check`) and docs; the engine does not need it.
import type { CompiledCalendar } from './compile'
import type { DateBasis } from './schema'
import { dateOfDayNumber, utcToLocal } from './zone'

export interface BasisReport {
  published: number
  rule: number
  provisional: number
  next_provisional: { date: string; name: string } | null
  /** Provisional dates already past, never confirmed: /v5/historical answers UNKNOWN for them. */
  passed_provisional: string[]
}

const ENTERED = ['holidays', 'early_closes', 'late_opens', 'special_sessions'] as const

export function basisReport(calendar: CompiledCalendar, now: number): BasisReport {
  const file = calendar.file
  const counts: Record<DateBasis, number> = { published: 0, rule: 0 }
  for (const map of ENTERED) {
    for (const date of Object.keys(file[map])) {
      // Version 1 files predate rule-derived dates: everything in them was published.
      const basis = file.basis_exceptions?.[date] ?? file.basis?.[date.slice(0, 4)] ?? 'published'
      counts[basis]++
    }
  }
  const today = dateOfDayNumber(utcToLocal(calendar.timezone, now).day)
  const dates = Object.entries(file.provisional ?? {}).sort(([a], [b]) => a.localeCompare(b))
  const upcoming = dates.find(([date]) => date >= today)
  const passed = dates.filter(([date]) => date < today).map(([date]) => date)
  return { ...counts, provisional: dates.length, next_provisional: upcoming ? { date: upcoming[0], name: upcoming[1].name } : null, passed_provisional: passed }
}
