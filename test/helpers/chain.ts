// A real local EVM chain for payment tests: anvil (from the npm package
// @foundry-rs/anvil-linux-amd64) on a free loopback port, and the 6-decimal EIP-3009 test token
// of test/fixtures/contracts/TestUSDC.sol compiled with solc-js and deployed on it.
// Start one chain per test file (beforeAll) and stop it in afterAll.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import {
  createPublicClient,
  createWalletClient,
  http,
  parseUnits,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
  type Chain,
  defineChain,
} from 'viem'
import { mnemonicToAccount, type HDAccount } from 'viem/accounts'
import { freePort } from './process'

const require = createRequire(import.meta.url)
const ANVIL = resolve(import.meta.dir, '../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')
const SOURCE = resolve(import.meta.dir, '../fixtures/contracts/TestUSDC.sol')
/** anvil's well-known development mnemonic: accounts 0..9 hold 10,000 ETH each. */
const MNEMONIC = 'test test test test test test test test test test test junk'
export const CHAIN_ID = 31337

let compiled: { abi: unknown[]; bytecode: Hex } | null = null

/** Compiles TestUSDC.sol once per process. */
export function tokenArtifact(): { abi: unknown[]; bytecode: Hex } {
  if (compiled) return compiled
  const solc = require('solc') as { compile(input: string): string }
  const input = {
    language: 'Solidity',
    sources: { 'TestUSDC.sol': { content: readFileSync(SOURCE, 'utf8') } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length) throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
  const contract = output.contracts['TestUSDC.sol']!.TestUSDC!
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
  return compiled
}

export interface LocalChain {
  rpcUrl: string
  chain: Chain
  /** CAIP-2 id of the chain. */
  network: string
  publicClient: PublicClient
  account(index: number): HDAccount
  wallet(index: number): WalletClient
  /** Deploys a fresh token; returns its address. */
  deployToken(): Promise<Address>
  /** Mints `usdc` (decimal string) of a token to an address. */
  mint(token: Address, to: Address, usdc: string): Promise<void>
  /** Sends a plain ERC-20 transfer from account `from`; returns the mined transaction hash. */
  transfer(token: Address, from: number, to: Address, usdc: string): Promise<Hex>
  /** Moves the chain's clock forward (next block's timestamp). */
  increaseTime(seconds: number): Promise<void>
  stop(): Promise<void>
}

/** `chainId`: another id than anvil's (e.g. 84532, so that x402 v1, which names chains, can pay on it). */
export async function startChain(options: { chainId?: number } = {}): Promise<LocalChain> {
  const chainId = options.chainId ?? CHAIN_ID
  const port = freePort()
  const child = Bun.spawn([ANVIL, '--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'], { stdout: 'ignore', stderr: 'pipe' })
  const rpcUrl = `http://127.0.0.1:${port}`
  const chain = defineChain({ id: chainId, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } })
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient
  const deadline = Date.now() + 15_000
  for (;;) {
    try {
      await publicClient.getChainId()
      break
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('anvil did not start')
      await Bun.sleep(50)
    }
  }
  const accounts = new Map<number, HDAccount>()
  const account = (index: number) => {
    let found = accounts.get(index)
    if (!found) accounts.set(index, (found = mnemonicToAccount(MNEMONIC, { addressIndex: index })))
    return found
  }
  const wallet = (index: number) => createWalletClient({ account: account(index), chain, transport: http(rpcUrl) })
  const { abi, bytecode } = tokenArtifact()
  return {
    rpcUrl,
    chain,
    network: `eip155:${chainId}`,
    publicClient,
    account,
    wallet,
    async deployToken() {
      const hash = await wallet(0).deployContract({ abi, bytecode, account: account(0), chain })
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      return receipt.contractAddress!
    },
    async mint(token, to, usdc) {
      const hash = await wallet(0).writeContract({ address: token, abi, functionName: 'mint', args: [to, parseUnits(usdc, 6)], account: account(0), chain })
      await publicClient.waitForTransactionReceipt({ hash })
    },
    async transfer(token, from, to, usdc) {
      const hash = await wallet(from).writeContract({ address: token, abi, functionName: 'transfer', args: [to, parseUnits(usdc, 6)], account: account(from), chain })
      await publicClient.waitForTransactionReceipt({ hash })
      return hash
    },
    async increaseTime(seconds) {
      await publicClient.request({ method: 'evm_increaseTime' as never, params: [seconds] as never })
      await publicClient.request({ method: 'evm_mine' as never, params: [] as never })
    },
    async stop() {
      child.kill()
      await child.exited
    },
  }
}
