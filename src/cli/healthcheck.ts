// `openbell healthcheck`: exit 0 when the local service answers /v5/health with 200 (for Docker
// and supervisors); otherwise exit 1 and say on stderr what was asked and what came back.

/** Where the service can be reached on this machine: HOST itself, or loopback for a wildcard. */
export function healthcheckUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  return `http://${name}:${port}/v5/health`
}

export async function runHealthcheck(host: string, port: number, err: (line: string) => void = (line) => console.error(line)): Promise<number> {
  const url = healthcheckUrl(host, port)
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3000) })
    if (response.status === 200) return 0
    err(`healthcheck: ${url} answered ${response.status}`)
  } catch (error) {
    err(`healthcheck: ${url}: ${error instanceof Error ? error.message : String(error)} (is the service running with this PORT and HOST?)`)
  }
  return 1
}
