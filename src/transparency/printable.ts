// Text from a server a verifier does not trust, made safe to print on a terminal: control
// characters (C0, DEL, C1: terminal escape sequences start with ESC or CSI) and the Unicode
// format characters that reorder or hide text (bidi overrides and isolates, zero-width marks)
// are dropped, and line breaks become spaces so that echoed text cannot forge a line of its own.

const LINE_BREAKS = /[\n\r\u2028\u2029\u0085\v\f]+/g
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g

/** One line of untrusted text, at most `limit` characters (an ellipsis says it was cut). */
export function printable(text: string, limit = 200): string {
  const clean = text.replace(LINE_BREAKS, ' ').replace(UNPRINTABLE, '')
  return clean.length > limit ? `${clean.slice(0, limit)}…` : clean
}

/** Several lines the program writes itself, with any untrusted text they carry made safe: line breaks are kept. */
export function printableLines(text: string): string {
  return text.split('\n').map((line) => line.replace(UNPRINTABLE, '')).join('\n')
}
