// Parsing the two halt-feed formats into market-wide halt facts per venue.
// RSS: Nasdaq Trader trade halts. A market-wide circuit breaker appears as halt items with reason
// codes MWC0-MWC3; one that has no resumption trade time yet halts both US venues.
// JSON: {"exchanges": {"nyse": "open"|"closed"|"halted", "nasdaq": …}}.

export class FeedFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeedFormatError'
  }
}

export interface MarketWideHalt {
  code: string
  /** Halt date and time as the feed gives them (US Eastern). */
  haltDate: string
  haltTime: string
  symbol: string
}

export const MARKET_WIDE_CODES: Record<string, string> = {
  MWC0: 'market-wide trading pause',
  MWC1: 'market-wide circuit breaker level 1',
  MWC2: 'market-wide circuit breaker level 2',
  MWC3: 'market-wide circuit breaker level 3',
}

function field(item: string, name: string): string {
  const match = new RegExp(`<ndaq:${name}\\s*>([\\s\\S]*?)</ndaq:${name}>|<ndaq:${name}\\s*/>`).exec(item)
  return (match?.[1] ?? '').trim()
}

/**
 * Unresolved market-wide halts on `easternDate` (MM/DD/YYYY). Only the structure this parser
 * relies on is checked: an <rss> document with a <channel> and balanced <item> elements.
 */
export function parseTradeHaltsRss(xml: string, easternDate: string): MarketWideHalt[] {
  const text = xml.trim()
  if (!/^(<\?xml[^>]*>\s*)?<rss[\s>]/.test(text) || !/<\/rss>$/.test(text) || !/<channel[\s>][\s\S]*<\/channel>/.test(text)) throw new FeedFormatError('not an RSS document')
  const opens = text.match(/<item[\s>]/g)?.length ?? 0
  const items = [...text.matchAll(/<item[\s>]([\s\S]*?)<\/item>/g)].map((match) => match[1]!)
  if (opens !== items.length) throw new FeedFormatError('unbalanced <item> elements')
  const halts: MarketWideHalt[] = []
  for (const item of items) {
    const code = field(item, 'ReasonCode').toUpperCase()
    if (!(code in MARKET_WIDE_CODES)) continue
    const haltDate = field(item, 'HaltDate')
    if (haltDate !== easternDate) continue
    if (field(item, 'ResumptionTradeTime') !== '') continue
    halts.push({ code, haltDate, haltTime: field(item, 'HaltTime'), symbol: field(item, 'IssueSymbol') })
  }
  return halts
}

const JSON_VENUES: Record<string, string> = { nyse: 'XNYS', nasdaq: 'XNAS' }

/** Venues the JSON market-status document reports as halted. */
export function parseMarketStatusJson(text: string): string[] {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new FeedFormatError('invalid JSON')
  }
  const exchanges = (body as { exchanges?: unknown })?.exchanges
  if (!exchanges || typeof exchanges !== 'object' || Array.isArray(exchanges)) throw new FeedFormatError('missing "exchanges" object')
  const halted: string[] = []
  for (const [name, state] of Object.entries(exchanges as Record<string, unknown>)) {
    const mic = JSON_VENUES[name.toLowerCase()]
    if (mic && typeof state === 'string' && state.toLowerCase() === 'halted') halted.push(mic)
  }
  return halted
}
