// The Paddle API calls this service makes: create a checkout transaction, and look up a
// customer's e-mail when a completed purchase carries none. Failures are BillingProviderError
// (502 to the caller of /v5/checkout; 503 to Paddle's webhook, which then retries).
import type { Config } from '../../config'

const TIMEOUT_MS = 10_000

export class BillingProviderError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BillingProviderError'
  }
}

async function call(config: Config, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const { apiKey, apiUrl } = config.paddle
  let response: Response
  try {
    response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (error) {
    throw new BillingProviderError(`the billing provider could not be reached (${(error as Error).name})`)
  }
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null
  if (!response.ok || !answer || typeof answer.data !== 'object' || answer.data === null) {
    const detail = (answer?.error as { code?: string } | undefined)?.code
    throw new BillingProviderError(`the billing provider answered ${response.status}${detail ? ` (${detail})` : ''}`)
  }
  return answer.data as Record<string, unknown>
}

/** A Paddle transaction for one price; its checkout URL is where the buyer pays. */
export async function createCheckout(config: Config, priceId: string, email: string | null): Promise<string> {
  const data = await call(config, 'POST', '/transactions', {
    items: [{ price_id: priceId, quantity: 1 }],
    ...(email ? { custom_data: { email } } : {}),
    collection_mode: 'automatic',
  })
  const url = (data.checkout as { url?: unknown } | null)?.url
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new BillingProviderError('the billing provider returned no checkout URL (is a default payment link set in Paddle?)')
  return url
}

export async function customerEmail(config: Config, customerId: string): Promise<string> {
  const data = await call(config, 'GET', `/customers/${encodeURIComponent(customerId)}`)
  if (typeof data.email !== 'string') throw new BillingProviderError('the customer has no e-mail address')
  return data.email
}
