// What the build recorded about the test run that preceded it (.ci/run writes build-info.json
// beside the binary). Read when asked; a missing or malformed file means "unknown" (null), never
// a typed-in figure.
import { readFileSync } from 'node:fs'

export interface BuildInfo {
  tests_passing: number | null
  tests_failing: number | null
  recorded_at: string | null
}

const count = (value: unknown) => (Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : null)

export function readBuildInfo(file: string): BuildInfo {
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return { tests_passing: null, tests_failing: null, recorded_at: null }
  }
  if (typeof parsed !== 'object' || parsed === null) return { tests_passing: null, tests_failing: null, recorded_at: null }
  const recorded = typeof parsed.recorded_at === 'string' && !Number.isNaN(Date.parse(parsed.recorded_at)) ? parsed.recorded_at : null
  return { tests_passing: count(parsed.tests_passing), tests_failing: count(parsed.tests_failing), recorded_at: recorded }
}
