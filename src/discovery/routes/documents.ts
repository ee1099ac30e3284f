// Documents agents read first: /robots.txt, /llms.txt, /llms-full.txt, /SKILL.md (with ETag and
// Last-Modified, answering 304), /.well-known/agent.json and /.well-known/security.txt.
import { Elysia, t } from 'elysia'
import type { DiscoveryDeps } from '../deps'
import { ApiError, jsonResponse } from '../../http/errors'
import { responses } from '../../http/openapi'
import { TEXT_DOCUMENTS, TextDocuments, notModified, type TextDocumentPath } from '../text-documents'
import { agentMetadata, securityTxt } from '../agent-metadata'

const CACHE = 'public, max-age=300'

export function documentRoutes(deps: DiscoveryDeps, routeTable: () => readonly { path: string }[]) {
  const documents = new TextDocuments(deps)
  const serve = (path: TextDocumentPath) => ({ request }: { request: Request }) => {
    const document = documents.get(path)
    const headers = { etag: document.etag, 'last-modified': new Date(document.lastModified).toUTCString(), 'cache-control': CACHE, vary: 'Origin' }
    if (notModified(request, document)) return new Response(null, { status: 304, headers })
    return new Response(document.body, { headers: { ...headers, 'content-type': TEXT_DOCUMENTS[path].type } })
  }
  const textDoc = (summary: string, type: string) => ({
    detail: { tags: ['discovery'], summary, responses: { ...responses({ 200: [summary, t.String(), type] }), 304: { description: 'Not modified (If-None-Match or If-Modified-Since matched)' } } },
  })
  const doc = (path: TextDocumentPath, summary: string) => textDoc(summary, TEXT_DOCUMENTS[path].type.split(';')[0]!)
  return new Elysia({ name: 'discovery-documents' })
    .get('/robots.txt', serve('/robots.txt'), doc('/robots.txt', 'robots.txt'))
    .get('/llms.txt', serve('/llms.txt'), doc('/llms.txt', 'llms.txt (llmstxt.org layout)'))
    .get('/llms-full.txt', serve('/llms-full.txt'), doc('/llms-full.txt', 'Full agent-facing documentation in one text'))
    .get('/SKILL.md', serve('/SKILL.md'), doc('/SKILL.md', 'Skill file (YAML front matter name/description, then usage)'))
    .get('/.well-known/agent.json', () => jsonResponse(agentMetadata(deps, new Set(routeTable().map((route) => route.path))), 200, { 'cache-control': CACHE, vary: 'Origin' }), {
      detail: { tags: ['discovery'], summary: 'Agent metadata', responses: responses({ 200: ['Agent metadata', t.Object({ schema_version: t.String(), spec_version: t.String({ format: 'date' }), name: t.String(), capabilities: t.Object({}, { additionalProperties: true }), mcp: t.Object({}, { additionalProperties: true }), rest_api: t.Object({}, { additionalProperties: true }), trust: t.Object({}, { additionalProperties: true }), safety: t.Object({}, { additionalProperties: true }) }, { additionalProperties: true })] }) },
    })
    .get(
      '/.well-known/security.txt',
      () => {
        const text = securityTxt(deps)
        if (text === null) throw new ApiError(404, 'NOT_FOUND', 'no security contact is configured on this server (SECURITY_CONTACT)')
        return new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=86400' } })
      },
      { detail: { tags: ['discovery'], summary: 'RFC 9116 security.txt', responses: responses({ 200: ['security.txt', t.String(), 'text/plain'], 404: 'NOT_FOUND: no SECURITY_CONTACT configured' }) } },
    )
}
