// Starting one of the bench servers (test/bench/servers/*.ts) in its own process: it prints
// `READY <fields…>` on its first line; stop() sends SIGTERM and waits for it to exit.
import { resolve } from 'node:path'

export async function startServer(script: string, env: Record<string, string> = {}): Promise<{ fields: string[]; pid: number; stop: () => Promise<void> }> {
  const child = Bun.spawn(['bun', resolve(import.meta.dir, 'servers', script), '0'], { stdout: 'pipe', stderr: 'inherit', env: { ...process.env, TZ: 'UTC', ...env } })
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader()
  let text = ''
  while (!text.includes('\n')) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`${script} exited before READY`)
    text += new TextDecoder().decode(value)
  }
  const fields = text.trim().split(/\s+/).slice(1)
  return {
    fields,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM')
      await child.exited
    },
  }
}

