// The supported MICs: every venue of the list in exchanges.ts, in its order. XNYS is the default MIC.
import { EXCHANGES, type Mic } from './exchanges'

export type { Mic }
export const SUPPORTED_MICS: readonly Mic[] = EXCHANGES.map((entry) => entry.mic)
export const DEFAULT_MIC: Mic = 'XNYS'

const SUPPORTED = new Set<string>(SUPPORTED_MICS)
export function isSupportedMic(value: string): value is Mic {
  return SUPPORTED.has(value)
}

/** Venues with real-time halt detection through an external feed (spec 2.1). */
export const HALT_DETECTION_MICS: readonly Mic[] = ['XNYS', 'XNAS']
