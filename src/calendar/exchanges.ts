// Identity of each supported exchange (ISO 10383 facts that do not change with a calendar edit).
// Used when a MIC has no valid calendar loaded, so that directories still list all 28, and to
// refuse a calendar file whose time zone differs from the exchange's (a wrong zone would shift
// every session silently).
import type { Mic } from './mics'

export interface ExchangeIdentity {
  mic: Mic
  name: string
  country: string
  currency: string
  timezone: string
}

const entry = (mic: Mic, name: string, country: string, currency: string, timezone: string): ExchangeIdentity => ({ mic, name, country, currency, timezone })

export const EXCHANGE_IDENTITIES: Record<Mic, ExchangeIdentity> = {
  XNYS: entry('XNYS', 'New York Stock Exchange', 'US', 'USD', 'America/New_York'),
  XNAS: entry('XNAS', 'Nasdaq Stock Market', 'US', 'USD', 'America/New_York'),
  XLON: entry('XLON', 'London Stock Exchange', 'GB', 'GBP', 'Europe/London'),
  XJPX: entry('XJPX', 'Japan Exchange Group (Tokyo Stock Exchange)', 'JP', 'JPY', 'Asia/Tokyo'),
  XPAR: entry('XPAR', 'Euronext Paris', 'FR', 'EUR', 'Europe/Paris'),
  XHKG: entry('XHKG', 'Hong Kong Exchanges and Clearing', 'HK', 'HKD', 'Asia/Hong_Kong'),
  XSES: entry('XSES', 'Singapore Exchange', 'SG', 'SGD', 'Asia/Singapore'),
  XASX: entry('XASX', 'Australian Securities Exchange', 'AU', 'AUD', 'Australia/Sydney'),
  XBOM: entry('XBOM', 'BSE', 'IN', 'INR', 'Asia/Kolkata'),
  XNSE: entry('XNSE', 'National Stock Exchange of India', 'IN', 'INR', 'Asia/Kolkata'),
  XSHG: entry('XSHG', 'Shanghai Stock Exchange', 'CN', 'CNY', 'Asia/Shanghai'),
  XSHE: entry('XSHE', 'Shenzhen Stock Exchange', 'CN', 'CNY', 'Asia/Shanghai'),
  XKRX: entry('XKRX', 'Korea Exchange', 'KR', 'KRW', 'Asia/Seoul'),
  XJSE: entry('XJSE', 'Johannesburg Stock Exchange', 'ZA', 'ZAR', 'Africa/Johannesburg'),
  XBSP: entry('XBSP', 'B3 S.A. Brasil, Bolsa, Balcão', 'BR', 'BRL', 'America/Sao_Paulo'),
  XSWX: entry('XSWX', 'SIX Swiss Exchange', 'CH', 'CHF', 'Europe/Zurich'),
  XMIL: entry('XMIL', 'Borsa Italiana (Euronext Milan)', 'IT', 'EUR', 'Europe/Rome'),
  XIST: entry('XIST', 'Borsa Istanbul', 'TR', 'TRY', 'Europe/Istanbul'),
  XSAU: entry('XSAU', 'Saudi Exchange (Tadawul)', 'SA', 'SAR', 'Asia/Riyadh'),
  XDFM: entry('XDFM', 'Dubai Financial Market', 'AE', 'AED', 'Asia/Dubai'),
  XNZE: entry('XNZE', 'NZX', 'NZ', 'NZD', 'Pacific/Auckland'),
  XHEL: entry('XHEL', 'Nasdaq Helsinki', 'FI', 'EUR', 'Europe/Helsinki'),
  XSTO: entry('XSTO', 'Nasdaq Stockholm', 'SE', 'SEK', 'Europe/Stockholm'),
  XCBT: entry('XCBT', 'Chicago Board of Trade (CME Globex)', 'US', 'USD', 'America/Chicago'),
  XNYM: entry('XNYM', 'New York Mercantile Exchange (CME Globex)', 'US', 'USD', 'America/Chicago'),
  XCBO: entry('XCBO', 'Cboe Options Exchange', 'US', 'USD', 'America/Chicago'),
  XCOI: entry('XCOI', 'Coinbase Exchange', 'US', 'USD', 'UTC'),
  XBIN: entry('XBIN', 'Binance', 'AE', 'USD', 'UTC'),
}

export const ISO20022_MIC_REGISTRY = 'https://www.iso20022.org/market-identifier-codes'
