// /.well-known/agent.json and /.well-known/security.txt, built from the same sources as the API:
// the tool registry, the protocol versions, the signed field lists and configuration.
import type { DiscoveryDeps } from './deps'
import { RECEIPT_TTL_SECONDS, RECEIPT_SCHEMA_VERSION } from '../crypto/receipt-fields'
import { SUPPORTED_MICS } from '../calendar/mics'
import { TOOLS } from '../mcp/tools'
import { SERVED_PROTOCOL_VERSIONS } from '../mcp/protocol'
import { API_VERSION } from '../version'

/**
 * The date of the last change of agent.json's content (not of its configured values). A test
 * records the content's hash beside this date, so the content cannot change without it moving.
 */
export const AGENT_METADATA_VERSION = '2026-12-06'
export const AGENT_METADATA_SCHEMA_VERSION = '1.0'

/** Capabilities claimed only when their route is served (another part may not be built in). */
const CAPABILITY_PATHS = {
  batch: '/v5/batch',
  safe_to_trade: '/v1/safe-to-trade',
  stream: '/v5/stream',
  webhooks: '/v5/webhooks/subscribe',
  audit_digests: '/v5/audit/digest',
  checkpoint_witness: '/v1/witness/checkpoints',
  calendar: '/v5/calendar',
} as const

export function agentMetadata(deps: Pick<DiscoveryDeps, 'config'>, served: ReadonlySet<string>) {
  const base = deps.config.publicBaseUrl
  const serves = Object.fromEntries(Object.entries(CAPABILITY_PATHS).map(([name, path]) => [name, served.has(path)])) as Record<keyof typeof CAPABILITY_PATHS, boolean>
  return {
    schema_version: AGENT_METADATA_SCHEMA_VERSION,
    spec_version: AGENT_METADATA_VERSION,
    name: 'openbell',
    description: 'Ed25519-signed market-state receipts (OPEN, CLOSED, HALTED, UNKNOWN) for exchanges by ISO 10383 MIC, and a checkpoint witness.',
    api_version: API_VERSION,
    capabilities: {
      exchanges: SUPPORTED_MICS.length,
      supported_mics: [...SUPPORTED_MICS],
      signed_receipts: true,
      batch: serves.batch,
      safe_to_trade: serves.safe_to_trade,
      stream: serves.stream,
      webhooks: serves.webhooks,
      audit_digests: serves.audit_digests,
      checkpoint_witness: serves.checkpoint_witness,
      calendar: serves.calendar,
      x402: deps.config.x402.payTo !== null,
    },
    mcp: { url: `${base}/mcp`, transport: 'streamable-http', protocol_versions: [...SERVED_PROTOCOL_VERSIONS], server_json: `${base}/.well-known/mcp/server.json`, tools: TOOLS.map((tool) => tool.name), auth: { anonymous: true, bearer_token_endpoint: served.has('/oauth/token') ? `${base}/oauth/token` : null } },
    rest_api: { base_url: base, openapi_url: `${base}/openapi.json`, docs_url: `${base}/docs`, llms_txt: `${base}/llms.txt`, skill: `${base}/SKILL.md` },
    trust: {
      issuer: deps.config.issuer,
      key_discovery: [`${base}/v5/keys`, `${base}/.well-known/oracle-keys.json`, `${base}/.well-known/jwks.json`],
      signing_algorithm: 'Ed25519',
      canonical_payload: 'the fields named in /v5/keys canonical_payload_spec, keys sorted, string values, JSON without whitespace, UTF-8',
      receipt_ttl_seconds: RECEIPT_TTL_SECONDS,
      schema_version: RECEIPT_SCHEMA_VERSION,
      verify_url: `${base}/v5/verify`,
      fail_closed: true,
    },
    safety: {
      unknown_means_closed: true,
      never_act_after_expires_at: true,
      rules: ['Treat status UNKNOWN as CLOSED and halt execution.', 'Never act on a receipt after its expires_at.', 'Verify the signature with the published key before trusting a receipt.'],
    },
  }
}

/** RFC 9116 security.txt, or null when no contact is configured (a file without Contact is invalid). */
export function securityTxt(deps: Pick<DiscoveryDeps, 'config' | 'clock'>): string | null {
  const contact = deps.config.securityContact
  if (!contact) return null
  // Expires at most a year ahead (RFC 9116 recommends less than a year); renewed on every read.
  const expires = new Date(deps.clock.now() + 180 * 86_400_000)
  expires.setUTCHours(0, 0, 0, 0)
  return [
    `Contact: ${contact}`,
    `Expires: ${expires.toISOString().replace('.000Z', 'Z')}`,
    `Canonical: ${deps.config.publicBaseUrl}/.well-known/security.txt`,
    'Preferred-Languages: en',
    '',
  ].join('\n')
}
