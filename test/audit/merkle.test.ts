// RFC 6962 trees: the published reference vectors, every leaf of every tree of 1..64 leaves, the
// block-built trees of the service against the plain recursion, and proofs that must fail.
import { describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { EMPTY_ROOT_HEX, MerkleLevel, auditPath, leafHash, rootOf, toHex, verifyInclusion, rootFromPath } from '../../src/audit/merkle'
import { BLOCK_SIZE, DayTrees } from '../../src/audit/day-tree'
import type { AuditStore, IdRow } from '../../src/audit/store'

// Reference data from transparency-dev/merkle (github.com/transparency-dev/merkle, file
// testonly/constants.go: LeafInputs, RootHashes and NodeHashes), the Certificate Transparency
// project's test vectors for RFC 6962 hashing; the inclusion proofs below are the ones in its
// proof/verify_test.go (1-based leaf numbers there), built from NodeHashes.
const LEAF_INPUTS = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((hex) => new Uint8Array(Buffer.from(hex, 'hex')))
const ROOT_HASHES = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
]
const LEVEL0 = ['6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7', '07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b', '4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658', 'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f', '46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1']
const INCLUSION = [
  { leaf: 1, size: 1, proof: [] as string[] },
  { leaf: 1, size: 8, proof: ['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'] },
  { leaf: 6, size: 8, proof: ['bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'] },
  { leaf: 3, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  { leaf: 2, size: 5, proof: ['6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b'] },
]

const hex = (bytes: Uint8Array[]) => bytes.map(toHex)
const verifyHashes = (leaf: Uint8Array, index: number, size: number, path: string[], root: string) => {
  const computed = rootFromPath(leaf, index, size, path.map((item) => new Uint8Array(Buffer.from(item, 'hex'))))
  return computed !== null && toHex(computed) === root
}

describe('RFC 6962 reference vectors (transparency-dev/merkle)', () => {
  test('leaf hashes, the empty root and the roots of the trees of 0..8 leaves', () => {
    const leaves = LEAF_INPUTS.map(leafHash)
    expect(hex(leaves)).toEqual(LEVEL0)
    expect(EMPTY_ROOT_HEX).toBe(ROOT_HASHES[0]!)
    for (let size = 0; size <= 8; size++) expect(toHex(rootOf(leaves.slice(0, size)))).toBe(ROOT_HASHES[size]!)
  })

  test('the published inclusion proofs are produced and verify', () => {
    const leaves = LEAF_INPUTS.map(leafHash)
    for (const { leaf, size, proof } of INCLUSION) {
      expect(hex(auditPath(leaf - 1, leaves.slice(0, size)))).toEqual(proof)
      expect(verifyHashes(leaves[leaf - 1]!, leaf - 1, size, proof, ROOT_HASHES[size]!)).toBe(true)
    }
  })

  test('corrupted proofs fail (wrong index, size, leaf, root, extra or missing hashes)', () => {
    const leaves = LEAF_INPUTS.map(leafHash)
    const { leaf, size, proof } = INCLUSION[2]!
    const root = ROOT_HASHES[size]!
    const index = leaf - 1
    expect(verifyHashes(leaves[index]!, index - 1, size, proof, root)).toBe(false)
    expect(verifyHashes(leaves[index]!, index + 1, size, proof, root)).toBe(false)
    expect(verifyHashes(leaves[index]!, index ^ 2, size, proof, root)).toBe(false)
    expect(verifyHashes(leaves[index]!, index, size * 2, proof, root)).toBe(false)
    expect(verifyHashes(leaves[index]!, index, size / 2, proof, root)).toBe(false)
    expect(verifyHashes(leafHash('WrongLeaf'), index, size, proof, root)).toBe(false)
    expect(verifyHashes(leaves[index]!, index, size, proof, ROOT_HASHES[0]!)).toBe(false)
    expect(verifyHashes(leaves[index]!, index, size, [...proof, root], root)).toBe(false)
    expect(verifyHashes(leaves[index]!, index, size, [root, ...proof], root)).toBe(false)
    expect(verifyHashes(leaves[index]!, index, size, proof.slice(1), root)).toBe(false)
    expect(verifyHashes(leaves[index]!, index, size, proof.slice(0, -1), root)).toBe(false)
    expect(verifyHashes(leaves[index]!, size, size, proof, root)).toBe(false)
  })
})

describe('every leaf of every tree of 1..64 leaves', () => {
  test('each audit path verifies against the root, and not for a neighbour leaf or against the next tree\'s root', () => {
    const ids = Array.from({ length: 65 }, () => randomUUID())
    for (let size = 1; size <= 64; size++) {
      const tree = ids.slice(0, size)
      const root = toHex(rootOf(tree.map(leafHash)))
      const nextRoot = toHex(rootOf(ids.slice(0, size + 1).map(leafHash)))
      for (let index = 0; index < size; index++) {
        const path = hex(auditPath(index, tree.map(leafHash)))
        expect(verifyInclusion(tree[index]!, index, size, path, root)).toBe(true)
        if (size > 1) expect(verifyInclusion(tree[(index + 1) % size]!, index, size, path, root)).toBe(false)
        expect(verifyInclusion(tree[index]!, index, size + 1, path, nextRoot)).toBe(false)
        expect(verifyInclusion(tree[index]!, index, size, path, nextRoot)).toBe(false)
      }
    }
  })
})

/** A store holding one day of ids, enough for DayTrees. */
function memoryDay(ids: string[]): AuditStore {
  const rows: IdRow[] = ids.map((receipt_id, index) => ({ seq: index * 2 + 1, receipt_id }))
  return {
    async dayIds(_day: string, afterSeq: number, limit: number) {
      return rows.filter((row) => row.seq > afterSeq).slice(0, limit)
    },
    async blocks() {
      return []
    },
  } as unknown as AuditStore
}

/** A day whose ids are read live from `ids` (which a test may grow), positions 1, 2, 3…; `reads` records each read's start. */
function liveDay(ids: string[], reads: number[] = []): AuditStore {
  return {
    async dayIds(_day: string, after: number, limit: number) {
      reads.push(after)
      return ids.map((receipt_id, i) => ({ seq: i + 1, receipt_id })).filter((r) => r.seq > after).slice(0, limit)
    },
    async blocks() {
      return []
    },
  } as unknown as AuditStore
}

describe('block-built trees (the service: blocks of 1,024 leaves) equal the plain RFC 6962 tree', () => {
  for (const size of [BLOCK_SIZE - 1, BLOCK_SIZE, BLOCK_SIZE + 1, 3 * BLOCK_SIZE + 7, 5000, 16_385]) {
    test(`${size} leaves: same root, and sampled proofs equal the plain audit path and verify`, async () => {
      const ids = Array.from({ length: size }, () => randomUUID())
      const leaves = ids.map(leafHash)
      const plainRoot = toHex(rootOf(leaves))
      const trees = new DayTrees(memoryDay(ids))
      const tree = await trees.tree('2026-11-20')
      expect(tree.size).toBe(size)
      expect(tree.rootHex).toBe(plainRoot)
      const samples = [0, 1, BLOCK_SIZE - 1, BLOCK_SIZE, Math.floor(size / 2), size - 2, size - 1].filter((index) => index < size)
      for (const index of samples) {
        const path = await trees.path('2026-11-20', tree, index)
        expect(path).toEqual(hex(auditPath(index, leaves)))
        expect(verifyInclusion(ids[index]!, index, size, path, plainRoot)).toBe(true)
      }
    })
  }

  test('a growing day: cached full blocks plus the new tail give the root of the longer tree', async () => {
    const ids = Array.from({ length: 2 * BLOCK_SIZE + 5 }, () => randomUUID())
    const visible: string[] = ids.slice(0, BLOCK_SIZE + 3)
    const trees = new DayTrees(liveDay(visible))
    expect((await trees.tree('d')).rootHex).toBe(toHex(rootOf(visible.map(leafHash))))
    visible.push(...ids.slice(BLOCK_SIZE + 3))
    const grown = await trees.tree('d')
    expect(grown.size).toBe(ids.length)
    expect(grown.rootHex).toBe(toHex(rootOf(ids.map(leafHash))))
  })

  test('a proof against a tree taken before the day grew past a block edge stays a proof of that tree', async () => {
    const ids = Array.from({ length: BLOCK_SIZE + 100 }, () => randomUUID())
    const visible: string[] = ids.slice(0, BLOCK_SIZE - 24)
    const trees = new DayTrees(liveDay(visible))
    const before = await trees.tree('d')
    // Another request sees the day after 124 more rows: the first block is full now.
    visible.push(...ids.slice(BLOCK_SIZE - 24))
    expect((await trees.tree('d')).size).toBe(ids.length)
    for (const index of [0, 500, BLOCK_SIZE - 25]) {
      expect(verifyInclusion(ids[index]!, index, before.size, await trees.path('d', before, index), before.rootHex)).toBe(true)
    }
  })

  test('reading many sealed days does not evict the blocks of a large unsealed day (they would be rebuilt from every row)', async () => {
    const today = Array.from({ length: 9 * BLOCK_SIZE + 5 }, () => randomUUID())
    const reads: string[] = []
    const store = {
      async dayIds(day: string, after: number, limit: number) {
        reads.push(day)
        return day === 'today' ? today.map((receipt_id, i) => ({ seq: i + 1, receipt_id })).filter((r) => r.seq > after).slice(0, limit) : []
      },
      // Sealed days: their full blocks' roots are stored (one block each here).
      async blocks(day: string) {
        return day === 'today' ? [] : [{ root: 'ab'.repeat(32), last_seq: 1 }]
      },
    } as unknown as AuditStore
    const trees = new DayTrees(store)
    const root = (await trees.tree('today')).rootHex
    for (let i = 0; i < 40; i++) await trees.tree(`sealed-${i}`)
    reads.length = 0
    expect((await trees.tree('today')).rootHex).toBe(root)
    expect(reads).toEqual(['today']) // only the tail, not the nine full blocks again
  })

  test('building a large day lets other work run between blocks; builders running at once share the blocks', async () => {
    const ids = Array.from({ length: 20 * BLOCK_SIZE + 3 }, () => randomUUID())
    const trees = new DayTrees(memoryDay(ids))
    let probes = 0
    let probing = true
    const probe = () => {
      probes++
      if (probing) setImmediate(probe)
    }
    setImmediate(probe)
    const [first, second] = await Promise.all([trees.tree('d'), trees.tree('d')])
    probing = false
    expect(probes).toBeGreaterThan(1)
    const plainRoot = toHex(rootOf(ids.map(leafHash)))
    for (const tree of [first, second, await trees.tree('d')]) {
      expect(tree.size).toBe(ids.length)
      expect(tree.fullCount).toBe(20)
      expect(tree.rootHex).toBe(plainRoot)
    }
  })

  test('find: the leaf index of an id in the unsealed tree, reading only the block that holds it; null for an unknown id', async () => {
    const ids = Array.from({ length: 3 * BLOCK_SIZE + 10 }, () => randomUUID())
    const reads: number[] = []
    const trees = new DayTrees(liveDay(ids, reads))
    const tree = await trees.tree('d')
    for (const index of [0, BLOCK_SIZE - 1, BLOCK_SIZE + 7, 2 * BLOCK_SIZE, 3 * BLOCK_SIZE + 9]) {
      reads.length = 0
      expect(await trees.find('d', tree, ids[index]!)).toBe(index)
      expect(reads.length).toBeLessThanOrEqual(1)
    }
    reads.length = 0
    expect(await trees.find('d', tree, randomUUID())).toBeNull()
    expect(reads).toEqual([])
  })
})

test('MerkleLevel (subtree roots kept) gives the same root and paths as rootOf and auditPath, asked twice and out of order', () => {
  for (let n = 1; n <= 70; n++) {
    const hashes = Array.from({ length: n }, () => leafHash(randomUUID()))
    const level = new MerkleLevel(hashes)
    const order = Array.from({ length: n }, (_, i) => (i * 37) % n)
    for (const index of [...order, ...order]) {
      expect(level.path(index).map(toHex)).toEqual(auditPath(index, hashes).map(toHex))
      expect(rootFromPath(hashes[index]!, index, n, level.path(index))).toEqual(rootOf(hashes))
    }
    expect(toHex(level.root())).toBe(toHex(rootOf(hashes)))
  }
  expect(() => new MerkleLevel([leafHash('a')]).path(1)).toThrow(RangeError)
})
