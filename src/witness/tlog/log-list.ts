// The witness-network log-list format (transparency-dev/witness-network, log-list-format.md): the
// logs a C2SP witness cosigns, as WITNESS_LOGS_FILE holds them.
//   logs/v0
//   vkey <vkey>          one log starts at each vkey line
//   [origin <origin>]    default: the vkey's key name
//   [bastion <host>]     accepted and kept (this witness is reached directly)
//   qpd <n>              add-checkpoint requests the log may make per day
//   [contact <text>]
// Blank lines and lines starting with '#' are ignored; lines are trimmed.
import { parseVkey, SIG_ED25519, type Vkey } from '../../transparency/note'

export interface ListedLog {
  origin: string
  vkey: string
  key: Vkey
  qpd?: number
  contact?: string
  bastion?: string
}

export type LogListResult = { ok: true; logs: ListedLog[] } | { ok: false; line: number; message: string }

/** A checkpoint origin as this witness accepts it: one line of printable text without spaces. */
export const validOrigin = (origin: string) => origin.length > 0 && origin.length <= 255 && !/[\s\u0000-\u001f\u007f]/u.test(origin)

export function parseLogList(text: string): LogListResult {
  const lines = text.split('\n').map((line, i) => ({ text: line.trim(), number: i + 1 })).filter((line) => line.text !== '' && !line.text.startsWith('#'))
  const fail = (number: number, message: string): LogListResult => ({ ok: false, line: number, message })
  if (lines[0]?.text !== 'logs/v0') return fail(lines[0]?.number ?? 1, 'the list must begin with the line "logs/v0"')
  const logs: ListedLog[] = []
  // Lines of a log come in this order; each names the keys allowed after it.
  const next: Record<string, string[]> = { vkey: ['origin', 'bastion', 'qpd'], origin: ['bastion', 'qpd'], bastion: ['qpd'], qpd: ['contact', 'vkey'], contact: ['vkey'] }
  let allowed = ['vkey']
  for (const line of lines.slice(1)) {
    const [keyword, ...rest] = line.text.split(/\s+/)
    const value = line.text.slice(keyword!.length).trim()
    if (!allowed.includes(keyword!)) return fail(line.number, `"${keyword}" is not expected here (expected ${allowed.join(' or ')})`)
    if (!value) return fail(line.number, `"${keyword}" needs a value`)
    const current = logs.at(-1)
    switch (keyword) {
      case 'vkey': {
        const key = rest.length === 1 ? parseVkey(value) : null
        if (!key || key.type !== SIG_ED25519) return fail(line.number, 'not an Ed25519 vkey (<name>+<8 hex key id>+<base64 of 0x01 and the key>)')
        logs.push({ origin: key.name, vkey: value, key })
        break
      }
      case 'origin':
        if (!validOrigin(value)) return fail(line.number, 'an origin is one line of text without spaces')
        current!.origin = value
        break
      case 'bastion':
        current!.bastion = value
        break
      case 'qpd':
        if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) >= 2 ** 31) return fail(line.number, 'qpd is a number from 1 to 2^31 - 1 without leading zeros')
        current!.qpd = Number(value)
        break
      case 'contact':
        current!.contact = value
        break
    }
    allowed = next[keyword!]!
  }
  if (logs.length && !allowed.includes('vkey')) return fail(lines.at(-1)!.number, 'the last log has no qpd line')
  return { ok: true, logs }
}
