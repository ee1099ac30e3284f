// A refused page request: a browser gets the error as a page (same status, the error object's
// code and message on it), any other client the error object itself.
import { ApiError } from '../../http/errors'
import { html } from '../html'
import { pageResponse } from '../layout'
import { prefersHtml } from '../negotiate'

export function pageError(request: Request, error: ApiError): Response {
  if (!prefersHtml(request.headers.get('accept'))) return error.toResponse()
  const supported = Array.isArray(error.extra.supported) ? (error.extra.supported as string[]) : null
  const body = html`<h1>${error.status === 404 ? 'Not found' : 'That request was refused'}</h1>
<p class="notice"><code>${error.errorCode}</code>${error.hasMessage ? html`: ${error.message}` : ''}</p>
${supported ? html`<h2>Venues</h2><ul class="inline-list">${supported.map((mic) => html`<li><a href="/venue/${mic}">${mic}</a></li>`)}</ul>` : ''}
<p><a href="/">Back to the board</a></p>`
  return pageResponse({ page: 'error', title: error.errorCode, body }, error.status, error.headers)
}
