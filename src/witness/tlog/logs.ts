// Which logs the C2SP witness cosigns: those of WITNESS_LOGS_FILE (read at start), those added
// with the admin API (in the database, so every node knows them at once), and this service's
// own log. An origin may have several keys (a log rotating its key is listed twice).
import { readFileSync } from 'node:fs'
import { parseVkey, type Vkey } from '../../transparency/note'
import { parseLogList, type ListedLog } from './log-list'
import type { TlogWitnessStore } from './store'

export type LogSource = 'file' | 'admin' | 'self'

export interface WitnessedLog {
  origin: string
  vkey: string
  key: Vkey
  source: LogSource
  qpd?: number
  contact?: string
  added_at?: string
}

export class LogListError extends Error {
  constructor(file: string, line: number, message: string) {
    super(`WITNESS_LOGS_FILE: ${file} line ${line}: ${message}`)
    this.name = 'LogListError'
  }
}

/** Reads and checks WITNESS_LOGS_FILE; throws LogListError (the start stops) when it is wrong. */
export function readLogListFile(file: string): ListedLog[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new LogListError(file, 0, `cannot read it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  const parsed = parseLogList(text)
  if (!parsed.ok) throw new LogListError(file, parsed.line, parsed.message)
  return parsed.logs
}

export class WitnessedLogs {
  constructor(
    private readonly store: TlogWitnessStore,
    private readonly fileLogs: readonly ListedLog[],
    private readonly self: { origin: string; vkey: string } | null,
  ) {}

  private fixed(): WitnessedLog[] {
    const logs: WitnessedLog[] = this.fileLogs.map((log) => ({ origin: log.origin, vkey: log.vkey, key: log.key, source: 'file', qpd: log.qpd, contact: log.contact }))
    if (this.self) logs.push({ origin: this.self.origin, vkey: this.self.vkey, key: parseVkey(this.self.vkey)!, source: 'self' })
    return logs
  }

  async list(): Promise<WitnessedLog[]> {
    const added = (await this.store.addedLogs()).map((log): WitnessedLog => ({ origin: log.origin, vkey: log.vkey, key: parseVkey(log.vkey)!, source: 'admin', added_at: log.added_at }))
    return [...this.fixed(), ...added]
  }

  async keysOf(origin: string): Promise<Vkey[]> {
    const fixed = this.fixed().filter((log) => log.origin === origin)
    const added = (await this.store.addedLogs()).filter((log) => log.origin === origin)
    return [...fixed.map((log) => log.key), ...added.map((log) => parseVkey(log.vkey)!)]
  }
}
