// `openbell healthcheck`: exit 0 when the local service answers /v5/health with 200 (for Docker).
export async function runHealthcheck(port: number): Promise<number> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/v5/health`, { signal: AbortSignal.timeout(3000) })
    return response.status === 200 ? 0 : 1
  } catch {
    return 1
  }
}
