// The 28 supported exchanges (spec 2.2), in the spec's order. XNYS is the default MIC.
export const SUPPORTED_MICS = [
  'XNYS', 'XNAS', 'XLON', 'XJPX', 'XPAR', 'XHKG', 'XSES', 'XASX', 'XBOM', 'XNSE', 'XSHG', 'XSHE', 'XKRX', 'XJSE',
  'XBSP', 'XSWX', 'XMIL', 'XIST', 'XSAU', 'XDFM', 'XNZE', 'XHEL', 'XSTO', 'XCBT', 'XNYM', 'XCBO', 'XCOI', 'XBIN',
] as const

export type Mic = (typeof SUPPORTED_MICS)[number]
export const DEFAULT_MIC: Mic = 'XNYS'

const SUPPORTED = new Set<string>(SUPPORTED_MICS)
export function isSupportedMic(value: string): value is Mic {
  return SUPPORTED.has(value)
}

/** Venues with real-time halt detection through an external feed (spec 2.1). */
export const HALT_DETECTION_MICS: readonly Mic[] = ['XNYS', 'XNAS']
