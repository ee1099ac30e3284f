// `openbell log verify --url <base> [--state <file>] [--receipt <id>] [--vkey <vkey>] [--witness <vkey>]…`:
// follows a service's receipt log like a monitor (src/transparency/monitor.ts) and keeps the last
// verified checkpoint in a state file, under $XDG_STATE_HOME/openbell/ or ~/.local/state/openbell/.
// Exit 0 when everything agrees, 1 on any mismatch (nothing saved), 2 for a usage or network error.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { Mismatch, verifyLog, type MonitorState } from '../transparency/monitor'
import { LOG_PROOF_USAGE, runLogProofCommand } from './log-proof'

export const LOG_USAGE = `usage: openbell log verify --url <base URL> [--state <file>] [--receipt <receipt id>] [--vkey <log vkey>] [--witness <witness vkey>]…

  Fetches the log's checkpoint, the entries and tiles added since the checkpoint verified last
  time, rebuilds the tree and checks the root, the tiles and the consistency proof; with
  --receipt, checks that receipt's inclusion and signature; with --witness, requires that
  witness's cosignature. The state (the last verified checkpoint and the log key, pinned on
  first use) is kept in --state, default $XDG_STATE_HOME/openbell/log-<host>.json
  (~/.local/state/openbell/ without XDG_STATE_HOME). Exit 0: verified; 1: a mismatch; 2: usage or network error.`

type Env = Record<string, string | undefined>

export function defaultStatePath(url: string, env: Env = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state')
  const host = new URL(url).host.replace(/[^A-Za-z0-9.-]/g, '_')
  return join(base, 'openbell', `log-${host}.json`)
}

export async function runLogCommand(args: string[], out: (line: string) => void, err: (line: string) => void, env: Env = process.env): Promise<number> {
  const [sub, ...rest] = args
  if (sub !== 'verify') {
    err(`${LOG_USAGE}\n\n${LOG_PROOF_USAGE}`)
    return 2
  }
  // Offline: a tlog-proof under a policy (src/cli/log-proof.ts).
  if (rest.includes('--proof')) return runLogProofCommand(rest, out, err)
  const options: { url?: string; state?: string; receipt?: string; vkey?: string; witnesses: string[] } = { witnesses: [] }
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
    else {
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
    const result = await verifyLog({ url: options.url, state, vkey: options.vkey, receiptId: options.receipt, witnesses: options.witnesses })
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
    err(`cannot verify ${options.url}: ${(error as Error).message}`)
    return 2
  }
}
