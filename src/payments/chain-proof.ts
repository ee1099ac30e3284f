// Proof of a transfer already sent: the transaction's receipt on X402_NETWORK through
// CHAIN_RPC_URL must show success and a Transfer log of X402_ASSET to X402_PAY_TO worth at least
// the price, in a block no older than X402_MAX_TX_AGE_SECONDS. What the client declares about
// the amount is never used: the amount is read from the log.
import { createPublicClient, http, parseAbiItem, parseEventLogs, TransactionReceiptNotFoundError, type Hex, type PublicClient } from 'viem'
import type { Config } from '../config'
import { PaymentRefused, PaymentUnavailable } from './errors'
import { chainIdOf } from './networks'

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
/** EIP-3009: emitted by the token when a signed authorization is used (x402 settlements). */
const AUTHORIZATION_USED = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)')

export interface VerifiedTransfer {
  txHash: Hex
  payer: Hex
  /** Atomic units paid to this service in the transaction. */
  amount: bigint
  blockTime: number
  /**
   * The EIP-3009 authorizations (from, nonce) of the token this transaction used: a settlement
   * of a signed x402 payment is already paid for under its authorization.
   */
  authorizations: { from: Hex; nonce: Hex }[]
}

const clients = new Map<string, PublicClient>()
function clientFor(url: string): PublicClient {
  let client = clients.get(url)
  if (!client) clients.set(url, (client = createPublicClient({ transport: http(url, { timeout: 10_000, retryCount: 1 }) }) as PublicClient))
  return client
}

const checkedChains = new Map<string, number>()

/** The RPC must serve the configured network: a testnet hash must never pay on mainnet. */
async function assertChain(client: PublicClient, url: string, expected: number | null): Promise<void> {
  let actual = checkedChains.get(url)
  if (actual === undefined) {
    try {
      actual = await client.getChainId()
    } catch (error) {
      throw unavailable(error)
    }
    checkedChains.set(url, actual)
  }
  if (actual !== expected) throw new PaymentUnavailable('CHAIN_RPC_UNAVAILABLE', `CHAIN_RPC_URL serves chain ${actual}, not X402_NETWORK (${expected}); fix the configuration`)
}

function unavailable(error: unknown): PaymentUnavailable {
  return new PaymentUnavailable('CHAIN_RPC_UNAVAILABLE', `the chain RPC could not be reached: ${(error as Error).message?.split('\n')[0] ?? 'error'}`)
}

export async function verifyTransfer(config: Config, proof: { txHash: Hex; network: string | null }, minimum: bigint, now: number): Promise<VerifiedTransfer> {
  const { x402 } = config
  if (!x402.payTo || !x402.chainRpcUrl) throw new PaymentUnavailable('PAYMENTS_NOT_CONFIGURED', 'transaction proofs are not configured on this server (X402_PAY_TO and CHAIN_RPC_URL)')
  const expectedChain = chainIdOf(x402.network)
  if (proof.network !== null && chainIdOf(proof.network) !== expectedChain) throw new PaymentRefused('PAYMENT_WRONG_NETWORK', `this service takes ${x402.network}`)
  const client = clientFor(x402.chainRpcUrl)
  await assertChain(client, x402.chainRpcUrl, expectedChain)
  let receipt
  try {
    receipt = await client.getTransactionReceipt({ hash: proof.txHash })
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) throw new PaymentRefused('PAYMENT_NOT_FOUND', proof.txHash)
    throw unavailable(error)
  }
  if (receipt.status !== 'success') throw new PaymentRefused('PAYMENT_FAILED', proof.txHash)
  const transfers = parseEventLogs({ abi: [TRANSFER], logs: receipt.logs, eventName: 'Transfer' })
  const asset = x402.asset.toLowerCase()
  const payTo = x402.payTo.toLowerCase()
  const toUs = transfers.filter((log) => log.args.to.toLowerCase() === payTo)
  const ofAsset = toUs.filter((log) => log.address.toLowerCase() === asset)
  if (!ofAsset.length) throw new PaymentRefused(toUs.length ? 'PAYMENT_WRONG_ASSET' : 'PAYMENT_WRONG_RECIPIENT', proof.txHash)
  const amount = ofAsset.reduce((sum, log) => sum + log.args.value, 0n)
  if (amount < minimum) throw new PaymentRefused('PAYMENT_INSUFFICIENT', `paid ${amount} atomic units, the price is ${minimum}`)
  let blockTime: number
  try {
    blockTime = Number((await client.getBlock({ blockNumber: receipt.blockNumber })).timestamp) * 1000
  } catch (error) {
    throw unavailable(error)
  }
  if (now - blockTime > x402.maxTxAgeSeconds * 1000) throw new PaymentRefused('PAYMENT_TOO_OLD', `mined at ${new Date(blockTime).toISOString()}; transfers must be at most ${x402.maxTxAgeSeconds} s old`)
  const authorizations = parseEventLogs({ abi: [AUTHORIZATION_USED], logs: receipt.logs, eventName: 'AuthorizationUsed' })
    .filter((log) => log.address.toLowerCase() === asset)
    .map((log) => ({ from: log.args.authorizer, nonce: log.args.nonce }))
  return { txHash: proof.txHash, payer: ofAsset[0]!.args.from, amount, blockTime, authorizations }
}
