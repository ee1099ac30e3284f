// This deployment as an entry of the MCP registry (server.json, schema 2025-12-11): a remote
// server on Streamable HTTP at PUBLIC_BASE_URL + /mcp, whose version is the serverInfo.version
// initialize and server/discover report. docs/mcp.md ("Listing") says how an operator publishes it.
import type { Config } from '../config'
import { API_VERSION } from '../version'

export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'

/** The registry's name for a remote server: its domain reversed (the namespace a domain proves it owns), then the server's name. */
export function registryName(publicBaseUrl: string): string {
  const host = new URL(publicBaseUrl).hostname.replace(/^\[|\]$/g, '')
  const labels = /^[0-9.]+$/.test(host) || host.includes(':') ? [host.replace(/:/g, '-')] : host.split('.').reverse()
  return `${labels.join('.')}/openbell`
}

export function serverJson(config: Pick<Config, 'publicBaseUrl'>) {
  const base = config.publicBaseUrl
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: registryName(base),
    title: 'openbell market-state attestation',
    description: 'Is this exchange open now? Ed25519-signed market-state receipts for agents; fails closed.',
    version: API_VERSION,
    websiteUrl: base,
    remotes: [
      {
        type: 'streamable-http',
        url: `${base}/mcp`,
        headers: [
          {
            name: 'Authorization',
            description: `Optional: Bearer <token> from ${base}/oauth/token (client_id = your API key); without it, calls are anonymous with a small daily allowance`,
            isRequired: false,
            isSecret: true,
          },
        ],
      },
    ],
  }
}
