// Health warnings for schedule files that a reload refused while the earlier version stays in
// force: without them /v5/health looks fine while the file on disk is not what is served.
import type { CalendarSnapshot } from './registry'

export interface RejectedFileWarning {
  mic: string
  problem: 'file_rejected'
  in_force: string
  detail: string
}

export function reloadWarnings(snapshot: CalendarSnapshot): RejectedFileWarning[] {
  return [...(snapshot.rejected?.values() ?? [])].map((file) => {
    const first = file.problems[0]
    return {
      mic: file.mic,
      problem: 'file_rejected',
      in_force: file.in_force,
      detail: `${file.mic}.json was rejected on the last reload (${first ? `${first.path || '(file)'}: ${first.reason}` : 'invalid'}${file.problems.length > 1 ? `, and ${file.problems.length - 1} more` : ''}); data_version ${file.in_force} stays in force until the file is fixed`,
    }
  })
}
