// Server-sent event frames (text/event-stream). A frame is encoded once and the same bytes are
// queued on every stream of a MIC, so a tick costs one signature and one encoding.
const encoder = new TextEncoder()

/** One event: `id:` the receipt id, `event:` its name, `data:` the receipt JSON (one line). */
export function eventFrame(event: 'market_status' | 'halted', id: string, data: unknown): Uint8Array {
  return encoder.encode(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
}

/**
 * No signed receipt could be made (signer offline, audit log unwritable): `event: unknown` with the
 * spec's error object, always with status UNKNOWN (treat the market as CLOSED). No `id:`: nothing
 * was signed. Not terminal; the stream keeps trying at every tick.
 */
export function unknownFrame(error: Record<string, unknown>): Uint8Array {
  return encoder.encode(`event: unknown\ndata: ${JSON.stringify({ ...error, status: 'UNKNOWN' })}\n\n`)
}

/**
 * A venue's calendar changed (calendar-changes.ts): `event: calendar_change` with the changed dates,
 * unsigned (the dates are the calendar's, like /v5/calendar; receipts stay the signed answers). No
 * `id:`, so a reconnecting EventSource's Last-Event-ID stays the last receipt's.
 */
export function calendarChangeFrame(data: unknown): Uint8Array {
  return encoder.encode(`event: calendar_change\ndata: ${JSON.stringify(data)}\n\n`)
}

/** The reconnection hint sent first on every stream, in milliseconds. */
export function retryFrame(ms: number): Uint8Array {
  return encoder.encode(`retry: ${ms}\n\n`)
}

/** A comment line: ignored by clients, keeps proxies and idle timers from closing the connection. */
export const HEARTBEAT_FRAME = encoder.encode(': heartbeat\n\n')

/**
 * The last event of a stream that a newer stream of the same key replaced (the key was at its
 * plan's stream limit). Not retried by the server; a client that gets it should close its
 * EventSource: reconnecting would in turn replace the newer stream.
 */
export function replacedFrame(limit: number): Uint8Array {
  const message = `a newer stream of this API key took this stream's place (at most ${limit} at once); close this EventSource, reconnecting would replace the newer stream`
  return encoder.encode(`event: replaced\ndata: ${JSON.stringify({ error: 'STREAM_REPLACED', message, limit })}\n\n`)
}
