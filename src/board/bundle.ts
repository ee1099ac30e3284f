// Build-time only: imported `with { type: 'macro' }` by assets.ts, so Bun runs it while
// transpiling (from source: at start; `bun build --compile`: once, into the binary) and inlines
// the returned text. It bundles the pages' browser script (board/client/main.ts and what it
// imports: the shared wording and the verifier package, packages/verify, with its @noble
// libraries) for browsers. Bun.build cannot run
// inside a macro while the bundler waits on it, so the CLI bundles in a child process.
import { join } from 'node:path'

export function browserScript(): string {
  const entry = join(import.meta.dir, 'client', 'main.ts')
  const result = Bun.spawnSync([process.execPath, 'build', entry, '--target=browser', '--format=esm', '--minify'], { stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`bundling the board's browser script failed:\n${result.stderr.toString()}`)
  return result.stdout.toString()
}
