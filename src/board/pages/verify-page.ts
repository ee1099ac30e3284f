// The verify page (GET /verify): paste a receipt, a witness receipt or a signed daily digest and
// the browser checks it with the verifier package (@openbell/verify) against /v5/keys
// (board/client/verify-page.ts); an audit inclusion proof is checked the same way against the
// signed root of its day, and a C2SP tlog-proof under /log/policy. Nothing pasted leaves the
// browser; the page never calls /v5/verify.
import { html, type SafeHtml } from '../html'

export function verifyPageBody(): SafeHtml {
  return html`<h1>Verify a receipt</h1>
<p class="lede">Checked here, in your browser: the signed members are rebuilt into the service's canonical bytes and the Ed25519 signature is verified (by <code>@openbell/verify</code>, the package agents use too) against the key <a href="/v5/keys">/v5/keys</a> publishes. What you paste is not sent anywhere.</p>
<noscript><p class="notice">This check runs in the browser and needs JavaScript. Without it: <code>POST /v5/verify</code>, or the offline script in docs/audit.md.</p></noscript>
<form id="verify-form" class="panel" novalidate>
<label for="receipt-input">Receipt, witness receipt or signed daily digest (JSON)</label>
<p id="receipt-help" class="muted">A market-state, health or safe-to-trade receipt, a witness receipt (or a whole <code>/v1/witness/checkpoints</code> answer), or a sealed <code>/v5/audit/digest</code> answer (its <code>receipt</code>, <code>log_receipt</code> and, for digests first signed with their log size, <code>receipt_with_log_tree_size</code> are each checked), one of those, or a <code>/v5/audit/chain</code> answer.</p>
<textarea id="receipt-input" name="receipt" rows="12" spellcheck="false" autocomplete="off" aria-describedby="receipt-help"></textarea>
<div class="actions"><button type="submit" id="verify-button" disabled>Verify</button> <span id="keys-status" class="muted" role="status">Loading keys…</span></div>
</form>
<section id="verify-result" class="results" aria-live="polite" aria-labelledby="verify-result-heading" hidden><h2 id="verify-result-heading">Result</h2><div id="verify-output"></div></section>
<h2 id="inclusion-heading">Is it in the day's audit root?</h2>
<p>For a live receipt pasted above: its inclusion proof (<code>/v5/audit/proof</code>) and the signed digest of its day (<code>/v5/audit/digest</code>) are fetched from this service, and the browser checks the digest's signature and recomputes the RFC 6962 root from the receipt id and the audit path. You may paste a proof instead: that JSON, or the receipt's C2SP tlog-proof (<code>/log/proof/receipt/{id}</code>), which is checked under the log's policy (<code>/log/policy</code>): logged, and cosigned by its witnesses (Ed25519 and ML-DSA-44).</p>
<form id="proof-form" class="panel" novalidate aria-labelledby="inclusion-heading">
<label for="proof-input">Inclusion proof (JSON) or tlog-proof (text), optional: fetched when empty</label>
<textarea id="proof-input" name="proof" rows="5" spellcheck="false" autocomplete="off"></textarea>
<div class="actions"><button type="submit" id="proof-button" disabled>Check inclusion</button></div>
</form>
<section id="proof-result" class="results" aria-live="polite" aria-labelledby="proof-result-heading" hidden><h2 id="proof-result-heading">Inclusion</h2><div id="proof-output"></div></section>`
}
