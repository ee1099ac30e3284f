// Entry point (temporary minimal dispatcher; the service start comes with the foundation).
import { runCalendarsCommand } from './cli/calendars'
process.env.TZ = 'UTC'
const [command, ...rest] = process.argv.slice(2)
if (command === 'calendars') process.exit(runCalendarsCommand(rest, process.env.SCHEDULES_DIR ?? 'schedules'))
