// The per-venue trading-phase table of docs/calendars.md, generated from the schedule files
// (`openbell calendars phases`) so that the documentation cannot drift from the data (a test
// compares the two).
import { PHASE_SOURCE_MARK } from './validate-phases'
import type { PhaseBand, ScheduleFile } from './schema'

const bandsText = (bands: readonly PhaseBand[]) => (bands.length ? bands.map((band) => `${band.phase} ${band.from}–${band.to}`).join('; ') : 'none')

function sourceCell(file: ScheduleFile): string {
  const sources = file.sources.filter((source) => source.covers.toLowerCase().includes(PHASE_SOURCE_MARK))
  return sources.map((source) => `${source.url ? `[${cell(source.publisher)}](${source.url})` : cell(source.publisher)}: ${cell(source.covers)}`).join('<br>')
}

/** Text inside a table cell: a pipe would end the cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** One markdown row per file, in the order given; venues without phases say so. */
export function phaseTable(files: readonly ScheduleFile[]): string {
  const rows = files.map((file) => {
    const phases = file.phases
    if (!phases) return `| ${file.mic} | ${file.always_open ? '24/7: continuous only' : 'none entered'} | — | — | — |`
    const seasons = (phases.seasons ?? []).map((season) => `${cell(season.name)} (${season.from} to ${season.to}): ${bandsText(season.bands)}`).join('<br>') || '—'
    const dates = Object.entries(phases.dates ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, entry]) => `${date} ${cell(entry.name)}: ${bandsText(entry.bands)}`)
      .join('<br>')
    return `| ${file.mic} | ${bandsText(phases.bands)} | ${seasons} | ${dates || '—'} | ${sourceCell(file)} |`
  })
  return ['| MIC | bands (local time; open = first open, close = last close) | seasons | dates | source |', '|---|---|---|---|---|', ...rows].join('\n')
}
