// The agent-facing text documents (/robots.txt, /llms.txt, /llms-full.txt, /SKILL.md) are files
// under public/, embedded in the binary, with {{placeholders}} filled from configuration, the
// loaded calendars and the tool registry. Each rendering carries a content-hash ETag and the
// time its content last changed, for conditional requests.
import robots from '../../public/robots.txt' with { type: 'text' }
import llms from '../../public/llms.txt' with { type: 'text' }
import llmsFull from '../../public/llms-full.txt' with { type: 'text' }
import skill from '../../public/SKILL.md' with { type: 'text' }
import type { DiscoveryDeps } from './deps'
import { capabilities } from '../catalogue/capabilities'
import { sha256Hex } from '../crypto/hash'
import { RECEIPT_TTL_SECONDS } from '../crypto/receipt-fields'
import { exchangeDirectory } from '../calendar/directory'
import { SUPPORTED_MICS } from '../calendar/mics'
import { TOOLS } from '../mcp/tools'
import { SERVED_PROTOCOL_VERSIONS } from '../mcp/protocol'
import { SANDBOX_CALLS, SANDBOX_DAYS } from '../catalogue/limits'
import { SAMPLE_DOOR_PER_MINUTE } from '../market/safe-to-trade'
import { COMPLIANCE_CACHE_MS } from './compliance'

export const TEXT_DOCUMENTS = {
  '/robots.txt': { template: robots, type: 'text/plain; charset=utf-8' },
  '/llms.txt': { template: llms, type: 'text/plain; charset=utf-8' },
  '/llms-full.txt': { template: llmsFull, type: 'text/plain; charset=utf-8' },
  '/SKILL.md': { template: skill, type: 'text/markdown; charset=utf-8' },
} as const

export type TextDocumentPath = keyof typeof TEXT_DOCUMENTS

export interface RenderedDocument {
  body: string
  etag: string
  lastModified: number
}

/** The values the templates may name; every {{name}} in a template must be one of these. */
export function documentValues(deps: Pick<DiscoveryDeps, 'config' | 'calendars'>): Record<string, string> {
  const snapshot = deps.calendars.snapshot()
  const directory = exchangeDirectory(snapshot)
  const versions = SUPPORTED_MICS.map((mic) => {
    const entry = snapshot.entries.get(mic)
    return `${mic} ${entry?.state === 'loaded' ? entry.calendar.dataVersion : 'unavailable'}`
  })
  const { config } = deps
  return {
    base_url: config.publicBaseUrl,
    issuer: config.issuer,
    exchange_count: String(SUPPORTED_MICS.length),
    mic_list: SUPPORTED_MICS.join(', '),
    exchange_list: directory.map((entry) => `- ${entry.mic}: ${entry.name} (${entry.timezone})`).join('\n'),
    data_versions: versions.join(', '),
    receipt_ttl: String(RECEIPT_TTL_SECONDS),
    status_price: config.x402.statusPrice,
    batch_price: config.x402.batchPrice,
    x402_network: config.x402.network,
    sandbox_days: String(SANDBOX_DAYS),
    sandbox_calls: String(SANDBOX_CALLS),
    sample_per_minute: String(SAMPLE_DOOR_PER_MINUTE),
    compliance_cache_seconds: String(COMPLIANCE_CACHE_MS / 1000),
    stream_interval_seconds: String(config.delivery.streamIntervalSeconds),
    // Payments are claimed only where they are taken: without X402_PAY_TO a 402 offers no way to pay.
    x402_state: config.x402.payTo ? 'enabled on this server' : 'not configured on this server: use a key',
    purchase_ways: purchaseWays(config),
    mcp_tools: TOOLS.map((tool) => tool.name).join(', '),
    mcp_versions: SERVED_PROTOCOL_VERSIONS.join(', '),
  }
}

/** The llms-full.txt lines on buying more: only what this installation sells (accounts/capabilities.ts). */
function purchaseWays(config: DiscoveryDeps['config']): string {
  const can = capabilities(config)
  const card = (['builder', 'pro', 'credits'] as const).filter((product) => can.card[product])
  const lines = [
    ...(can.x402Transfers ? ['- Credits: `POST /v5/credits/purchase` (key + `X-Payment` with the hash of a USDC transfer).', '- Paid keys on chain: `POST /v5/x402/mint` (builder, pro).'] : []),
    ...(card.length ? [`- By card: \`POST /v5/checkout {"plan": …}\` (${card.join(', ')}); the key arrives by e-mail.`] : []),
  ]
  return lines.length ? lines.join('\n') : '- Paid plans and credits: none are sold on this server.'
}

export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([a-z0-9_]+)\}\}/g, (whole, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`template names an unknown value ${whole}`)
    return value
  })
}

/** Renders on demand and remembers when each document's content last changed. */
export class TextDocuments {
  private rendered = new Map<TextDocumentPath, RenderedDocument>()

  constructor(private readonly deps: Pick<DiscoveryDeps, 'config' | 'calendars' | 'clock'>) {}

  get(path: TextDocumentPath): RenderedDocument {
    const body = renderTemplate(TEXT_DOCUMENTS[path].template, documentValues(this.deps))
    const etag = `"${sha256Hex(body).slice(0, 32)}"`
    const previous = this.rendered.get(path)
    if (previous?.etag === etag) return previous
    // HTTP dates have whole seconds; keep the same precision so If-Modified-Since compares exactly.
    const document = { body, etag, lastModified: Math.floor(this.deps.clock.now() / 1000) * 1000 }
    this.rendered.set(path, document)
    return document
  }
}

/** 304 when the client's validators match (If-None-Match wins over If-Modified-Since, RFC 9110). */
export function notModified(request: Request, document: RenderedDocument): boolean {
  const ifNoneMatch = request.headers.get('if-none-match')
  if (ifNoneMatch !== null) return ifNoneMatch.split(',').some((tag) => tag.trim() === document.etag || tag.trim() === '*' || tag.trim() === `W/${document.etag}`)
  const since = Date.parse(request.headers.get('if-modified-since') ?? '')
  return Number.isFinite(since) && document.lastModified <= since
}
