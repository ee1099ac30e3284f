// The MCP revisions' published JSON schemas (vendored in test/fixtures/mcp-schema/, source and
// commit in its README), compiled once: `validate(version, 'ListToolsResult', value)` answers null
// when the value is a valid instance of that definition, else the validator's errors as text.
import Ajv from 'ajv'
import Ajv2020 from 'ajv/dist/2020'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

export const SCHEMA_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const
export type SchemaVersion = (typeof SCHEMA_VERSIONS)[number]

const compilers = new Map<SchemaVersion, { ajv: Ajv | Ajv2020; defs: string }>()

function compilerOf(version: SchemaVersion) {
  let entry = compilers.get(version)
  if (!entry) {
    const schema = JSON.parse(readFileSync(resolve(import.meta.dir, `../fixtures/mcp-schema/${version}/schema.json`), 'utf8'))
    const draft07 = String(schema.$schema).includes('draft-07')
    // strict off: the published schemas carry annotation keywords ajv does not know.
    const ajv = draft07 ? new Ajv({ strict: false, allErrors: true }) : new Ajv2020({ strict: false, allErrors: true })
    ajv.addSchema({ ...schema, $id: `mcp-${version}` })
    entry = { ajv, defs: draft07 ? 'definitions' : '$defs' }
    compilers.set(version, entry)
  }
  return entry
}

const validators = new Map<string, ReturnType<Ajv['compile']>>()

export function validate(version: SchemaVersion, definition: string, value: unknown): string | null {
  const { ajv, defs } = compilerOf(version)
  const key = `${version}#${definition}`
  let check = validators.get(key)
  if (!check) {
    check = ajv.compile({ $ref: `mcp-${version}#/${defs}/${definition}` })
    validators.set(key, check)
  }
  return check(value) ? null : `${version} ${definition}: ${ajv.errorsText(check.errors)}`
}
