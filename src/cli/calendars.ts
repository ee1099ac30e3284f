// `openbell calendars check [dir]`: lint schedule files offline with the loader's own validation.
import { readScheduleDir } from '../calendar/files'

export function runCalendarsCommand(args: string[], defaultDir: string): number {
  const [sub, dirArg] = args
  if (sub !== 'check') {
    console.error('usage: openbell calendars check [dir]')
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
  if (results.length === 0) {
    console.error(`no <MIC>.json files in ${dir}`)
    return 1
  }
  let failed = 0
  for (const { mic, path, result } of results) {
    if (result.ok) {
      console.log(`ok    ${mic}  data_version ${result.file.data_version}`)
      continue
    }
    failed++
    for (const problem of result.problems) console.log(`FAIL  ${mic}  ${path}  ${problem.path}: ${problem.reason}`)
  }
  console.log(`${results.length - failed} valid, ${failed} invalid`)
  return failed ? 1 : 0
}
