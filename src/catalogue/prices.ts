// Prices in USDC: the decimal strings of configuration and offers, the atomic units (6 decimals)
// a transfer is counted in, and the one fixed price not kept with a product table (the sandbox
// credit key; credit packs and minted keys have their own files).

const USDC_DECIMALS = 6

/** "0.001" USDC → "1000" atomic units, without floating point. */
export function atomicAmount(decimal: string): string {
  const [whole = '0', fraction = ''] = decimal.split('.')
  const atomic = BigInt(whole) * 10n ** BigInt(USDC_DECIMALS) + BigInt((fraction + '0'.repeat(USDC_DECIMALS)).slice(0, USDC_DECIMALS) || '0')
  return atomic.toString()
}

/** USDC (6 decimals) as a decimal string with at least two decimals: 800000 → "0.80", 1000 → "0.001". */
export function usdc(atomic: bigint): string {
  const [whole, fraction = ''] = (Number(atomic) / 1e6).toFixed(6).replace(/0+$/, '').split('.')
  return `${whole}.${fraction.padEnd(2, '0')}`
}

/** The x402 path of POST /v5/sandbox: at least 0.001 USDC on chain buys a credit key (svc_crd_) holding 10 credits. */
export const SANDBOX_X402_PRICE_USDC = '0.001'
export const SANDBOX_X402_CREDITS = 10
