// Debian's nginx started by a test in front of the service with a server block taken from docs/,
// as a child process with its own prefix, pid, log and temp paths in the test's temp directory.
// Only the upstream addresses, the listen address (a free loopback port) and the certificate (made
// for the test) are replaced; each replacement must change the block (the page still says it).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { freePort } from './process'
import type { TestCertificate } from './https-receiver'

export interface TestNginx {
  port: number
  process: Subprocess
  /** Graceful stop (SIGQUIT), SIGKILL after 5 s. */
  stop(): Promise<void>
}

/** `block` with each `[from, to]` applied; throws when one of them changes nothing. */
export function replaceEach(block: string, replacements: [string | RegExp, string][]): string {
  return replacements.reduce((text, [from, to]) => {
    const next = text.replace(from, to)
    if (next === text) throw new Error(`the server block does not contain ${from}`)
    return next
  }, block)
}

/**
 * Starts nginx with `serverBlock` (upstreams replaced by `upstreams`) on a free loopback port and
 * waits until `ready(port)` says it answers.
 */
export async function startNginx(options: { dir: string; serverBlock: string; upstreams: [string | RegExp, string][]; certificate: TestCertificate; ready: (port: number) => Promise<boolean> }): Promise<TestNginx> {
  const { dir, certificate } = options
  const port = freePort()
  const server = replaceEach(options.serverBlock, [
    ...options.upstreams,
    ['listen 443 ssl;', `listen 127.0.0.1:${port} ssl;`],
    [/ssl_certificate\s+\S+;/, `ssl_certificate ${certificate.certFile};`],
    [/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${join(certificate.certFile, '..', 'key.pem')};`],
  ])
  writeFileSync(join(dir, 'openbell.conf'), server)
  for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp))
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/openbell.conf;
}
`,
  )
  // Debian puts nginx in /usr/sbin, which a non-root PATH may lack.
  const child = Bun.spawn([Bun.which('nginx') ?? '/usr/sbin/nginx', '-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], { stdout: 'ignore', stderr: 'pipe' })
  const nginx: TestNginx = {
    port,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGQUIT')
      const stopped = await Promise.race([child.exited.then(() => true), Bun.sleep(5000).then(() => false)])
      if (!stopped) child.kill('SIGKILL')
      await child.exited
    },
  }
  const deadline = Date.now() + 20_000
  while (!(await options.ready(port).catch(() => false))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await nginx.stop()
      const errors = join(dir, 'error.log')
      throw new Error(`nginx did not start: ${existsSync(errors) ? readFileSync(errors, 'utf8') : `exit ${child.exitCode}`}`)
    }
    await Bun.sleep(100)
  }
  return nginx
}
