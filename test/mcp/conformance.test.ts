// The protocol's own conformance suite (@modelcontextprotocol/conformance, a dev dependency) run
// against the app listening on loopback: every server scenario that applies to a tools-only,
// JSON-answering, sessionless server passes with no failed or warned check. The others, and why
// they do not apply, are listed in NOT_APPLICABLE and in docs/mcp.md ("Conformance").
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { makeTestApp, tempDir, type TestApp } from '../helpers/app'
import { SLOW_SETUP_MS } from '../helpers/process'

const CLI = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js')

export const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const

/** Scenario → why it does not apply here (each needs a fixture tool, prompt or resource of the suite's reference server, or a feature this server does not offer). */
export const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'no logging capability (and 2026-07-28 removed logging/setLevel)',
  'completion-complete': 'no prompts or resource templates to complete',
  'tools-call-simple-text': "calls the suite's fixture tool test_simple_text",
  'tools-call-image': "calls the fixture tool test_image_content (this server answers text and structured JSON only)",
  'tools-call-audio': 'calls the fixture tool test_audio_content',
  'tools-call-embedded-resource': 'calls the fixture tool test_embedded_resource (no resources here)',
  'tools-call-mixed-content': 'calls the fixture tool test_multiple_content_types',
  'tools-call-with-logging': 'needs logging/setLevel and notifications/message',
  'tools-call-error': "calls the fixture tool test_error_handling (this server's tool errors are tested in test/mcp/)",
  'tools-call-with-progress': 'calls the fixture tool test_tool_with_progress (no progress notifications: answers are JSON, not SSE)',
  'tools-call-sampling': 'needs sampling (server-to-client requests): not offered',
  'tools-call-elicitation': 'needs elicitation: not offered',
  'json-schema-2020-12': 'calls the fixture tool json_schema_2020_12_tool (this server\'s 2020-12 schemas are checked by output-schemas.test.ts)',
  'elicitation-sep1034-defaults': 'needs elicitation: not offered',
  'elicitation-sep1330-enums': 'needs elicitation: not offered',
  'server-sse-polling': 'needs sessions and SSE answers with the fixture tool test_reconnection; this server issues no session and answers JSON',
  'server-sse-multiple-streams': 'needs sessions and SSE streams; this server issues no session and has no GET stream',
  'resources-list': 'no resources',
  'resources-read-text': 'no resources',
  'resources-read-binary': 'no resources',
  'resources-templates-read': 'no resources',
  'resources-subscribe': 'no resources',
  'resources-unsubscribe': 'no resources',
  'prompts-list': 'no prompts',
  'prompts-get-simple': 'no prompts',
  'prompts-get-with-args': 'no prompts',
  'prompts-get-embedded-resource': 'no prompts',
  'prompts-get-with-image': 'no prompts',
}

async function conformance(args: string[]): Promise<{ code: number; out: string }> {
  const child = Bun.spawn(['bun', CLI, ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } })
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, out: out + err }
}

describe('the official conformance suite, server scenarios', () => {
  let t: TestApp
  let url: string
  beforeAll(() => {
    // The suite makes real requests from one address: the anonymous rate must not be what it tests.
    t = makeTestApp({ env: { MCP_ANON_DAILY_LIMIT: '50' } })
    t.app.listen({ port: 0, hostname: '127.0.0.1' })
    url = `http://127.0.0.1:${t.app.server!.port}/mcp`
  }, SLOW_SETUP_MS)
  afterAll(async () => {
    await t.app.stop(true)
  })

  test('the suite lists exactly the server scenarios this file accounts for', async () => {
    const { out } = await conformance(['list'])
    const server = out.slice(out.indexOf('Server scenarios'), out.indexOf('Client scenarios'))
    const names = [...server.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((match) => match[1]!)
    expect(names.sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort())
  }, 60_000)

  for (const scenario of APPLICABLE) {
    test(`${scenario}: every check succeeds`, async () => {
      const dir = tempDir('openbell-conformance-')
      const { code, out } = await conformance(['server', '--url', url, '--scenario', scenario, '-o', dir])
      const [run] = readdirSync(dir)
      const checks = JSON.parse(readFileSync(join(dir, run!, 'checks.json'), 'utf8')) as { id: string; status: string; errorMessage?: string }[]
      const verdicts = checks.filter((check) => check.status !== 'INFO').map((check) => [check.id, check.status, check.errorMessage ?? ''])
      expect(verdicts.length).toBeGreaterThan(0)
      expect(verdicts.filter(([, status]) => status !== 'SUCCESS')).toEqual([])
      expect([code, out.includes('0 failed')]).toEqual([0, true])
    }, 60_000)
  }
})
