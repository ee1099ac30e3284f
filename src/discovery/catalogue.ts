// Descriptions built from the service's own registries: the pre-trade check sequence, the
// standards implemented (each with the endpoint that exercises it), and the operator's showcase.
import { existsSync, readFileSync } from 'node:fs'
import type { DiscoveryDeps } from './deps'
import { RECEIPT_TTL_SECONDS } from '../crypto/receipt-fields'
import { SERVED_PROTOCOL_VERSIONS } from '../mcp/protocol'
import { REASON_CODES } from '../market/safe-to-trade'

export function preTradeStack(deps: Pick<DiscoveryDeps, 'config'>) {
  const { config } = deps
  const base = config.publicBaseUrl
  const x402 = config.x402.payTo ? { x402_price_usdc: config.x402.statusPrice, network: config.x402.network } : { x402: 'not configured on this server' }
  return {
    version: '1.0',
    purpose: 'The checks an agent runs before sending an order to an exchange, in order. Any failed step means do not trade.',
    fail_closed: true,
    steps: [
      {
        step: 1,
        name: 'status',
        endpoint: `${base}/v5/status?mic={MIC}`,
        auth: ['X-Oracle-Key', 'x402 payment'],
        price: x402,
        passes_when: 'status is OPEN and now < expires_at',
        fails_when: ['status CLOSED, HALTED or UNKNOWN', 'the receipt is expired', 'HTTP 5xx (CRITICAL_FAILURE is UNKNOWN)'],
      },
      {
        step: 2,
        name: 'safe-to-trade',
        endpoint: `${base}/v1/safe-to-trade?venue={MIC}&max_age={1-60}&instrument={optional}`,
        sample_endpoint: `${base}/v1/safe-to-trade/sample?venue={MIC}&max_age={1-60}`,
        auth: ['X-Oracle-Key (builder or pro)', 'x402 payment'],
        price: x402,
        passes_when: 'safe is "true" and now < expires_at',
        fails_when: REASON_CODES.map((code) => `reasons contains ${code}`),
      },
      {
        step: 3,
        name: 'verify',
        endpoint: `${base}/v5/verify`,
        offline: `verify the Ed25519 signature with the key from ${base}/v5/keys (canonical_payload_spec names the signed fields)`,
        auth: [],
        passes_when: 'valid is true and expired is false',
        fails_when: ['INVALID_SIGNATURE', 'MALFORMED_RECEIPT', 'RECEIPT_EXPIRED'],
      },
    ],
    receipt_ttl_seconds: RECEIPT_TTL_SECONDS,
  }
}

/** When /v5/stack was deprecated, as RFC 9745 writes it in the Deprecation header: a structured-field date (@ and Unix seconds). */
export const STACK_DEPRECATED_AT = '2026-11-23T00:00:00Z'
export const stackDeprecationHeader = () => `@${Date.parse(STACK_DEPRECATED_AT) / 1000}`

export const STACK_DEPRECATION = {
  note: '/v5/stack is deprecated: use /v5/pre-trade-stack, which answers the same payload without this envelope. It keeps answering during the deprecation window and may be removed in a future major version.',
  replacement: 'pre-trade-stack',
  replacement_path: '/v5/pre-trade-stack',
}

/** Configuration some standards need to be in force (security.txt answers 404 without a contact; payments need a pay-to address). */
const needsContact = (config: DiscoveryDeps['config']) => config.securityContact !== null
const needsX402 = (config: DiscoveryDeps['config']) => config.x402.payTo !== null

/** Standards this service may implement, each with the route that exercises it (and the configuration it needs, if any). */
const STANDARDS: Record<string, { name: string; path: string; configured?: (config: DiscoveryDeps['config']) => boolean }> = {
  'RFC 8032': { name: 'Ed25519 signatures (strict verification)', path: '/v5/verify' },
  'RFC 7517': { name: 'JSON Web Key Set', path: '/.well-known/jwks.json' },
  'RFC 7638': { name: 'JWK thumbprint as kid', path: '/.well-known/jwks.json' },
  'RFC 8785': { name: 'JSON canonicalization of witness checkpoints', path: '/v1/witness/checkpoints' },
  'RFC 6962': { name: 'Merkle tree hashing and audit paths of daily receipt digests', path: '/v5/audit/proof' },
  'RFC 9116': { name: 'security.txt', path: '/.well-known/security.txt', configured: needsContact },
  'RFC 6749': { name: 'OAuth 2.0 client credentials grant', path: '/oauth/token' },
  'RFC 8414': { name: 'OAuth authorization server metadata', path: '/.well-known/oauth-authorization-server' },
  'RFC 9728': { name: 'OAuth protected resource metadata', path: '/.well-known/oauth-protected-resource' },
  'ISO 10383': { name: 'Market identifier codes', path: '/mics.json' },
  'x402 v1': { name: 'x402 payments: X-Payment', path: '/v5/status', configured: needsX402 },
  'x402 v2': { name: 'x402 payments: Payment-Signature and PAYMENT-REQUIRED', path: '/v5/status', configured: needsX402 },
  'EIP-3009': { name: 'TransferWithAuthorization payments', path: '/v5/status', configured: needsX402 },
  'Standard Webhooks': { name: 'Signed webhook deliveries', path: '/v5/webhooks/subscribe' },
  'Server-Sent Events': { name: 'Receipt stream', path: '/v5/stream' },
  'JSON-RPC 2.0': { name: 'Tool endpoint framing', path: '/mcp' },
  ...Object.fromEntries(SERVED_PROTOCOL_VERSIONS.map((version) => [`MCP ${version}`, { name: `Model Context Protocol ${version}`, path: '/mcp' }])),
  'OpenAPI 3.1': { name: 'API description', path: '/openapi.json' },
  llmstxt: { name: 'llms.txt', path: '/llms.txt' },
}

/** The standards whose route this app serves and whose configuration is in force (nothing else is claimed). */
export function implementations(deps: Pick<DiscoveryDeps, 'config'>, servedPaths: ReadonlySet<string>) {
  const base = deps.config.publicBaseUrl
  const standards = Object.fromEntries(
    Object.entries(STANDARDS)
      .filter(([, standard]) => servedPaths.has(standard.path) && (standard.configured?.(deps.config) ?? true))
      .map(([id, standard]) => [id, { name: standard.name, endpoint: `${base}${standard.path}` }]),
  )
  return { standards, total_implementations: Object.keys(standards).length, last_updated: IMPLEMENTATIONS_UPDATED }
}

/** When the list above last changed. */
export const IMPLEMENTATIONS_UPDATED = '2026-11-23'

/** /v5/showcase entries from the operator's JSON file (an array of objects); empty when absent. */
export function showcase(deps: Pick<DiscoveryDeps, 'config' | 'log'>) {
  const { file, submitUrl } = deps.config.showcase
  let entries: Record<string, unknown>[] = []
  if (existsSync(file)) {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8'))
      if (Array.isArray(parsed) && parsed.every((entry) => typeof entry === 'object' && entry !== null && !Array.isArray(entry))) entries = parsed
      else deps.log.warn('showcase file is not an array of objects; showing none', { file })
    } catch (error) {
      deps.log.warn('showcase file unreadable; showing none', { file, error: (error as Error).message })
    }
  }
  return { entries, submit_url: submitUrl, note: entries.length ? 'Integrations listed by the operator of this service.' : 'No integrations are listed on this server yet.' }
}
