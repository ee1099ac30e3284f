// `openbell overrides set|clear|list`: the operator circuit breaker from a shell, through the
// same validation and store as the admin endpoint. The running service sees it within a second.
import { parseArgs } from 'node:util'
import { readFileSync } from 'node:fs'
import { ApiError } from '../http/errors'
import { asciiMic } from '../calendar/mic-param'
import type { OverrideService } from '../market/overrides/service'

const USAGE = `usage:
  openbell overrides set <MIC> <OPEN|CLOSED|HALTED|UNKNOWN> --reason "…" (--for 2h | --until <ISO date-time>) [--actor NAME]
  openbell overrides clear <MIC> [--actor NAME]
  openbell overrides list
--actor defaults to the OS user (SUDO_USER, USER or LOGNAME, else the account name); it is recorded as cli:<actor>.`

/** "90m", "2h", "3d" → milliseconds. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)(m|h|d)$/.exec(text)
  if (!match) return null
  return Number(match[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd']
}

const ACTOR = /^[A-Za-z0-9_.@-]{1,64}$/

/** Who runs the command: --actor, else the OS user (the one behind sudo first); never a guess. */
export function cliActor(given: string | undefined, env: Record<string, string | undefined> = process.env): string {
  if (given !== undefined) {
    if (!ACTOR.test(given)) throw new Error('--actor takes 1 to 64 letters, digits, _ . @ or -')
    return `cli:${given}`
  }
  const name = env.SUDO_USER || env.USER || env.LOGNAME || accountName()
  if (!name || !ACTOR.test(name)) throw new Error('cannot tell who you are from the environment; give --actor NAME')
  return `cli:${name}`
}

/**
 * The passwd name of the effective uid, for a shell without USER (cron, containers, `env -i`).
 * Not os.userInfo(): Bun answers $USER there, or the literal "unknown" (oven-sh/bun#39859).
 * Undefined when there is no entry (a container running as an arbitrary uid).
 */
export function accountName(uid: number | undefined = process.geteuid?.(), passwdFile = '/etc/passwd'): string | undefined {
  if (uid === undefined) return undefined
  try {
    for (const line of readFileSync(passwdFile, 'utf8').split('\n')) {
      const [name, , id] = line.split(':')
      if (name && id === String(uid)) return name
    }
  } catch {
    // No readable passwd file.
  }
  return undefined
}

export async function runOverridesCommand(args: string[], overrides: OverrideService, now: number, out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = args
  try {
    if (sub === 'list') {
      const active = [...(await overrides.active(now)).values()]
      if (!active.length) out('no overrides in force')
      for (const row of active) out(`${row.mic}\t${row.status}\tuntil ${row.expires_at}\tby ${row.created_by}\t${row.reason}`)
      return 0
    }
    if (sub === 'clear') {
      const { values, positionals } = parseArgs({ args: rest, options: { actor: { type: 'string' } }, allowPositionals: true, strict: true })
      const mic = positionals[0] === undefined ? undefined : (asciiMic(positionals[0]) ?? positionals[0])
      if (!mic) throw new Error('give the MIC')
      out((await overrides.clear(mic, cliActor(values.actor))) ? `override on ${mic} cleared` : `no override on ${mic}`)
      return 0
    }
    if (sub === 'set') {
      const { values, positionals } = parseArgs({ args: rest, options: { reason: { type: 'string' }, for: { type: 'string' }, until: { type: 'string' }, actor: { type: 'string' } }, allowPositionals: true, strict: true })
      const [mic, status] = positionals
      if (values.for && values.until) throw new Error('give --for or --until, not both')
      let expiresAt = values.until
      if (values.for) {
        const ms = parseDuration(values.for)
        if (ms === null) throw new Error('--for takes a duration such as 90m, 2h or 3d')
        expiresAt = new Date(now + ms).toISOString()
      }
      const row = await overrides.set({ mic: mic === undefined ? undefined : (asciiMic(mic) ?? mic), status: status?.toUpperCase(), reason: values.reason, expires_at: expiresAt }, cliActor(values.actor))
      out(`${row.mic} is ${row.status} (OVERRIDE) until ${row.expires_at}: ${row.reason}`)
      return 0
    }
  } catch (error) {
    out(`error: ${error instanceof ApiError ? `${error.errorCode}: ${error.message}` : (error as Error).message}`)
    return 2
  }
  out(USAGE)
  return 2
}
