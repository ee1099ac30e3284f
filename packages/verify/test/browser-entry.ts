// The package's cases for a browser page: bundled for browsers by the repository's test
// (test/browser/verify-package.test.ts) and called with the vectors.
import { cases, type Vectors } from './cases.js'

export interface CaseResult {
  name: string
  ok: boolean
  error?: string
}

function runVerifyCases(vectors: Vectors): CaseResult[] {
  return cases(vectors).map(({ name, run }) => {
    try {
      run()
      return { name, ok: true }
    } catch (error) {
      return { name, ok: false, error: (error as Error).message }
    }
  })
}

Object.assign(globalThis, { runVerifyCases })
