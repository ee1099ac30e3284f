// Response schemas shared by the calendar routes (/v5/calendar, /v5/holidays): one day record.
import { t } from 'elysia'
import { DAY_KINDS } from '../days'
import { PHASES } from '../phases'

const literals = <T extends string>(values: readonly T[]) => t.Union(values.map((value) => t.Literal(value)))

export const SessionSchema = t.Object({
  open: t.String({ format: 'date-time' }),
  close: t.String({ format: 'date-time' }),
  open_local: t.String({ pattern: '^[0-9]{2}:[0-9]{2}$' }),
  close_local: t.String({ pattern: '^[0-9]{2}:[0-9]{2}$' }),
})

export const DayPhaseSchema = t.Object({
  phase: literals(PHASES.filter((phase) => phase !== 'closed')),
  from: t.String({ format: 'date-time' }),
  to: t.String({ format: 'date-time' }),
  from_local: t.String({ pattern: '^[0-9]{2}:[0-9]{2}$' }),
  to_local: t.String({ pattern: '^[0-9]{2}:[0-9]{2}$' }),
})

const dayMembers = {
  date: t.String({ format: 'date', description: 'local date at the venue' }),
  kind: literals(DAY_KINDS),
  name: t.Union([t.String(), t.Null()], { description: 'holiday or event name' }),
  basis: t.Union([t.Literal('published'), t.Literal('rule'), t.Literal('provisional'), t.Null()], { description: 'what the schedule file rests on for this date; null when unknown' }),
  provisional_why: t.Optional(t.String({ description: 'present on provisional days: the announcement the day waits for' })),
  sessions: t.Array(SessionSchema, { description: 'continuous trading; a lunch break gives two sessions' }),
}

export const DaySchema = t.Object(
  {
    ...dayMembers,
    phases: t.Union([t.Array(DayPhaseSchema), t.Null()], { description: "the day's non-closed trading phases in order (bands and continuous trading); null when the venue's file has no phases or the day is not known" }),
  },
  { additionalProperties: false },
)

export const HolidaySchema = t.Object({ mic: t.String(), ...dayMembers }, { additionalProperties: false })

export const CoverageSchema = t.Object({ from: t.Union([t.String({ format: 'date' }), t.Null()]), to: t.Union([t.String({ format: 'date' }), t.Null()]) }, { description: 'null dates: a 24/7 venue without a horizon' })
