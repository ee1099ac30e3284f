// Parsing the mics list of /v5/batch: comma-separated, duplicates removed, at most one per supported venue.
import { ApiError } from '../http/errors'
import { SUPPORTED_MICS, type Mic } from '../calendar/mics'
import { unknownMic, parseMic } from '../calendar/mic-param'

export const MAX_BATCH = SUPPORTED_MICS.length

export function parseMicList(raw: string | undefined): Mic[] {
  const names = (raw ?? '').split(',').map((part) => part.trim()).filter(Boolean)
  if (!names.length) throw new ApiError(400, 'MICS_REQUIRED', 'query parameter mics (comma-separated MICs) is required', { supported: [...SUPPORTED_MICS] })
  const mics: Mic[] = []
  for (const name of names) {
    if (name.length > 8) throw unknownMic(name)
    const mic = parseMic(name)
    if (!mics.includes(mic)) mics.push(mic)
  }
  if (mics.length > MAX_BATCH) throw new ApiError(400, 'TOO_MANY_MICS', `at most ${MAX_BATCH} MICs per batch`)
  return mics
}
