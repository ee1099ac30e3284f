// `openbell calendars check [dir]`: lint schedule files offline with the loader's own
// validation, and report each venue's horizon with the service's own warning code: coverage
// end, dates by basis, the next provisional date. Fails on an invalid file, a missing venue or
// an ended coverage; warns on coverage ending within 90 days, provisional dates within 30 or
// already past (never confirmed), and the validator's warnings (legal but suspicious data).
// `openbell calendars basis [dir]` prints the basis-by-year table that docs/calendars.md carries,
// `openbell calendars phases [dir]` its trading-phase table.
import { basisReport } from '../calendar/basis'
import { basisTable } from '../calendar/basis-table'
import { compileCalendar } from '../calendar/compile'
import { readScheduleDir } from '../calendar/files'
import { venueWarnings } from '../calendar/horizon'
import { SUPPORTED_MICS } from '../calendar/mics'
import { phaseTable } from '../calendar/phase-table'

export function runCalendarsCommand(args: string[], defaultDir: string, now = Date.now()): number {
  const [sub, dirArg] = args
  if (sub !== 'check' && sub !== 'basis' && sub !== 'phases') {
    console.error('usage: openbell calendars check|basis|phases [dir]')
    return 2
  }
  const dir = dirArg ?? defaultDir
  let results
  try {
    results = readScheduleDir(dir)
  } catch (error) {
    console.error(`cannot read ${dir}: ${(error as Error).message}`)
    return 1
  }
  if (sub === 'basis' || sub === 'phases') {
    const files = results.flatMap((entry) => (entry.result.ok ? [entry.result.file] : []))
    console.log(sub === 'basis' ? basisTable(files) : phaseTable(files))
    return files.length === results.length ? 0 : 1
  }
  let failed = 0
  let warned = 0
  for (const { mic, path, result } of results) {
    if (!result.ok) {
      failed++
      for (const problem of result.problems) console.log(`FAIL  ${mic}  ${path}  ${problem.path}: ${problem.reason}`)
      continue
    }
    for (const warning of result.warnings) {
      warned++
      console.log(`WARN  ${mic}  ${path}  ${warning.path}: ${warning.reason}`)
    }
    const calendar = compileCalendar(result.file)
    const warnings = venueWarnings(calendar, now)
    const ended = warnings.some((warning) => warning.problem === 'coverage_ended')
    if (calendar.alwaysOpen) console.log(`ok    ${mic}  data_version ${result.file.data_version}  24/7`)
    else {
      const report = basisReport(calendar, now)
      const next = report.next_provisional ? `${report.next_provisional.date} (${report.next_provisional.name})` : 'none'
      console.log(
        `${ended ? 'FAIL' : 'ok  '}  ${mic}  data_version ${result.file.data_version}  coverage to ${calendar.coverageTo}  dates: ${report.published} published, ${report.rule} rule, ${report.provisional} provisional  next provisional: ${next}`,
      )
      if (report.passed_provisional.length) {
        warned++
        console.log(`WARN  ${mic}  provisional dates passed without confirmation (UNKNOWN in /v5/historical): ${report.passed_provisional.join(', ')}; enter what happened (holiday, session or nothing), bump data_version and reload`)
      }
    }
    if (ended) failed++
    for (const warning of warnings) {
      if (warning.problem === 'coverage_ended') console.log(`FAIL  ${mic}  coverage ended ${warning.coverage_to}: ${warning.detail}`)
      else {
        warned++
        console.log(`WARN  ${mic}  ${warning.problem}${warning.date ? ` ${warning.date}` : ''}: ${warning.days_left} days: ${warning.detail}`)
      }
    }
  }
  const present = new Set(results.map((entry) => entry.mic))
  const missing = SUPPORTED_MICS.filter((mic) => !present.has(mic))
  for (const mic of missing) console.log(`FAIL  ${mic}  no ${mic}.json in ${dir}: the service answers UNKNOWN for it`)
  const valid = results.filter((entry) => entry.result.ok).length
  console.log(`${valid} valid, ${results.length - valid} invalid, ${missing.length} missing, ${warned} warnings`)
  return failed || missing.length ? 1 : 0
}
