// GET /v5/stream?mic=&key=: signed market_status receipts as server-sent events. The key may come
// in the query because a browser EventSource cannot send headers; only the path is logged.
import { Elysia, t } from 'elysia'
import type { DeliveryDeps } from '../deps'
import { API_KEY_HEADER } from '../../http/auth'
import { requireAccount } from '../../accounts/key-check'
import { responses } from '../../http/openapi'
import { parseMic } from '../../calendar/mic-param'
import type { StreamHub } from '../stream/hub'
import { retryFrame } from '../stream/frames'
import { streamLimit } from '../../catalogue/limits'

/** Reconnection hint for EventSource clients. */
export const STREAM_RETRY_MS = 5000
/** Frames a client may fall behind by before it is dropped (a reader that stopped reading). */
const MAX_QUEUED_FRAMES = 64

export function streamRoutes(deps: DeliveryDeps, hub: StreamHub) {
  return new Elysia({ name: 'delivery-stream' }).get(
    '/v5/stream',
    async ({ query, request, server }) => {
      const account = await requireAccount(deps, request.headers.get(API_KEY_HEADER) ?? query.key)
      const mic = parseMic(query.mic)
      const limit = streamLimit(account.plan)
      const headers = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' }
      // HEAD: the GET's status and headers, no stream opened.
      if (request.method === 'HEAD') return new Response(null, { headers })
      // At the plan's limit the key's oldest stream, on any node, is replaced (StreamHub.register), never refused.
      const id = await hub.register(mic, account.key_hash, limit)
      // Bun closes connections idle for 10 s; a stream is quiet for up to the heartbeat interval.
      server?.timeout(request, 0)
      let release: (() => void) | null = null
      const body = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            controller.enqueue(retryFrame(STREAM_RETRY_MS))
            let open = true
            release = hub.attach(id, mic, account.key_hash, {
              send(frame) {
                if (!open) return false
                if ((controller.desiredSize ?? 0) < -MAX_QUEUED_FRAMES) return false
                controller.enqueue(frame)
                return true
              },
              end() {
                if (!open) return
                open = false
                try {
                  controller.close()
                } catch {
                  // already closed by the client
                }
              },
            }, limit)
            request.signal.addEventListener('abort', () => release?.(), { once: true })
          },
          cancel() {
            release?.()
          },
        },
        { highWaterMark: 1 },
      )
      return new Response(body, { headers })
    },
    {
      query: t.Object({ mic: t.Optional(t.String({ description: 'MIC, default XNYS' })), key: t.Optional(t.String({ description: 'API key (for EventSource, which cannot send headers)' })) }),
      detail: {
        tags: ['delivery'],
        summary: 'Server-sent events: a signed market_status receipt on connect and every STREAM_INTERVAL_SECONDS; terminal `halted`; at the key stream limit the oldest stream ends with `replaced`',
        responses: responses({ 200: ['Server-sent events: market_status (a signed receipt, id = receipt_id), halted (terminal), unknown (nothing could be signed this tick: the error object with status UNKNOWN), replaced (terminal: a newer stream of the key took this place; close the EventSource), comment heartbeats', t.String(), 'text/event-stream'], 400: 'UNKNOWN_MIC', 401: 'API_KEY_REQUIRED', 402: 'ACCOUNT_INACTIVE', 403: 'INVALID_API_KEY', 503: 'STORAGE_UNAVAILABLE (the database cannot be reached: the stream could not be registered; retry)' }),
      },
    },
  )
}
