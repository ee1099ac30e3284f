// `openbell log verify --url <base> [--state <file>] [--receipt <id>] [--vkey <vkey>] [--witness <vkey>]…`:
// follows a service's receipt log like a monitor (src/transparency/monitor.ts) and keeps the last
// verified checkpoint in a state file, under $XDG_STATE_HOME/openbell/ or ~/.local/state/openbell/.
// Exit 0 when everything agrees, 1 on any mismatch (nothing saved), 2 for a usage or network
// error or an answer refused (too slow, too large, redirected elsewhere: bounded-fetch.ts).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { DEFAULT_FETCH_LIMITS, Refused, type FetchLimits } from '../transparency/bounded-fetch'
import { Mismatch, verifyLog, type MonitorState } from '../transparency/monitor'
import { printable, printableLines } from '../transparency/printable'
import { LOG_PROOF_USAGE, runLogProofCommand } from './log-proof'

export const LOG_USAGE = `usage: openbell log verify --url <base URL> [--state <file>] [--receipt <receipt id>] [--vkey <log vkey>] [--witness <witness vkey>]…
                          [--connect-timeout <s>] [--idle-timeout <s>] [--timeout <s>]

  Fetches the log's checkpoint, the entries and tiles added since the checkpoint verified last
  time, rebuilds the tree and checks the root, the tiles and the consistency proof; with
  --receipt, checks that receipt's inclusion and signature; with --witness, requires that
  witness's cosignature. The state (the last verified checkpoint and the log key, pinned on
  first use) is kept in --state, default $XDG_STATE_HOME/openbell/log-<host>.json
  (~/.local/state/openbell/ without XDG_STATE_HOME). Each request must bring its headers within
  --connect-timeout (default ${DEFAULT_FETCH_LIMITS.headersMs / 1000} s), never fall silent for --idle-timeout (default ${DEFAULT_FETCH_LIMITS.idleMs / 1000} s) and end
  within --timeout (default ${DEFAULT_FETCH_LIMITS.totalMs / 1000} s); answers larger than their format allows, redirects to
  another origin and more than ${DEFAULT_FETCH_LIMITS.maxRedirects} redirects are refused.
  Exit 0: verified; 1: a mismatch; 2: usage or network error, or an answer refused.`

const TIMEOUT_FLAGS: Record<string, keyof FetchLimits> = { '--connect-timeout': 'headersMs', '--idle-timeout': 'idleMs', '--timeout': 'totalMs' }

type Env = Record<string, string | undefined>

export function defaultStatePath(url: string, env: Env = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state')
  const host = new URL(url).host.replace(/[^A-Za-z0-9.-]/g, '_')
  return join(base, 'openbell', `log-${host}.json`)
}

export async function runLogCommand(args: string[], print: (line: string) => void, complain: (line: string) => void, env: Env = process.env): Promise<number> {
  // Whatever a line carries from the log (an origin, a name, a receipt's fields) reaches the terminal without control characters.
  const out = (line: string) => print(printableLines(line))
  const err = (line: string) => complain(printableLines(line))
  const [sub, ...rest] = args
  if (sub !== 'verify') {
    err(`${LOG_USAGE}\n\n${LOG_PROOF_USAGE}`)
    return 2
  }
  // Offline: a tlog-proof under a policy (src/cli/log-proof.ts).
  if (rest.includes('--proof')) return runLogProofCommand(rest, out, err)
  const options: { url?: string; state?: string; receipt?: string; vkey?: string; witnesses: string[]; limits: FetchLimits } = { witnesses: [], limits: { ...DEFAULT_FETCH_LIMITS } }
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]]
    if (value === undefined) {
      err(`${flag} needs a value\n${LOG_USAGE}`)
      return 2
    }
    if (flag === '--url') options.url = value
    else if (flag === '--state') options.state = value
    else if (flag === '--receipt') options.receipt = value
    else if (flag === '--vkey') options.vkey = value
    else if (flag === '--witness') options.witnesses.push(value)
    else if (flag !== undefined && flag in TIMEOUT_FLAGS) {
      const seconds = /^[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : NaN
      if (!(seconds > 0 && seconds <= 3600)) {
        err(`${flag} must be a number of seconds above 0, at most 3600\n${LOG_USAGE}`)
        return 2
      }
      options.limits = { ...options.limits, [TIMEOUT_FLAGS[flag]!]: Math.round(seconds * 1000) }
    } else {
      err(`unknown option ${flag}\n${LOG_USAGE}`)
      return 2
    }
  }
  if (!options.url || !/^https?:\/\/[^\s/]+/.test(options.url)) {
    err(`--url must be the service's base URL (http or https)\n${LOG_USAGE}`)
    return 2
  }
  const statePath = options.state ?? defaultStatePath(options.url, env)
  let state: MonitorState | null = null
  try {
    state = JSON.parse(readFileSync(statePath, 'utf8')) as MonitorState
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      err(`cannot read the state file ${statePath}: ${(error as Error).message}`)
      return 2
    }
  }
  try {
    const result = await verifyLog({ url: options.url, state, vkey: options.vkey, receiptId: options.receipt, witnesses: options.witnesses, limits: options.limits })
    mkdirSync(dirname(statePath), { recursive: true, mode: 0o700 })
    writeFileSync(`${statePath}.tmp`, JSON.stringify(result.state, null, 2) + '\n', { mode: 0o600 })
    renameSync(`${statePath}.tmp`, statePath)
    for (const line of result.lines) out(line)
    out(`OK: state saved to ${statePath}`)
    return 0
  } catch (error) {
    if (error instanceof Mismatch) {
      err(`FAIL: ${error.message}`)
      return 1
    }
    if (error instanceof Refused) {
      err(`REFUSED: ${error.message}; nothing verified, the state is unchanged`)
      return 2
    }
    // Unavailable, a network error: the message is ours or the runtime's (made printable anyway).
    err(`cannot verify ${options.url}: ${printable((error as Error).message, 300)}`)
    return 2
  }
}
