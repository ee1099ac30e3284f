// Reading a MIC from a request: unknown or malformed → 400 UNKNOWN_MIC listing the supported ones.
import { ApiError } from '../http/errors'
import { DEFAULT_MIC, isSupportedMic, SUPPORTED_MICS, type Mic } from './mics'

export function unknownMic(value: string, code = 'UNKNOWN_MIC'): ApiError {
  return new ApiError(400, code, `${JSON.stringify(value.slice(0, 32))} is not a supported MIC`, { supported: [...SUPPORTED_MICS] })
}

/**
 * The MIC written in a request, upper-cased in ASCII only: exactly four ASCII letters or digits.
 * (String.toUpperCase folds Unicode: the long s "ſ" would become "S" and "XSEſ" would reach XSES.)
 */
export function asciiMic(raw: string): string | null {
  const text = raw.trim()
  if (!/^[A-Za-z0-9]{4}$/.test(text)) return null
  return text.replace(/[a-z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) - 32))
}

/** MICs are matched case-insensitively (ASCII) and answered in upper case. */
export function parseMic(raw: string | undefined, options: { required?: boolean; code?: string } = {}): Mic {
  if (raw === undefined || raw === '') {
    if (options.required) throw new ApiError(400, 'MIC_REQUIRED', 'query parameter mic is required', { supported: [...SUPPORTED_MICS] })
    return DEFAULT_MIC
  }
  const mic = asciiMic(raw)
  if (mic === null || !isSupportedMic(mic)) throw unknownMic(raw, options.code)
  return mic
}
