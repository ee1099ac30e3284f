// `openbell healthcheck`: exit 0 when the local service answers /v5/health with 200 (for Docker
// and supervisors); otherwise exit 1 and say on stderr what was asked and what came back.
// `--ready` asks /v5/ready instead (the node can answer live requests), and `--wait SECONDS`
// asks again until it answers 200 or the time is up (systemd's ExecStartPost, docs/operations.md).

export type HealthcheckOptions = { ready?: boolean; waitSeconds?: number }

/** Where the service can be reached on this machine: HOST itself, or loopback for a wildcard. */
export function healthcheckUrl(host: string, port: number, ready = false): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  return `http://${name}:${port}/v5/${ready ? 'ready' : 'health'}`
}

/** `--ready` and `--wait SECONDS` (1 to 3600); a message for anything else. */
export function parseHealthcheckArgs(args: readonly string[]): HealthcheckOptions | string {
  const options: HealthcheckOptions = {}
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--ready') options.ready = true
    else if (args[i] === '--wait' && /^[1-9][0-9]{0,3}$/.test(args[i + 1] ?? '') && Number(args[i + 1]) <= 3600) options.waitSeconds = Number(args[++i])
    else return `healthcheck: unexpected ${JSON.stringify(args[i])}; usage: openbell healthcheck [--ready] [--wait SECONDS (1-3600)]`
  }
  return options
}

async function askOnce(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3000) })
    await response.arrayBuffer()
    return response.status === 200 ? null : `healthcheck: ${url} answered ${response.status}`
  } catch (error) {
    return `healthcheck: ${url}: ${error instanceof Error ? error.message : String(error)} (is the service running with this PORT and HOST?)`
  }
}

export async function runHealthcheck(host: string, port: number, err: (line: string) => void = (line) => console.error(line), options: HealthcheckOptions = {}): Promise<number> {
  const url = healthcheckUrl(host, port, options.ready)
  const deadline = Date.now() + (options.waitSeconds ?? 0) * 1000
  for (;;) {
    const failure = await askOnce(url)
    if (!failure) return 0
    if (Date.now() + 500 > deadline) {
      err(options.waitSeconds ? `${failure} (still, after ${options.waitSeconds} s)` : failure)
      return 1
    }
    await Bun.sleep(500)
  }
}
