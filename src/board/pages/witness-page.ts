// The witness page (GET /witness?kid=&session_id=): a session's checkpoints as the witness
// received them, each with its signed receipt. Rendered on the server from the same read as
// GET /v1/witness/checkpoints; the browser script verifies every receipt's signature against
// /v5/keys and marks each row.
import { html, type SafeHtml } from '../html'
import type { WitnessLookup } from '../witness-lookup'

function form(kid = '', sessionId = ''): SafeHtml {
  return html`<form class="panel" method="get" action="/witness">
<div class="field"><label for="kid">kid</label>
<input id="kid" name="kid" value="${kid}" required minlength="43" maxlength="43" pattern="[A-Za-z0-9_\\-]{43}" autocomplete="off" spellcheck="false" aria-describedby="kid-help">
<p id="kid-help" class="muted">The RFC 7638 thumbprint of the checkpoint key: 43 characters of A–Z, a–z, 0–9, _ and -.</p></div>
<div class="field"><label for="session_id">session_id</label>
<input id="session_id" name="session_id" value="${sessionId}" required maxlength="128" autocomplete="off" spellcheck="false"></div>
<div class="actions"><button type="submit">Look up</button></div>
</form>`
}

function receiptsTable(found: Extract<WitnessLookup, { state: 'found' }>): SafeHtml {
  if (!found.receipts.length) return html`<p>The witness holds no checkpoint for this kid and session_id${found.after ? ' after the one given' : ''}. (An unknown pair and an empty session look the same.)</p>`
  const rows = found.receipts.map(
    (receipt, index) => html`<tr data-row="${index}">
<td>${receipt.count}</td>
<td><code class="hash">${receipt.last_entry_hash}</code></td>
<td><time datetime="${receipt.checkpoint_ts}">${receipt.checkpoint_ts}</time></td>
<td><time datetime="${receipt.received_at}">${receipt.received_at}</time></td>
<td>${receipt.fork === 'true' ? html`<strong class="warn">fork</strong>` : 'no'}</td>
<td data-verdict="${index}"><span class="muted">not checked (needs JavaScript; or paste it into <a href="/verify">/verify</a>)</span></td>
</tr>`,
  )
  const receipts = found.receipts.map(
    (receipt, index) => html`<details><summary>Receipt of count ${receipt.count} (${receipt.public_key_id})</summary><pre class="receipt" data-receipt="${index}">${JSON.stringify(receipt, null, 2)}</pre></details>`,
  )
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Table of checkpoints"><table id="witness-table"><caption>${found.receipts.length} checkpoint${found.receipts.length === 1 ? '' : 's'}, ordered by count</caption>
<thead><tr><th scope="col">count</th><th scope="col">last_entry_hash</th><th scope="col">checkpoint ts</th><th scope="col">received_at</th><th scope="col">fork</th><th scope="col">signature</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<h2>Receipts</h2>
${receipts}
${found.nextAfter ? html`<p><a href="/witness?kid=${encodeURIComponent(found.kid)}&amp;session_id=${encodeURIComponent(found.sessionId)}&amp;after=${encodeURIComponent(found.nextAfter)}">Next page</a> (more checkpoints follow)</p>` : ''}`
}

/** `asked`: the kid and session_id as typed, to refill the form after a refusal. */
export function witnessPageBody(lookup: WitnessLookup, asked: { kid: string; sessionId: string }): SafeHtml {
  const intro = html`<h1>Witness checkpoints</h1>
<p class="lede">Look up a session: every checkpoint the witness received for a (kid, session_id), with its signed receipt. The witness attests when it saw each checkpoint, not that the records are true (<a href="/v1/witness/spec">the specification</a>).</p>`
  if (lookup.state === 'form') return html`${intro}${form()}`
  if (lookup.state === 'refused') return html`${intro}${form(asked.kid, asked.sessionId)}<p class="notice" role="alert">${lookup.message}</p>`
  return html`${intro}${form(lookup.kid, lookup.sessionId)}
<section aria-labelledby="session-heading"><h2 id="session-heading">Session <code>${lookup.sessionId}</code></h2>
<p class="muted">kid <code>${lookup.kid}</code>${lookup.after ? html`, after <code>${lookup.after}</code>` : ''}. <span id="witness-keys" role="status"></span></p>
${receiptsTable(lookup)}
</section>`
}
