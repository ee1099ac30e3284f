// One JSON object per line on stdout. Callers pass only non-secret fields.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export type LogFields = Record<string, unknown>

export interface Logger {
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  enabled(level: LogLevel): boolean
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line + '\n')): Logger {
  const threshold = RANK[level]
  // The time text is made once per millisecond (a busy server writes many lines per ms).
  let lastMs = NaN
  let lastTime = ''
  const emit = (at: LogLevel, msg: string, fields?: LogFields) => {
    if (RANK[at] < threshold) return
    const ms = Date.now()
    if (ms !== lastMs) {
      lastMs = ms
      lastTime = new Date(ms).toISOString()
    }
    // Same text as JSON.stringify({ time, level, msg, ...fields }), without copying the fields;
    // fields that reuse a header name take the general path (their value wins, as in the spread).
    if (fields === undefined || !('time' in fields || 'level' in fields || 'msg' in fields)) {
      const rest = fields === undefined ? '{}' : JSON.stringify(fields)
      write(`{"time":"${lastTime}","level":"${at}","msg":${JSON.stringify(msg)}${rest.length > 2 ? ',' + rest.slice(1) : '}'}`)
    } else write(JSON.stringify({ time: lastTime, level: at, msg, ...fields }))
  }
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    enabled: (at) => RANK[at] >= threshold,
  }
}

/** A logger that keeps lines in memory; for tests and for commands that print their own output. */
export function memoryLogger(level: LogLevel = 'debug'): Logger & { lines: LogFields[] } {
  const lines: LogFields[] = []
  return Object.assign(createLogger(level, (line) => lines.push(JSON.parse(line))), { lines })
}
