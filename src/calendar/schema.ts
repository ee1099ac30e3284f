// The schedule file format (schema_version 3; version 1 and 2 files still load). Validated with the standalone `typebox` 1.x
// package: these files are read outside any Elysia route, and typebox 1.x reports errors with
// an instancePath into the JSON, which is what an operator needs to find a typo.
import Type from 'typebox'

export const SCHEDULE_SCHEMA_VERSION = 3
/** Versions the loader reads. Version 2 adds `basis`, `basis_exceptions` and `provisional`; version 3 adds `phases`. */
export const READABLE_SCHEMA_VERSIONS = [1, 2, 3] as const

const LocalTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description: 'local wall time HH:MM, 24:00 = end of day' })
const LocalDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'local calendar date YYYY-MM-DD' })
const DATE_KEY = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
const Name = Type.String({ minLength: 1, maxLength: 200 })

/** One trading segment [start, end) in exchange-local wall time. */
const Segment = Type.Tuple([LocalTime, LocalTime])
const Segments = Type.Array(Segment, { maxItems: 8 })

const Weekly = Type.Object(
  { mon: Segments, tue: Segments, wed: Segments, thu: Segments, fri: Segments, sat: Segments, sun: Segments },
  { additionalProperties: false },
)

const Season = Type.Object(
  { from: LocalDate, to: LocalDate, name: Name, weekly: Weekly },
  { additionalProperties: false, description: 'replaces the weekly template for dates from..to inclusive' },
)

const Source = Type.Object(
  {
    covers: Type.String({ minLength: 1, maxLength: 200 }),
    publisher: Type.String({ minLength: 1, maxLength: 200 }),
    url: Type.Optional(Type.String({ pattern: '^https?://' })),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
)

/** Where a year's (or a date's) entered dates come from: the exchange's own notice, or a codified rule applied to it. */
const Basis = Type.Union([Type.Literal('published'), Type.Literal('rule')])

const Provisional = Type.Object(
  {
    name: Name,
    why: Type.String({ minLength: 1, maxLength: 300, description: 'the announcement this date waits for' }),
  },
  { additionalProperties: false, description: 'a date whose status hangs on an announcement not yet made: UNKNOWN all day' },
)

/** The non-continuous phases a band may describe (continuous trading is the open segments; closed is the rest). */
export const BAND_PHASES = ['pre_open_auction', 'closing_auction', 'post_close', 'extended'] as const

/** HH:MM (24:00 = end of day), or the day's first open / last close with an optional offset in minutes (checked 1..720 by the validator). */
const PhaseTime = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$|^(open|close)([+-][0-9]{1,4})?$',
  description: 'local HH:MM, or open / close with an optional offset in whole minutes (open-10, close+5)',
})

const Band = Type.Object(
  { phase: Type.Union([Type.Literal('pre_open_auction'), Type.Literal('closing_auction'), Type.Literal('post_close'), Type.Literal('extended')]), from: PhaseTime, to: PhaseTime },
  { additionalProperties: false, description: 'one phase [from, to) of a trading day, in local time' },
)
const Bands = Type.Array(Band, { maxItems: 12 })

const Phases = Type.Object(
  {
    bands: Bands,
    seasons: Type.Optional(Type.Array(Type.Object({ from: LocalDate, to: LocalDate, name: Name, bands: Bands }, { additionalProperties: false, description: 'replaces bands for the local dates from..to inclusive' }))),
    dates: Type.Optional(Type.Record(Type.String({ pattern: DATE_KEY }), Type.Object({ name: Name, bands: Bands }, { additionalProperties: false }), { additionalProperties: false, description: 'replaces bands for one local date; an empty bands array means no phases that day' })),
  },
  { additionalProperties: false, description: 'version 3: the non-continuous phases around each trading day\'s open segments' },
)

const dateMap = <T extends Type.TSchema>(value: T) =>
  Type.Record(Type.String({ pattern: DATE_KEY }), value, { additionalProperties: false })

export const ScheduleFileSchema = Type.Object(
  {
    schema_version: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
    data_version: Type.String({ pattern: '^[0-9]{4}\\.[0-9]{1,2}\\.[0-9]+$', description: 'content version, bumped on every edit' }),
    mic: Type.String({ pattern: '^[A-Z0-9]{4}$' }),
    name: Name,
    country: Type.String({ pattern: '^[A-Z]{2}$' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    timezone: Type.String({ minLength: 1 }),
    sameAs: Type.String({ pattern: '^https://' }),
    always_open: Type.Boolean({ description: '24/7 venue: never closes, has no holidays and no coverage horizon' }),
    coverage: Type.Optional(Type.Object({ from: LocalDate, to: LocalDate }, { additionalProperties: false })),
    sources: Type.Array(Source, { minItems: 1 }),
    notes: Type.Optional(Type.String({ maxLength: 4000 })),
    weekly: Weekly,
    seasons: Type.Optional(Type.Array(Season)),
    holidays: dateMap(Name),
    early_closes: dateMap(Type.Object({ close: LocalTime, name: Name }, { additionalProperties: false })),
    late_opens: dateMap(Type.Object({ open: LocalTime, name: Name }, { additionalProperties: false })),
    special_sessions: dateMap(Type.Object({ segments: Segments, name: Name }, { additionalProperties: false })),
    // Version 2 only (the validator refuses them in a version 1 file and requires `basis` in version 2).
    basis: Type.Optional(Type.Record(Type.String({ pattern: '^[0-9]{4}$' }), Basis, { additionalProperties: false, description: 'basis of the dates entered for each covered year' })),
    basis_exceptions: Type.Optional(dateMap(Basis)),
    provisional: Type.Optional(dateMap(Provisional)),
    // Version 3 only (the validator refuses it in an older file).
    phases: Type.Optional(Phases),
  },
  { additionalProperties: false },
)

export type ScheduleFile = Type.Static<typeof ScheduleFileSchema>
export type DateBasis = Type.Static<typeof Basis>
export type ProvisionalDate = Type.Static<typeof Provisional>
export type WeeklyTemplate = Type.Static<typeof Weekly>
export type SegmentTuple = Type.Static<typeof Segment>
export type PhaseBand = Type.Static<typeof Band>
export type PhasesSpec = Type.Static<typeof Phases>
export type BandPhase = (typeof BAND_PHASES)[number]
export const WEEKDAY_KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const
