// The auth of each operation in /openapi.json. A route may say it itself (detail.security);
// otherwise: operator routes take the admin key; the paid receipt routes take a key or an x402
// payment; a few routes have their own scheme; any other route that documents a 401 takes an
// API key; the rest are public ([]).

export const SECURITY_SCHEMES = {
  ApiKey: { type: 'apiKey', in: 'header', name: 'X-Oracle-Key', description: 'API key (spec 5)' },
  ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'key', description: 'The API key as a query parameter, where a client cannot set headers (EventSource)' },
  AdminKey: { type: 'apiKey', in: 'header', name: 'X-Oracle-Key', description: 'The operator key (ADMIN_KEY) in the same header' },
  BearerToken: { type: 'http', scheme: 'bearer', description: 'An access token from POST /oauth/token (client_credentials, the API key as client_id), as Authorization: Bearer; a key itself is refused (401)' },
  BearerKey: { type: 'http', scheme: 'bearer', description: 'An Evidence plan API key itself (svc_live_…), as Authorization: Bearer' },
  X402PaymentSignature: { type: 'apiKey', in: 'header', name: 'Payment-Signature', description: 'x402 v2: base64 JSON PaymentPayload with a TransferWithAuthorization signature; a request without payment gets 402 with the requirements (body and PAYMENT-REQUIRED header)' },
  X402Payment: { type: 'apiKey', in: 'header', name: 'X-Payment', description: 'x402 v1: base64 or raw JSON with txHash, network, amount, paymentAddress, memo (or an authorization)' },
  PaddleSignature: { type: 'apiKey', in: 'header', name: 'Paddle-Signature', description: 'Billing-provider notification signature (ts=…;h1=…)' },
} as const

export type SchemeName = keyof typeof SECURITY_SCHEMES
type Requirement = Partial<Record<SchemeName, string[]>>

const KEY_OR_PAYMENT: Requirement[] = [{ ApiKey: [] }, { X402PaymentSignature: [] }, { X402Payment: [] }]

/** Routes whose auth the general rules below do not describe. */
const BY_ROUTE: Record<string, Requirement[]> = {
  'GET /v5/status': KEY_OR_PAYMENT,
  'GET /v5/batch': KEY_OR_PAYMENT,
  'GET /v1/safe-to-trade': KEY_OR_PAYMENT,
  // Anonymous calls have a small daily allowance; a bearer token makes the call its key's.
  'POST /mcp': [{}, { BearerToken: [] }],
  // Anonymous checkpoints are accepted; an Evidence key's bearer token uses its quota.
  'POST /v1/witness/checkpoints': [{}, { BearerKey: [] }],
  'POST /v5/credits/purchase': [{ ApiKey: [], X402Payment: [] }],
  'POST /webhooks/paddle': [{ PaddleSignature: [] }],
  // The key travels in the form body (client_id), not in a header.
  'POST /oauth/token': [],
  'GET /v5/stream': [{ ApiKey: [] }, { ApiKeyQuery: [] }],
  // The e-mail path is anonymous; the x402 path pays with X-Payment.
  'POST /v5/sandbox': [{}, { X402Payment: [] }],
}

export function operationSecurity(method: string, path: string, detail: { tags?: unknown; responses?: Record<string, unknown> }): Requirement[] {
  const known = BY_ROUTE[`${method.toUpperCase()} ${path}`]
  if (known) return known
  if (Array.isArray(detail.tags) && detail.tags.includes('operator')) return [{ AdminKey: [] }]
  if (detail.responses && '401' in detail.responses) return [{ ApiKey: [] }]
  return []
}
