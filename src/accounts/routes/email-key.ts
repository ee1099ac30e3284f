// POST /v5/keys/request {email}: a free key that only the e-mail carries. The key row and the
// message commit together before the answer; the mail job sends it. 3 per client address (and
// per recipient) per 24 hours. Without SMTP configured: 503, and no key is made.
import { Elysia, t } from 'elysia'
import type { AccountsDeps } from '../deps'
import { ApiError, badRequest, jsonResponse } from '../../http/errors'
import { jsonBody, responses } from '../../http/openapi'
import { AllowanceExhausted } from '../self-service'
import { EMAIL_KEY_WINDOW_HOURS, EMAIL_KEYS_PER_ADDRESS } from '../offers'
import { callerAddress, parseEmail, rateLimited, readJsonObject } from './input'

const notAllowed = () => jsonResponse({ error: 'METHOD_NOT_ALLOWED', message: 'ask for a key with POST {"email": "…"}' }, 405, { allow: 'POST, OPTIONS' })
const notAllowedDoc = { detail: { tags: ['accounts'], summary: 'Not supported (POST only)', responses: responses({ 405: 'METHOD_NOT_ALLOWED' }) } }

export function emailKeyRoutes(deps: AccountsDeps) {
  return new Elysia({ name: 'accounts-email-key' })
    .post(
      '/v5/keys/request',
      async ({ request, server }) => {
        const body = await readJsonObject(request, deps, 'INVALID_EMAIL', '{"email": "…"}')
        const email = parseEmail(body.email)
        if (!email) throw badRequest('INVALID_EMAIL', 'email must be an e-mail address')
        if (!deps.mail.configured) throw new ApiError(503, 'EMAIL_NOT_CONFIGURED', 'e-mail is not configured on this server; get a key at once with POST /v5/keys/instant')
        const now = deps.clock.now()
        let issued
        try {
          issued = await deps.selfService.emailed(email, callerAddress(request, deps, server), now)
        } catch (error) {
          if (error instanceof AllowanceExhausted) throw rateLimited(`at most ${EMAIL_KEYS_PER_ADDRESS} e-mailed keys per client address and per recipient in ${EMAIL_KEY_WINDOW_HOURS} hours`, error.resetAt, now)
          throw error
        }
        deps.mail.wake()
        deps.log.info('e-mail key issued', { key_prefix: issued.keyPrefix, mail_id: issued.mailId })
        return { plan: 'free', message: `A free API key is on its way to ${email}. It is sent only by e-mail and shown nowhere else.` }
      },
      {
        parse: 'none',
        detail: {
          tags: ['accounts'],
          summary: 'Get a free API key by e-mail (3 per client address per 24 hours)',
          requestBody: jsonBody(t.Object({ email: t.String({ format: 'email' }) })),
          responses: responses({
            200: ['Email key (the key itself is only in the e-mail)', t.Object({ plan: t.Literal('free'), message: t.String() })],
            400: 'INVALID_EMAIL',
            405: 'METHOD_NOT_ALLOWED',
            429: 'RATE_LIMITED (Retry-After)',
            503: 'EMAIL_NOT_CONFIGURED',
          }),
        },
      },
    )
    .get('/v5/keys/request', notAllowed, notAllowedDoc)
    .put('/v5/keys/request', notAllowed, notAllowedDoc)
    .patch('/v5/keys/request', notAllowed, notAllowedDoc)
    .delete('/v5/keys/request', notAllowed, notAllowedDoc)
}
