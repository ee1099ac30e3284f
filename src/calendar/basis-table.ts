// The per-venue "basis by year" table of docs/calendars.md, generated from the schedule files so
// the documentation cannot drift from the data (a test compares the two).
import type { ScheduleFile } from './schema'

const years = (file: ScheduleFile): string[] => {
  if (!file.coverage) return []
  const first = Number(file.coverage.from.slice(0, 4))
  const last = Number(file.coverage.to.slice(0, 4))
  return Array.from({ length: last - first + 1 }, (_, index) => String(first + index))
}

function basisCell(file: ScheduleFile): string {
  if (file.always_open) return '24/7, no dates'
  // Version 1 files predate rule-derived dates: everything in them was published.
  return years(file)
    .map((year) => `${year} ${file.basis?.[year] ?? 'published'}`)
    .join(', ')
}

function provisionalCell(file: ScheduleFile): string {
  const dates = Object.keys(file.provisional ?? {}).sort()
  if (dates.length === 0) return '—'
  const shown = dates.slice(0, 4).join(', ')
  return dates.length > 4 ? `${dates.length}: ${shown}, …` : `${dates.length}: ${shown}`
}

/** One markdown row per file, in the order given. */
export function basisTable(files: readonly ScheduleFile[]): string {
  const rows = files.map((file) => {
    const coverage = file.always_open || !file.coverage ? 'no horizon' : `${file.coverage.from} to ${file.coverage.to}`
    const exceptions = Object.keys(file.basis_exceptions ?? {}).length
    return `| ${file.mic} | ${coverage} | ${basisCell(file)} | ${exceptions || '—'} | ${provisionalCell(file)} | ${file.data_version} |`
  })
  return ['| MIC | coverage | basis by year | dates with another basis | provisional dates | data_version |', '|---|---|---|---|---|---|', ...rows].join('\n')
}
