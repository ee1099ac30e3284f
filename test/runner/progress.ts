// Progress of one `bun test` process read from its output as it comes: bun test runs its files
// one after another and starts each with a line "<path>:", then one "(pass)", "(fail)", "(skip)"
// or "(todo)" line per test. A file is finished when the next one starts or the output ends.
// The lines this produces must not look like bun test's closing counts (" 12 pass"), which
// .ci/run reads from the last summary.

export interface FileDone {
  file: string
  pass: number
  fail: number
  skip: number
  seconds: number
}

const HEADER = /^(\S.*\.test\.[cm]?[jt]sx?):$/
const RESULT = /^\((pass|fail|skip|todo)\) /
/** After the last file, bun test repeats its failures under "3 tests failed:" (and skipped, todo): not a file's. */
const RECAP = /^\d+ tests? (failed|skipped|todo)s?:$/

export class ProgressReader {
  private current: { file: string; started: number; pass: number; fail: number; skip: number } | null = null
  private rest = ''
  private readonly decoder = new TextDecoder()

  constructor(private readonly onDone: (done: FileDone) => void) {}

  /** The file being run, and for how long and with how many passed so far. */
  running(): { file: string; seconds: number; pass: number } | null {
    return this.current && { file: this.current.file, seconds: (performance.now() - this.current.started) / 1000, pass: this.current.pass }
  }

  feed(chunk: Uint8Array): void {
    const text = this.rest + this.decoder.decode(chunk, { stream: true })
    const lines = text.split('\n')
    this.rest = lines.pop()!
    for (const line of lines) this.line(line)
  }

  end(): void {
    if (this.rest) this.line(this.rest)
    this.rest = ''
    this.finish()
  }

  private line(line: string): void {
    const header = HEADER.exec(line)
    if (header) {
      this.finish()
      this.current = { file: header[1]!, started: performance.now(), pass: 0, fail: 0, skip: 0 }
      return
    }
    if (RECAP.test(line)) return this.finish()
    const result = RESULT.exec(line)
    if (!result || !this.current) return
    if (result[1] === 'pass') this.current.pass++
    else if (result[1] === 'fail') this.current.fail++
    else this.current.skip++
  }

  private finish(): void {
    if (!this.current) return
    const { file, started, pass, fail, skip } = this.current
    this.current = null
    this.onDone({ file, pass, fail, skip, seconds: (performance.now() - started) / 1000 })
  }
}

export function progressLine(group: string, index: number, total: number, done: FileDone): string {
  const skipped = done.skip ? `, ${done.skip} skipped` : ''
  return `[${group} ${index}/${total}] ${done.file}: ${done.pass} passed, ${done.fail} failed${skipped} (${done.seconds.toFixed(1)} s)`
}
