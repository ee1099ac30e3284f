// Issue 10, "Done when": a newcomer with curl alone and no operator gets an instant key, calls
// /v5/status until the free limit, sees the usage, gets an OAuth token and uses it on the tool
// endpoint; an e-mailed key arrives in a real SMTP inbox. Then a clean restart (SIGTERM) keeps
// the counts, and the log of the whole run holds none of the keys or tokens it made.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { tempDir } from '../helpers/app'
import { clockOffsetTo, SLOW_SETUP_MS, startService, type RunningService } from '../helpers/process'
import { keyInMail, startSmtp, type TestSmtp } from '../helpers/smtp'

const FREE_LIMIT = 4

interface CurlAnswer {
  status: number
  headers: Map<string, string>
  body: any
}

/** Runs the real curl binary; `-i` puts the status line and headers before the body. */
async function curl(args: string[]): Promise<CurlAnswer> {
  const child = Bun.spawn(['curl', '-s', '-i', '--max-time', '10', ...args], { stdout: 'pipe', stderr: 'pipe' })
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  if (child.exitCode !== 0) throw new Error(`curl ${args.join(' ')} failed (${child.exitCode}): ${err}`)
  const split = out.indexOf('\r\n\r\n')
  const [statusLine, ...lines] = out.slice(0, split).split('\r\n')
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
  const text = out.slice(split + 4)
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text ? JSON.parse(text) : null }
}

describe('a newcomer with curl alone', () => {
  let smtp: TestSmtp
  let env: Record<string, string>
  // The run counts per UTC day (the free limit, requests_today): both processes' clocks are set to
  // midday, so a run that starts just before midnight does not see the day change midway.
  const clock = { clockOffsetMs: clockOffsetTo('12:00:00.000') }
  const services: RunningService[] = []
  const log = () => services.map((service) => service.output()).join('\n')
  beforeAll(async () => {
    smtp = await startSmtp()
    env = { DATA_DIR: tempDir(), SMTP_URL: smtp.url, MAIL_FROM: 'keys@oracle.test', FREE_DAILY_LIMIT: String(FREE_LIMIT), LOG_LEVEL: 'debug' }
    services.push(await startService(env, clock))
  }, SLOW_SETUP_MS)
  afterAll(async () => {
    for (const service of services) service.process.kill()
    await Promise.all(services.map((service) => service.process.exited))
    await smtp.close()
  })

  test('instant key → /v5/status until the free limit → /v5/usage → OAuth token; an e-mailed key; counts survive a restart; no secret in the log', async () => {
    let base = services[0]!.base
    const secrets: string[] = []
    // The service runs on the midday clock (a run takes well under an hour).
    expect(((await (await fetch(`${base}/v5/demo`)).json()) as { issued_at: string }).issued_at.slice(11, 13)).toBe('12')

    // 1. A key in one call.
    const instant = await curl(['-X', 'POST', `${base}/v5/keys/instant`, '-H', 'content-type: application/json', '-d', '{"agent_id":"newcomer-agent"}'])
    expect(instant.status).toBe(200)
    const key: string = instant.body.api_key
    expect(key).toMatch(/^svc_free_[0-9a-f]{64}$/)
    expect(instant.body).toMatchObject({ plan: 'free', daily_limit: FREE_LIMIT })
    expect(instant.body.example).toContain('/v5/status')
    secrets.push(key)

    // 2. /v5/status until the free limit: exactly the daily limit is admitted, then 402.
    const limit: number = instant.body.daily_limit
    let admitted = 0
    let refused: CurlAnswer | null = null
    for (let call = 0; call < limit + 3 && !refused; call++) {
      const answer = await curl([`${base}/v5/status?mic=XNYS`, '-H', `X-Oracle-Key: ${key}`])
      if (answer.status === 200) {
        admitted++
        expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(limit - admitted))
      } else refused = answer
    }
    expect(admitted).toBe(limit)
    expect(refused!.status).toBe(402)
    expect(refused!.body.error).toBe('FREE_TIER_EXHAUSTED')
    const retryAfter = Number(refused!.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(86_400)
    expect(refused!.headers.get('x-ratelimit-remaining')).toBe('0')

    // 3. What was used.
    const usage = await curl([`${base}/v5/usage`, '-H', `X-Oracle-Key: ${key}`])
    expect(usage.status).toBe(200)
    expect(usage.body).toMatchObject({ plan: 'free', requests_today: limit, daily_limit: limit, percent_used_today: 100, credit_balance: 0 })
    expect(usage.body.key_prefix).toBe(key.slice(0, 'svc_free_'.length + 8))

    // 4. An OAuth token for the tool endpoint, with the key as client_id (curl's -d is form-encoded).
    const granted = await curl(['-X', 'POST', `${base}/oauth/token`, '-d', 'grant_type=client_credentials', '-d', `client_id=${key}`])
    expect(granted.status).toBe(200)
    expect(granted.headers.get('cache-control')).toBe('no-store')
    expect(granted.body).toMatchObject({ token_type: 'bearer', expires_in: 3600 })
    const token: string = granted.body.access_token
    secrets.push(token)
    // The token is the key on the tool endpoint: its status tool is refused like /v5/status (the quota is spent).
    const call = await curl([
      '-X', 'POST', `${base}/mcp`, '-H', `Authorization: Bearer ${token}`, '-H', 'content-type: application/json', '-H', 'accept: application/json, text/event-stream',
      '-d', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_market_status', arguments: { mic: 'XNYS' } } }),
    ])
    expect(call.status).toBe(200)
    expect(JSON.parse(call.body.result.content[0].text)).toMatchObject({ error: 'FREE_TIER_EXHAUSTED' })
    const forged = await curl(['-X', 'POST', `${base}/mcp`, '-H', `Authorization: Bearer obt_${'A'.repeat(43)}`, '-H', 'content-type: application/json', '-d', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'])
    expect(forged.status).toBe(401)

    // 5. A key by e-mail arrives in the inbox and works.
    const requested = await curl(['-X', 'POST', `${base}/v5/keys/request`, '-H', 'content-type: application/json', '-d', '{"email":"newcomer@example.com"}'])
    expect(requested.status).toBe(200)
    expect(JSON.stringify(requested.body)).not.toMatch(/svc_free_[0-9a-f]{64}/)
    const [mail] = await smtp.waitFor(1, 15_000)
    const mailed = keyInMail(mail!, 'svc_free_')
    secrets.push(mailed)
    expect((await curl([`${base}/v5/status?mic=XNYS`, '-H', `X-Oracle-Key: ${mailed}`])).status).toBe(200)

    // 6. A clean restart (SIGTERM right after the calls) keeps every count.
    services[0]!.process.kill('SIGTERM')
    await services[0]!.process.exited
    expect(services[0]!.process.exitCode).toBe(0)
    services.push(await startService(env, clock))
    base = services[1]!.base
    const after = await curl([`${base}/v5/usage`, '-H', `X-Oracle-Key: ${key}`])
    expect(after.body.requests_today).toBe(limit)
    expect((await curl([`${base}/v5/status?mic=XNYS`, '-H', `X-Oracle-Key: ${key}`])).status).toBe(402)
    expect((await curl([`${base}/v5/usage`, '-H', `X-Oracle-Key: ${mailed}`])).body.requests_today).toBe(1)

    // 7. The log of the whole run (both processes, debug level) names keys by prefix only, and no token.
    const output = log()
    expect(output).toContain(key.slice(0, 17))
    for (const secret of secrets) expect(output).not.toContain(secret)
    expect(output).not.toMatch(/(svc_free_|sb_|svc_crd_|svc_live_)[0-9a-f]{64}|obt_[A-Za-z0-9_-]{43}/)
  }, 90_000)
})
