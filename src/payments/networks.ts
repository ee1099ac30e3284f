// Network names: the CAIP-2 id (eip155:<chain id>) is canonical; a client may also send the
// chain's common name, as x402 v1 did.
const COMMON_NAMES: Record<string, number> = {
  ethereum: 1,
  mainnet: 1,
  sepolia: 11155111,
  base: 8453,
  'base-sepolia': 84532,
  polygon: 137,
  'polygon-amoy': 80002,
  avalanche: 43114,
  'avalanche-fuji': 43113,
  optimism: 10,
  arbitrum: 42161,
  anvil: 31337,
  localhost: 31337,
}

/** The chain id a network name or CAIP-2 id stands for, or null when it names no EVM chain. */
export function chainIdOf(network: string): number | null {
  const caip = /^eip155:([0-9]{1,12})$/.exec(network.trim())
  if (caip) return Number(caip[1])
  return COMMON_NAMES[network.trim().toLowerCase()] ?? null
}

/** The v1 name of a chain, where x402 v1 has one (for v1 payment requirements). */
export function commonNameOf(chainId: number): string | null {
  return Object.entries(COMMON_NAMES).find(([, id]) => id === chainId)?.[0] ?? null
}
