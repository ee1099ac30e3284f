// C2SP tlog-policy: which logs, which witnesses, and the quorum of witnesses a checkpoint needs.
//   log <vkey> [<url>]                 log keys: Ed25519 note keys (0x01) or ML-DSA-44 cosigner keys (0x06)
//   witness <name> <vkey> [<url>]      cosigner keys: 0x04 (Ed25519) or 0x06 (ML-DSA-44)
//   group <name> all|any|<k> <name>…   k of the members (witnesses or earlier groups)
//   quorum <name>                      exactly one; `none` needs no cosignature
// Whitespace is spaces and tabs; '#' starts a comment line; names are opaque byte strings.
import { equal } from './bytes.js'
import { parseVkey, SIG_COSIGNATURE_ED25519, SIG_COSIGNATURE_ML_DSA_44, SIG_ED25519, type Vkey } from './note.js'

/** Beyond the 32 of each the spec asks implementations to support. */
export const POLICY_LIMITS = { logs: 256, witnesses: 256, groups: 256 }

export interface PolicyGroup {
  name: string
  threshold: number
  members: string[]
}

export interface Policy {
  logs: Vkey[]
  witnesses: Map<string, Vkey>
  groups: Map<string, PolicyGroup>
  /** The quorum's name: a witness, a group, or 'none'. */
  quorum: string
}

export type PolicyResult = { ok: true; policy: Policy } | { ok: false; line: number; message: string }

export function parsePolicy(text: string): PolicyResult {
  const fail = (line: number, message: string): PolicyResult => ({ ok: false, line, message })
  // Allowed octets: tab, newline, 0x20-0x7E and 0x80 and above (a JS string holds UTF-16: anything past U+007F).
  const bad = /[\u0000-\u0008\u000b-\u001f\u007f]/.exec(text)
  if (bad) return fail(text.slice(0, bad.index).split('\n').length, 'only tab and newline are allowed among the control characters')
  const logs: Vkey[] = []
  const witnesses = new Map<string, Vkey>()
  const groups = new Map<string, PolicyGroup>()
  let quorum: string | null = null
  const defined = (name: string) => witnesses.has(name) || groups.has(name)
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const number = i + 1
    const items = lines[i]!.split(/[ \t]+/).filter((item) => item !== '')
    if (!items.length || items[0]!.startsWith('#')) continue
    const [keyword, ...rest] = items as [string, ...string[]]
    switch (keyword) {
      case 'log': {
        if (rest.length < 1 || rest.length > 2) return fail(number, 'expected: log <vkey> [<url>]')
        const key = parseVkey(rest[0]!)
        if (!key || (key.type !== SIG_ED25519 && key.type !== SIG_COSIGNATURE_ML_DSA_44)) return fail(number, 'a log key is an Ed25519 note vkey (type 0x01) or an ML-DSA-44 cosigner vkey (type 0x06)')
        if (logs.some((log) => equal(log.publicKey, key.publicKey))) return fail(number, 'this log key is listed twice')
        if (logs.length === POLICY_LIMITS.logs) return fail(number, `more than ${POLICY_LIMITS.logs} logs`)
        logs.push(key)
        break
      }
      case 'witness': {
        if (rest.length < 2 || rest.length > 3) return fail(number, 'expected: witness <name> <vkey> [<url>]')
        const [name, vkey] = rest as [string, string]
        const key = parseVkey(vkey)
        if (!key || (key.type !== SIG_COSIGNATURE_ED25519 && key.type !== SIG_COSIGNATURE_ML_DSA_44)) return fail(number, 'a witness key is a cosigner vkey: type 0x04 (Ed25519) or 0x06 (ML-DSA-44)')
        if (name === 'none' || defined(name)) return fail(number, `the name ${name} is already defined`)
        if ([...witnesses.values()].some((other) => equal(other.publicKey, key.publicKey))) return fail(number, 'this witness key is listed twice')
        if (witnesses.size === POLICY_LIMITS.witnesses) return fail(number, `more than ${POLICY_LIMITS.witnesses} witnesses`)
        witnesses.set(name, key)
        break
      }
      case 'group': {
        if (rest.length < 3) return fail(number, 'expected: group <name> all|any|<k> <member>…')
        const [name, rule, ...members] = rest as [string, string, ...string[]]
        if (name === 'none' || defined(name)) return fail(number, `the name ${name} is already defined`)
        for (const member of members) {
          if (member === 'none') return fail(number, '"none" cannot be a group member')
          if (!defined(member)) return fail(number, `${member} is not defined on an earlier line`)
        }
        if (new Set(members).size !== members.length) return fail(number, 'a member is listed twice')
        const threshold = rule === 'all' ? members.length : rule === 'any' ? 1 : /^[1-9][0-9]{0,8}$/.test(rule) ? Number(rule) : NaN
        if (!(threshold >= 1 && threshold <= members.length)) return fail(number, 'the threshold is all, any, or a decimal k with 1 <= k <= the number of members')
        if (groups.size === POLICY_LIMITS.groups) return fail(number, `more than ${POLICY_LIMITS.groups} groups`)
        groups.set(name, { name, threshold, members })
        break
      }
      case 'quorum': {
        if (rest.length !== 1) return fail(number, 'expected: quorum <name>')
        if (quorum !== null) return fail(number, 'a policy has exactly one quorum line')
        if (rest[0] !== 'none' && !defined(rest[0]!)) return fail(number, `${rest[0]} is not defined on an earlier line`)
        quorum = rest[0]!
        break
      }
      default:
        return fail(number, `unknown line "${keyword}"`)
    }
  }
  if (quorum === null) return fail(lines.length, 'the policy has no quorum line')
  return { ok: true, policy: { logs, witnesses, groups, quorum } }
}

/** Whether the witnesses in `cosigned` (by policy name) satisfy the quorum. */
export function quorumMet(policy: Policy, cosigned: ReadonlySet<string>): boolean {
  const met = (name: string): boolean => {
    if (name === 'none') return true
    const group = policy.groups.get(name)
    if (!group) return cosigned.has(name)
    return group.members.filter(met).length >= group.threshold
  }
  return met(policy.quorum)
}
