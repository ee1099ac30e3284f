// Credit packs (spec 8): 0.80 USDC → 1,000 credits, 0.09 → 100, 0.001 → 1. What was actually paid
// on chain buys packs greedily, largest first: 0.89 USDC buys 1,100. A remainder below 0.001
// USDC buys nothing (documented in docs/payments.md).

export const CREDIT_PACKS: readonly { atomic: bigint; credits: number }[] = [
  { atomic: 800_000n, credits: 1000 },
  { atomic: 90_000n, credits: 100 },
  { atomic: 1_000n, credits: 1 },
]

export function creditsFor(paidAtomic: bigint): number {
  let rest = paidAtomic
  let credits = 0
  for (const pack of CREDIT_PACKS) {
    const count = rest / pack.atomic
    credits += Number(count) * pack.credits
    rest -= count * pack.atomic
  }
  return credits
}
