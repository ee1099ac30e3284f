// The venues this service knows: ISO 10383 identity facts that do not change with a calendar
// edit, in the order directories list them (the specification's 28, then venues added later).
// This list is the one place a venue is added; every listing (directories, UNKNOWN_MIC's
// `supported`, agent.json, llms documents, the board) derives from it. It is also used when a
// MIC has no valid calendar loaded, so directories still list every venue (as UNKNOWN), and to
// refuse a calendar file whose time zone differs from the exchange's (a wrong zone would shift
// every session silently).

/** Where a venue is listed on the board and in directories. */
export type Region = 'Americas' | 'Europe' | 'Middle East & Africa' | 'Asia-Pacific' | 'Crypto'

export interface ExchangeIdentity {
  mic: string
  name: string
  country: string
  currency: string
  timezone: string
  region: Region
}

export const EXCHANGES = [
  { mic: 'XNYS', name: 'New York Stock Exchange', country: 'US', currency: 'USD', timezone: 'America/New_York', region: 'Americas' },
  { mic: 'XNAS', name: 'Nasdaq Stock Market', country: 'US', currency: 'USD', timezone: 'America/New_York', region: 'Americas' },
  { mic: 'XLON', name: 'London Stock Exchange', country: 'GB', currency: 'GBP', timezone: 'Europe/London', region: 'Europe' },
  { mic: 'XJPX', name: 'Japan Exchange Group (Tokyo Stock Exchange)', country: 'JP', currency: 'JPY', timezone: 'Asia/Tokyo', region: 'Asia-Pacific' },
  { mic: 'XPAR', name: 'Euronext Paris', country: 'FR', currency: 'EUR', timezone: 'Europe/Paris', region: 'Europe' },
  { mic: 'XHKG', name: 'Hong Kong Exchanges and Clearing', country: 'HK', currency: 'HKD', timezone: 'Asia/Hong_Kong', region: 'Asia-Pacific' },
  { mic: 'XSES', name: 'Singapore Exchange', country: 'SG', currency: 'SGD', timezone: 'Asia/Singapore', region: 'Asia-Pacific' },
  { mic: 'XASX', name: 'Australian Securities Exchange', country: 'AU', currency: 'AUD', timezone: 'Australia/Sydney', region: 'Asia-Pacific' },
  { mic: 'XBOM', name: 'BSE', country: 'IN', currency: 'INR', timezone: 'Asia/Kolkata', region: 'Asia-Pacific' },
  { mic: 'XNSE', name: 'National Stock Exchange of India', country: 'IN', currency: 'INR', timezone: 'Asia/Kolkata', region: 'Asia-Pacific' },
  { mic: 'XSHG', name: 'Shanghai Stock Exchange', country: 'CN', currency: 'CNY', timezone: 'Asia/Shanghai', region: 'Asia-Pacific' },
  { mic: 'XSHE', name: 'Shenzhen Stock Exchange', country: 'CN', currency: 'CNY', timezone: 'Asia/Shanghai', region: 'Asia-Pacific' },
  { mic: 'XKRX', name: 'Korea Exchange', country: 'KR', currency: 'KRW', timezone: 'Asia/Seoul', region: 'Asia-Pacific' },
  { mic: 'XJSE', name: 'Johannesburg Stock Exchange', country: 'ZA', currency: 'ZAR', timezone: 'Africa/Johannesburg', region: 'Middle East & Africa' },
  { mic: 'XBSP', name: 'B3 S.A. Brasil, Bolsa, Balcão', country: 'BR', currency: 'BRL', timezone: 'America/Sao_Paulo', region: 'Americas' },
  { mic: 'XSWX', name: 'SIX Swiss Exchange', country: 'CH', currency: 'CHF', timezone: 'Europe/Zurich', region: 'Europe' },
  { mic: 'XMIL', name: 'Borsa Italiana (Euronext Milan)', country: 'IT', currency: 'EUR', timezone: 'Europe/Rome', region: 'Europe' },
  { mic: 'XIST', name: 'Borsa Istanbul', country: 'TR', currency: 'TRY', timezone: 'Europe/Istanbul', region: 'Europe' },
  { mic: 'XSAU', name: 'Saudi Exchange (Tadawul)', country: 'SA', currency: 'SAR', timezone: 'Asia/Riyadh', region: 'Middle East & Africa' },
  { mic: 'XDFM', name: 'Dubai Financial Market', country: 'AE', currency: 'AED', timezone: 'Asia/Dubai', region: 'Middle East & Africa' },
  { mic: 'XNZE', name: 'NZX', country: 'NZ', currency: 'NZD', timezone: 'Pacific/Auckland', region: 'Asia-Pacific' },
  { mic: 'XHEL', name: 'Nasdaq Helsinki', country: 'FI', currency: 'EUR', timezone: 'Europe/Helsinki', region: 'Europe' },
  { mic: 'XSTO', name: 'Nasdaq Stockholm', country: 'SE', currency: 'SEK', timezone: 'Europe/Stockholm', region: 'Europe' },
  { mic: 'XCBT', name: 'Chicago Board of Trade (CME Globex)', country: 'US', currency: 'USD', timezone: 'America/Chicago', region: 'Americas' },
  { mic: 'XNYM', name: 'New York Mercantile Exchange (CME Globex)', country: 'US', currency: 'USD', timezone: 'America/Chicago', region: 'Americas' },
  { mic: 'XCBO', name: 'Cboe Options Exchange', country: 'US', currency: 'USD', timezone: 'America/Chicago', region: 'Americas' },
  { mic: 'XCOI', name: 'Coinbase Exchange', country: 'US', currency: 'USD', timezone: 'UTC', region: 'Crypto' },
  { mic: 'XBIN', name: 'Binance', country: 'AE', currency: 'USD', timezone: 'UTC', region: 'Crypto' },
  { mic: 'XAMS', name: 'Euronext Amsterdam', country: 'NL', currency: 'EUR', timezone: 'Europe/Amsterdam', region: 'Europe' },
  { mic: 'XBRU', name: 'Euronext Brussels', country: 'BE', currency: 'EUR', timezone: 'Europe/Brussels', region: 'Europe' },
  { mic: 'XLIS', name: 'Euronext Lisbon', country: 'PT', currency: 'EUR', timezone: 'Europe/Lisbon', region: 'Europe' },
  { mic: 'XDUB', name: 'Euronext Dublin', country: 'IE', currency: 'EUR', timezone: 'Europe/Dublin', region: 'Europe' },
  { mic: 'XKLS', name: 'Bursa Malaysia', country: 'MY', currency: 'MYR', timezone: 'Asia/Kuala_Lumpur', region: 'Asia-Pacific' },
  { mic: 'XBKK', name: 'Stock Exchange of Thailand', country: 'TH', currency: 'THB', timezone: 'Asia/Bangkok', region: 'Asia-Pacific' },
  { mic: 'XIDX', name: 'Indonesia Stock Exchange', country: 'ID', currency: 'IDR', timezone: 'Asia/Jakarta', region: 'Asia-Pacific' },
  { mic: 'XTAI', name: 'Taiwan Stock Exchange', country: 'TW', currency: 'TWD', timezone: 'Asia/Taipei', region: 'Asia-Pacific' },
  { mic: 'XTSE', name: 'Toronto Stock Exchange', country: 'CA', currency: 'CAD', timezone: 'America/Toronto', region: 'Americas' },
  { mic: 'XMEX', name: 'Bolsa Mexicana de Valores', country: 'MX', currency: 'MXN', timezone: 'America/Mexico_City', region: 'Americas' },
  { mic: 'XETR', name: 'Deutsche Börse Xetra', country: 'DE', currency: 'EUR', timezone: 'Europe/Berlin', region: 'Europe' },
  { mic: 'XMAD', name: 'BME Spanish Exchanges (SIBE)', country: 'ES', currency: 'EUR', timezone: 'Europe/Madrid', region: 'Europe' },
  { mic: 'XOSL', name: 'Euronext Oslo Børs', country: 'NO', currency: 'NOK', timezone: 'Europe/Oslo', region: 'Europe' },
  { mic: 'XCSE', name: 'Nasdaq Copenhagen', country: 'DK', currency: 'DKK', timezone: 'Europe/Copenhagen', region: 'Europe' },
  { mic: 'XWBO', name: 'Wiener Börse', country: 'AT', currency: 'EUR', timezone: 'Europe/Vienna', region: 'Europe' },
  { mic: 'XTAE', name: 'Tel Aviv Stock Exchange', country: 'IL', currency: 'ILS', timezone: 'Asia/Jerusalem', region: 'Middle East & Africa' },
  { mic: 'XEUR', name: 'Eurex Deutschland', country: 'DE', currency: 'EUR', timezone: 'Europe/Berlin', region: 'Europe' },
  { mic: 'XCBF', name: 'Cboe Futures Exchange', country: 'US', currency: 'USD', timezone: 'America/Chicago', region: 'Americas' },
  { mic: 'IEPA', name: 'ICE Futures U.S.', country: 'US', currency: 'USD', timezone: 'America/New_York', region: 'Americas' },
  { mic: 'XEEE', name: 'European Energy Exchange', country: 'DE', currency: 'EUR', timezone: 'Europe/Berlin', region: 'Europe' },
  { mic: 'XFRA', name: 'Börse Frankfurt', country: 'DE', currency: 'EUR', timezone: 'Europe/Berlin', region: 'Europe' },
  { mic: 'XHAM', name: 'Börse Hamburg', country: 'DE', currency: 'EUR', timezone: 'Europe/Berlin', region: 'Europe' },
  { mic: 'XDUS', name: 'Börse Düsseldorf', country: 'DE', currency: 'EUR', timezone: 'Europe/Berlin', region: 'Europe' },
  { mic: 'XSTU', name: 'Börse Stuttgart', country: 'DE', currency: 'EUR', timezone: 'Europe/Berlin', region: 'Europe' },
  { mic: 'XLUX', name: 'Luxembourg Stock Exchange', country: 'LU', currency: 'EUR', timezone: 'Europe/Luxembourg', region: 'Europe' },
  { mic: 'XICE', name: 'Nasdaq Iceland', country: 'IS', currency: 'ISK', timezone: 'Atlantic/Reykjavik', region: 'Europe' },
  { mic: 'XWAR', name: 'Warsaw Stock Exchange', country: 'PL', currency: 'PLN', timezone: 'Europe/Warsaw', region: 'Europe' },
  { mic: 'XPRA', name: 'Prague Stock Exchange', country: 'CZ', currency: 'CZK', timezone: 'Europe/Prague', region: 'Europe' },
  { mic: 'XBUD', name: 'Budapest Stock Exchange', country: 'HU', currency: 'HUF', timezone: 'Europe/Budapest', region: 'Europe' },
  { mic: 'ASEX', name: 'Athens Stock Exchange (Euronext Athens)', country: 'GR', currency: 'EUR', timezone: 'Europe/Athens', region: 'Europe' },
  { mic: 'XBSE', name: 'Bucharest Stock Exchange', country: 'RO', currency: 'RON', timezone: 'Europe/Bucharest', region: 'Europe' },
  { mic: 'XZAG', name: 'Zagreb Stock Exchange', country: 'HR', currency: 'EUR', timezone: 'Europe/Zagreb', region: 'Europe' },
  { mic: 'XLJU', name: 'Ljubljana Stock Exchange', country: 'SI', currency: 'EUR', timezone: 'Europe/Ljubljana', region: 'Europe' },
  { mic: 'XBRA', name: 'Bratislava Stock Exchange', country: 'SK', currency: 'EUR', timezone: 'Europe/Bratislava', region: 'Europe' },
  { mic: 'XBEL', name: 'Belgrade Stock Exchange', country: 'RS', currency: 'RSD', timezone: 'Europe/Belgrade', region: 'Europe' },
  { mic: 'XCYS', name: 'Cyprus Stock Exchange', country: 'CY', currency: 'EUR', timezone: 'Asia/Nicosia', region: 'Europe' },
  { mic: 'XTAL', name: 'Nasdaq Tallinn', country: 'EE', currency: 'EUR', timezone: 'Europe/Tallinn', region: 'Europe' },
  { mic: 'XRIS', name: 'Nasdaq Riga', country: 'LV', currency: 'EUR', timezone: 'Europe/Riga', region: 'Europe' },
  { mic: 'XLIT', name: 'Nasdaq Vilnius', country: 'LT', currency: 'EUR', timezone: 'Europe/Vilnius', region: 'Europe' },
  { mic: 'XMOS', name: 'Moscow Exchange', country: 'RU', currency: 'RUB', timezone: 'Europe/Moscow', region: 'Europe' },
  { mic: 'AIXK', name: 'Astana International Exchange', country: 'KZ', currency: 'KZT', timezone: 'Asia/Almaty', region: 'Asia-Pacific' },
  { mic: 'XKAR', name: 'Pakistan Stock Exchange', country: 'PK', currency: 'PKR', timezone: 'Asia/Karachi', region: 'Asia-Pacific' },
  { mic: 'XPHS', name: 'Philippine Stock Exchange', country: 'PH', currency: 'PHP', timezone: 'Asia/Manila', region: 'Asia-Pacific' },
  { mic: 'XSGO', name: 'Santiago Stock Exchange (Bolsa de Santiago)', country: 'CL', currency: 'CLP', timezone: 'America/Santiago', region: 'Americas' },
  { mic: 'XBOG', name: 'Bolsa de Valores de Colombia', country: 'CO', currency: 'COP', timezone: 'America/Bogota', region: 'Americas' },
  { mic: 'XLIM', name: 'Bolsa de Valores de Lima', country: 'PE', currency: 'PEN', timezone: 'America/Lima', region: 'Americas' },
  { mic: 'XBUE', name: 'Bolsas y Mercados Argentinos (BYMA)', country: 'AR', currency: 'ARS', timezone: 'America/Argentina/Buenos_Aires', region: 'Americas' },
  { mic: 'XBDA', name: 'Bermuda Stock Exchange', country: 'BM', currency: 'BMD', timezone: 'Atlantic/Bermuda', region: 'Americas' },
] as const satisfies readonly ExchangeIdentity[]

export type Mic = (typeof EXCHANGES)[number]['mic']

export const EXCHANGE_IDENTITIES = Object.fromEntries(EXCHANGES.map((entry) => [entry.mic, entry])) as Record<Mic, ExchangeIdentity>

export const ISO20022_MIC_REGISTRY = 'https://www.iso20022.org/market-identifier-codes'
