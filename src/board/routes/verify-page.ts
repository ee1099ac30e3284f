// GET /verify: the in-browser verifier (the page is static; the checking is the browser script's).
import { Elysia, t } from 'elysia'
import { responses } from '../../http/openapi'
import { pageResponse } from '../layout'
import { verifyPageBody } from '../pages/verify-page'

export function verifyPageRoutes() {
  const body = verifyPageBody()
  return new Elysia({ name: 'board-verify-page' }).get('/verify', () => pageResponse({ page: 'verify', title: 'Verify a receipt', body }), {
    query: t.Object({}, { additionalProperties: true }),
    detail: {
      tags: ['board'],
      summary: 'Verify a receipt, witness receipt or signed daily digest in the browser (WebCrypto Ed25519 against /v5/keys), and an inclusion proof against its day’s root',
      responses: responses({ 200: ['HTML page', t.String(), 'text/html'] }),
    },
  })
}
