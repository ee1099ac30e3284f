// POST and GET /v5/admin/witness/logs (ADMIN_KEY): the logs the C2SP witness cosigns, beside
// those of WITNESS_LOGS_FILE. An added log is stored in the database, so every node knows it.
import { Elysia, t } from 'elysia'
import type { TlogWitnessDeps } from '../deps'
import { authPlugin } from '../../http/auth'
import { ApiError, jsonResponse } from '../../http/errors'
import { jsonBody, responses } from '../../http/openapi'
import { BodyError, readBody } from '../../http/body'
import { parseVkey, SIG_ED25519 } from '../../transparency/note'
import { validOrigin } from './log-list'
import type { WitnessedLog } from './logs'

const hex8 = (id: number) => id.toString(16).padStart(8, '0')
const WitnessedLog = t.Object({ origin: t.String(), vkey: t.String(), key_id: t.String(), source: t.String(), witnessed_size: t.Union([t.Integer(), t.Null()]), cosigned_at: t.Union([t.String(), t.Null()]) }, { additionalProperties: true })
const MAX_BODY = 4096

export function witnessedLogView(log: WitnessedLog, head: { size: number; cosigned_at: number } | null) {
  return {
    origin: log.origin,
    vkey: log.vkey,
    key_id: hex8(log.key.keyId),
    source: log.source,
    ...(log.qpd !== undefined ? { qpd: log.qpd } : {}),
    ...(log.contact !== undefined ? { contact: log.contact } : {}),
    ...(log.added_at !== undefined ? { added_at: log.added_at } : {}),
    witnessed_size: head?.size ?? null,
    cosigned_at: head ? new Date(head.cosigned_at).toISOString() : null,
  }
}

export function witnessAdminRoutes(deps: TlogWitnessDeps) {
  const { logs, store } = deps.tlogWitness
  const bad = (message: string) => new ApiError(400, 'INVALID_WITNESSED_LOG', message)
  return new Elysia({ name: 'tlog-witness-admin' })
    .use(authPlugin(deps))
    .get(
      '/v5/admin/witness/logs',
      async () => {
        const list = await logs.list()
        return { logs: await Promise.all(list.map(async (log) => witnessedLogView(log, await store.latest(log.origin)))), count: list.length }
      },
      { admin: true, detail: { tags: ['operator'], summary: 'Logs the C2SP witness cosigns (file, admin API and this service’s own log) with the size last cosigned', responses: responses({ 200: ['Logs', t.Object({ logs: t.Array(WitnessedLog), count: t.Integer() })], 401: 'ADMIN_KEY_REQUIRED', 403: 'INVALID_ADMIN_KEY or ADMIN_DISABLED' }) } },
    )
    .post(
      '/v5/admin/witness/logs',
      async ({ request }) => {
        let body: unknown
        try {
          body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await readBody(request, { limit: MAX_BODY, timeoutMs: deps.config.bodyTimeoutMs })))
        } catch (error) {
          if (error instanceof BodyError && error.failure === 'timeout') throw new ApiError(408, 'REQUEST_TIMEOUT', 'the body did not arrive in time')
          throw bad(`the body must be a JSON object {"origin", "vkey"} of at most ${MAX_BODY} bytes`)
        }
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('the body must be a JSON object {"origin", "vkey"}')
        const { origin, vkey, ...rest } = body as Record<string, unknown>
        if (Object.keys(rest).length) throw bad(`unknown members: ${Object.keys(rest).join(', ')}`)
        const key = typeof vkey === 'string' ? parseVkey(vkey) : null
        if (!key || key.type !== SIG_ED25519) throw bad('vkey must be an Ed25519 note verifier key: <name>+<8 hex key id>+<base64 of 0x01 and the 32-byte key>')
        const logOrigin = origin === undefined ? key.name : origin
        if (typeof logOrigin !== 'string' || !validOrigin(logOrigin)) throw bad('origin must be the log’s checkpoint origin line: 1 to 255 characters without spaces (default: the vkey’s key name)')
        const added = await store.addLog({ origin: logOrigin, vkey: vkey as string, added_at: new Date(deps.clock.now()).toISOString() })
        deps.log.info('witnessed log added', { origin: logOrigin, key_id: hex8(key.keyId), new: added })
        const log = (await logs.list()).find((entry) => entry.origin === logOrigin && entry.vkey === vkey && entry.source === 'admin')!
        return jsonResponse(witnessedLogView(log, await store.latest(logOrigin)), added ? 201 : 200)
      },
      {
        admin: true,
        parse: 'none',
        detail: {
          tags: ['operator'],
          summary: 'Add a log for the C2SP witness to cosign (X-Oracle-Key: ADMIN_KEY)',
          requestBody: jsonBody(t.Object({ origin: t.Optional(t.String()), vkey: t.String() })),
          responses: responses({ 200: ['That log and key were added before', WitnessedLog], 201: ['Added', WitnessedLog], 400: 'INVALID_WITNESSED_LOG', 401: 'ADMIN_KEY_REQUIRED', 403: 'INVALID_ADMIN_KEY or ADMIN_DISABLED' }),
        },
      },
    )
}
