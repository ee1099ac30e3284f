// Validation of POST /v5/webhooks/subscribe bodies. Every failure is a 400 with the spec's error
// object; nothing is stored unless all of it is valid.
import { badRequest } from '../../http/errors'
import { asciiMic, unknownMic } from '../../calendar/mic-param'
import { isSupportedMic, SUPPORTED_MICS, type Mic } from '../../calendar/mics'
import { WEBHOOK_EVENTS, type WebhookEvent } from './store'

export const MAX_URL_LENGTH = 2048

export interface SubscribeRequest {
  url: URL
  mics: Mic[]
  events: WebhookEvent[]
}

export function parseSubscribe(text: string): SubscribeRequest {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = null
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('BAD_REQUEST', 'body must be a JSON object {url, mics, events?}')
  const input = body as Record<string, unknown>
  return { url: parseUrl(input.url), mics: parseMics(input.mics), events: parseEvents(input.events) }
}

function parseUrl(value: unknown): URL {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('URL_REQUIRED', 'url (an https:// URL) is required')
  if (value.length > MAX_URL_LENGTH) throw badRequest('INVALID_URL', `url is limited to ${MAX_URL_LENGTH} characters`)
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    throw badRequest('INVALID_URL', 'url is not a valid absolute URL')
  }
  if (url.protocol !== 'https:') throw badRequest('HTTPS_REQUIRED', 'webhook URLs must use https://')
  if (url.username || url.password) throw badRequest('INVALID_URL', 'url must not carry credentials; authenticate deliveries with the signing secret')
  if (url.hash) throw badRequest('INVALID_URL', 'url must not have a fragment')
  return url
}

function parseMics(value: unknown): Mic[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest('MICS_REQUIRED', 'mics must be a non-empty array of MICs', { supported: [...SUPPORTED_MICS] })
  if (value.length > SUPPORTED_MICS.length * 2) throw badRequest('TOO_MANY_MICS', `mics is limited to ${SUPPORTED_MICS.length} distinct MICs`)
  const mics: Mic[] = []
  for (const raw of value) {
    if (typeof raw !== 'string') throw unknownMic(String(raw))
    const mic = asciiMic(raw)
    if (mic === null || !isSupportedMic(mic)) throw unknownMic(raw)
    if (!mics.includes(mic)) mics.push(mic)
  }
  return mics
}

function parseEvents(value: unknown): WebhookEvent[] {
  if (value === undefined || value === null) return ['status_change']
  if (!Array.isArray(value) || value.length === 0) throw badRequest('INVALID_EVENTS', `events must be a non-empty array of ${WEBHOOK_EVENTS.join(', ')}`)
  const events: WebhookEvent[] = []
  for (const raw of value) {
    if (typeof raw !== 'string' || !WEBHOOK_EVENTS.includes(raw as WebhookEvent)) throw badRequest('UNKNOWN_EVENT', `unknown event ${JSON.stringify(String(raw).slice(0, 32))}; supported: ${WEBHOOK_EVENTS.join(', ')}`, { supported_events: [...WEBHOOK_EVENTS] })
    if (!events.includes(raw as WebhookEvent)) events.push(raw as WebhookEvent)
  }
  return events
}
