// The verifier package's cases in Bun: the published vectors and those a service in this process
// makes (every kind it signs, a checkpoint, a receipt with its tlog-proof, the policy).
import { describe, expect, test } from 'bun:test'
import { cases } from '../../packages/verify/test/cases'
import { publishedVectors } from '../helpers/verify-package-vectors'
import { serviceVectors } from '../helpers/signed-vectors'

const vectors = { ...publishedVectors(), service: await serviceVectors() }

describe('@openbell/verify in Bun', () => {
  for (const { name, run } of cases(vectors)) test(name, () => expect(run).not.toThrow(), 30_000)
})
