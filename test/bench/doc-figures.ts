// Writing a bench's figures into docs/performance.md between its generated markers
// (`<!-- bench-NAME:start -->` … `<!-- bench-NAME:end -->`); nothing is written without them.
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { resolve } from 'node:path'

export function writeDocFigures(name: string, header: string, rows: string[]): void {
  const path = resolve(import.meta.dir, '../../docs/performance.md')
  const doc = readFileSync(path, 'utf8')
  const start = `<!-- bench-${name}:start -->`
  const end = `<!-- bench-${name}:end -->`
  if (!doc.includes(start) || !doc.includes(end)) return
  writeFileSync(path, `${doc.slice(0, doc.indexOf(start) + start.length)}\n${header}\n\n${rows.join('\n')}\n${doc.slice(doc.indexOf(end))}`)
}

/** The machine, the runtime and the load average (1, 5, 15 min) now: the line above a table. */
export function machineLine(): string {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
  return `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; Bun ${Bun.version}; run ${new Date().toISOString()}; load average at the end ${load}`
}
