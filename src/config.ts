// Configuration: read the environment once, validate every value (typebox 1.x), and refuse to
// start with a message naming the variable when one is bad. The variable table below is the
// single source for defaults and descriptions; the README's table is checked against it.
import Type, { type TSchema } from 'typebox'
import Value from 'typebox/value'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { availableParallelism, hostname } from 'node:os'

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`${variable}: ${detail}`)
    this.name = 'ConfigError'
  }
}

type Kind = 'string' | 'integer' | 'boolean'

interface VariableSpec {
  kind: Kind
  /** Default as the operator would write it; undefined = unset unless given. */
  default?: string
  doc: string
  schema: TSchema
}

// An IP literal (v4, or v6 with colons) or a host name of letters, digits, hyphens and dots.
const HOST_PATTERN = '^([0-9A-Fa-f:.]+|[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)$'

const isoInstant = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?Z$' })

export const CONFIG_VARIABLES = {
  PORT: { kind: 'integer', default: '8080', doc: 'TCP port to listen on', schema: Type.Integer({ minimum: 1, maximum: 65535 }) },
  HOST: { kind: 'string', default: '0.0.0.0', doc: 'address to bind: an IP address or a host name that resolves (checked at start)', schema: Type.String({ pattern: HOST_PATTERN }) },
  DATA_DIR: { kind: 'string', doc: 'directory for the database and the generated signing key (created 0700); default `data/` beside the binary (from source: beside `src/`). The CLI resolves it the same way', schema: Type.String({ minLength: 1 }) },
  DATABASE_PATH: { kind: 'string', doc: 'SQLite file (WAL mode); default `<DATA_DIR>/openbell.sqlite`. Not with DATABASE_URL', schema: Type.String({ minLength: 1 }) },
  DATABASE_URL: { kind: 'string', doc: '`postgres://user:password@host:port/database`: run as one of several nodes on this PostgreSQL database instead of the SQLite file (docs/scale-out.md). Unset = SQLite', schema: Type.String({ pattern: '^postgres(ql)?://' }) },
  NODE_ID: { kind: 'string', doc: 'name of this node in `/v5/health` `storage.node_id` and in the job leases it holds; default `<host name>-<process id>`', schema: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,64}$' }) },
  SIGNING_KEY: { kind: 'string', doc: 'Ed25519 private seed, 64 hex characters; exclusive with SIGNING_KEY_FILE', schema: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }) },
  SIGNING_KEY_FILE: { kind: 'string', doc: 'file holding the hex seed; when set and unreadable the signer is offline (never regenerated); a `signing-key.json` beside it for the same key (as a generated key has) gives the default key id and valid-from. Default: `<DATA_DIR>/signing-key.hex`, generated on first start', schema: Type.String({ minLength: 1 }) },
  PUBLIC_KEY_ID: { kind: 'string', doc: 'key id put in receipts; default the key id of `signing-key.json` beside the key file, else `key_<year>_v1` (year the key was generated)', schema: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }) },
  KEY_VALID_FROM: { kind: 'string', doc: 'ISO instant the key became valid; default: when it was generated (`signing-key.json` beside the key file), else 1 January of this year for a supplied key', schema: isoInstant },
  KEY_VALID_UNTIL: { kind: 'string', doc: 'ISO instant of a scheduled rotation; default none (null)', schema: isoInstant },
  ISSUER: { kind: 'string', default: 'localhost', doc: 'bare domain of this service, signed into receipts ({issuer}/v5/keys holds the key)', schema: Type.String({ pattern: '^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$' }) },
  PUBLIC_BASE_URL: { kind: 'string', doc: 'absolute base URL used in links (jwks_uri, docs); default `https://<ISSUER>`; for ISSUER localhost, `http://` with the host and port the service listens on', schema: Type.String({ pattern: '^https?://[^/]+$' }) },
  CORS_ALLOWED_ORIGINS: { kind: 'string', doc: 'comma-separated origins (`https://app.example`) whose pages may also use the key-minting, token and purchase routes from a browser; unset = only pages of this service itself (its `PUBLIC_BASE_URL` origin). The CORS policy of every route: docs/operations.md', schema: Type.String({ pattern: '^https?://[^\\s,/]+(,\\s*https?://[^\\s,/]+)*$' }) },
  ADMIN_KEY: { kind: 'string', doc: 'master key for operator endpoints (X-Oracle-Key); unset = operator endpoints refuse every request', schema: Type.String({ minLength: 24 }) },
  SCHEDULES_DIR: { kind: 'string', doc: 'calendar directory; default `schedules/` next to the binary, else in the working directory', schema: Type.String({ minLength: 1 }) },
  CLIENT_IP_HEADER: { kind: 'string', default: '', doc: 'empty (default) = the TCP peer address; behind a proxy, the only header the client address is read from (`cf-connecting-ip` behind Cloudflare). A missing or non-IP header value falls back to the peer', schema: Type.String({ pattern: '^[A-Za-z0-9-]*$' }) },
  HALT_FEED_URL: { kind: 'string', default: 'https://www.nasdaqtrader.com/rss.aspx?feed=tradehalts', doc: 'real-time halt feed for XNYS/XNAS (Nasdaq Trader trade-halts RSS, or a JSON market-status URL); `off` disables halt detection', schema: Type.String({ pattern: '^(https?://.+|off)$' }) },
  HALT_FEED_FORMAT: { kind: 'string', default: 'rss', doc: '`rss` (Nasdaq Trader trade halts) or `json` (`{"exchanges":{"nyse":"open"|"closed"|"halted",…}}`)', schema: Type.Union([Type.Literal('rss'), Type.Literal('json')]) },
  HALT_FEED_INTERVAL: { kind: 'integer', default: '30', doc: 'seconds between halt-feed polls while XNYS or XNAS is in session', schema: Type.Integer({ minimum: 5, maximum: 3600 }) },
  X402_PAY_TO: { kind: 'string', doc: 'address that receives x402 payments; unset = the 402 body offers no payment option (use an API key)', schema: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }) },
  X402_NETWORK: { kind: 'string', default: 'eip155:8453', doc: 'CAIP-2 id of the EVM chain of x402 payments, `eip155:<chain id>` (Base mainnet; Base Sepolia `eip155:84532`)', schema: Type.String({ pattern: '^eip155:[0-9]{1,12}$' }) },
  X402_ASSET: { kind: 'string', default: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', doc: 'token contract of x402 payments (USDC on Base)', schema: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }) },
  X402_ASSET_NAME: { kind: 'string', default: 'USD Coin', doc: "EIP-712 domain name of the x402 token (USDC: `USD Coin`)", schema: Type.String({ minLength: 1, maxLength: 100 }) },
  X402_ASSET_VERSION: { kind: 'string', default: '2', doc: 'EIP-712 domain version of the x402 token (USDC: `2`)', schema: Type.String({ minLength: 1, maxLength: 20 }) },
  CHAIN_RPC_URL: { kind: 'string', doc: 'EVM JSON-RPC endpoint of X402_NETWORK, for transaction-hash proofs (X-Payment txHash, credits, mint); unset = those answer 503', schema: Type.String({ pattern: '^https?://' }) },
  X402_FACILITATOR_URL: { kind: 'string', doc: 'x402 facilitator base URL (with `/verify` and `/settle`) for signed payments (Payment-Signature, X-Payment authorization); unset = those answer 503', schema: Type.String({ pattern: '^https?://' }) },
  X402_MAX_TX_AGE_SECONDS: { kind: 'integer', default: '300', doc: 'oldest block time accepted for a transaction-hash proof', schema: Type.Integer({ minimum: 10, maximum: 31_536_000 }) },
  PADDLE_WEBHOOK_SECRET: { kind: 'string', doc: 'Paddle notification destination secret; several separated by commas during rotation; unset = /webhooks/paddle answers 503', schema: Type.String({ minLength: 8 }) },
  PADDLE_API_KEY: { kind: 'string', doc: 'Paddle API key for checkout and customer look-ups; unset = /v5/checkout answers 503', schema: Type.String({ minLength: 8 }) },
  PADDLE_API_URL: { kind: 'string', default: 'https://api.paddle.com', doc: 'Paddle API base URL (sandbox: https://sandbox-api.paddle.com)', schema: Type.String({ pattern: '^https?://[^/]+$' }) },
  PADDLE_PRICE_BUILDER: { kind: 'string', doc: 'Paddle price id of the builder plan', schema: Type.String({ pattern: '^pri_[A-Za-z0-9]+$' }) },
  PADDLE_PRICE_PRO: { kind: 'string', doc: 'Paddle price id of the pro plan', schema: Type.String({ pattern: '^pri_[A-Za-z0-9]+$' }) },
  PADDLE_PRICE_CREDITS: { kind: 'string', doc: 'Paddle price id of a 1,000-credit pack', schema: Type.String({ pattern: '^pri_[A-Za-z0-9]+$' }) },
  PADDLE_PRICE_CUSTODY_90D: { kind: 'string', doc: 'Paddle price id of the witness custody_90d plan (Evidence starter key)', schema: Type.String({ pattern: '^pri_[A-Za-z0-9]+$' }) },
  PADDLE_PRICE_CUSTODY_1Y: { kind: 'string', doc: 'Paddle price id of the witness custody_1y plan (Evidence key)', schema: Type.String({ pattern: '^pri_[A-Za-z0-9]+$' }) },
  X402_STATUS_PRICE: { kind: 'string', default: '0.001', doc: 'USDC per /v5/status request paid with x402', schema: Type.String({ pattern: '^[0-9]+(\\.[0-9]{1,6})?$' }) },
  X402_BATCH_PRICE: { kind: 'string', default: '0.005', doc: 'USDC per /v5/batch request paid with x402', schema: Type.String({ pattern: '^[0-9]+(\\.[0-9]{1,6})?$' }) },
  WITNESS_ANON_DAILY_CAP: { kind: 'integer', default: '2000', doc: 'new anonymous witness rows per UTC day; past it anonymous POSTs of new checkpoints get 503', schema: Type.Integer({ minimum: 0 }) },
  WITNESS_MAX_ROWS: { kind: 'integer', default: '0', doc: 'storage ceiling in witness rows (0 = no row ceiling); when reached new checkpoints get 503, reads keep working', schema: Type.Integer({ minimum: 0 }) },
  WITNESS_MAX_BYTES: { kind: 'integer', default: '0', doc: 'storage ceiling as database size in bytes (0 = none)', schema: Type.Integer({ minimum: 0 }) },
  WITNESS_PLAN_90D_USD: { kind: 'string', default: '29', doc: 'price (USD per month) of the custody_90d plan offered in `upgrade`', schema: Type.String({ pattern: '^[0-9]+(\\.[0-9]{1,2})?$' }) },
  WITNESS_PLAN_1Y_USD: { kind: 'string', default: '79', doc: 'price (USD per month) of the custody_1y plan offered in `upgrade`', schema: Type.String({ pattern: '^[0-9]+(\\.[0-9]{1,2})?$' }) },
  WITNESS_CHECKOUT_URL: { kind: 'string', doc: 'where `upgrade.checkout` POSTs to start a purchase; default `<PUBLIC_BASE_URL>/v5/checkout`', schema: Type.String({ pattern: '^https?://' }) },
  WITNESS_PRICING_URL: { kind: 'string', doc: 'pricing page named in `upgrade.pricing` and every `upgrade_url`; default `<PUBLIC_BASE_URL>/pricing`, served by the service itself from this configuration', schema: Type.String({ pattern: '^https?://' }) },
  RECEIPT_RETENTION_DAYS: { kind: 'integer', default: '35', doc: 'days full signed receipt bodies are kept in the audit log (at least 31, the archive window); ids, sealed digests and proofs are kept for good', schema: Type.Integer({ minimum: 31, maximum: 36500 }) },
  FREE_DAILY_LIMIT: { kind: 'integer', default: '500', doc: 'requests per UTC day on /v5/status and /v5/batch for a free key before credits are spent (then 402)', schema: Type.Integer({ minimum: 1 }) },
  FREE_MONTHLY_LIMIT: { kind: 'integer', default: '15000', doc: 'monthly figure reported for free keys by /v5/usage (the daily limit is what is enforced)', schema: Type.Integer({ minimum: 1 }) },
  MCP_ANON_DAILY_LIMIT: { kind: 'integer', default: '10', doc: 'signed receipts per client address and UTC day from the tool endpoint without a bearer token (0 = none)', schema: Type.Integer({ minimum: 0 }) },
  MCP_KEY_RATE_PER_MINUTE: { kind: 'integer', default: '600', doc: 'JSON-RPC messages per minute per key on the tool endpoint with a bearer token (every tool; a batch counts each element); past it 429 with Retry-After', schema: Type.Integer({ minimum: 1 }) },
  MCP_ALLOWED_HOSTS: { kind: 'string', doc: 'comma-separated further host names the tool endpoint answers besides the host of PUBLIC_BASE_URL, ISSUER, a specific HOST and loopback (DNS-rebinding guard, docs/mcp.md); `*` = any Host (only behind a proxy that checks Host itself)', schema: Type.String({ pattern: '^(\\*|[A-Za-z0-9.:\\[\\]-]+(,\\s*[A-Za-z0-9.:\\[\\]-]+)*)$' }) },
  MCP_ANON_RATE_PER_MINUTE: { kind: 'integer', default: '120', doc: 'JSON-RPC messages per minute per client address on the tool endpoint without a bearer token (each HTTP request counts, a batch counts each element); past it 429 with Retry-After', schema: Type.Integer({ minimum: 1 }) },
  CALENDAR_RATE_PER_MINUTE: { kind: 'integer', default: '120', doc: 'requests per minute per client address, together, on /v5/calendar, /v5/calendar/<MIC>.ics, /v5/holidays and /v5/holidays/upcoming (a 304 counts too); past it 429 RATE_LIMITED with Retry-After', schema: Type.Integer({ minimum: 1 }) },
  SECURITY_CONTACT: { kind: 'string', doc: 'RFC 9116 contact for /.well-known/security.txt (`mailto:` or `https:` URI); unset = that file answers 404 and the start logs a warning', schema: Type.String({ pattern: '^(mailto:[^\\s@]+@[^\\s@]+|https://\\S+)$' }) },
  SHOWCASE_FILE: { kind: 'string', doc: 'JSON file of /v5/showcase entries (an array of objects), editable by the operator; default `showcase.json` in DATA_DIR (missing = empty)', schema: Type.String({ minLength: 1 }) },
  BUILD_INFO_FILE: { kind: 'string', doc: 'JSON with the test counts of the test run that preceded the build, written by `.ci/run` beside the binary after building it (`tests_passing` of /v5/metrics/public; `bun run build` alone deletes any earlier file and writes none); default `build-info.json` beside the binary (from source: the project root); missing = null', schema: Type.String({ minLength: 1 }) },
  SHOWCASE_SUBMIT_URL: { kind: 'string', doc: '`submit_url` of /v5/showcase (where integrations are submitted); unset = null', schema: Type.String({ pattern: '^(https?://|mailto:)' }) },
  SMTP_URL: { kind: 'string', doc: 'outgoing mail server, `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`; unset = e-mail not configured: /v5/keys/request answers 503 and sandbox keys are not mailed', schema: Type.String({ pattern: '^smtps?://[^\\s/?#]+/?(\\?\\S*)?$' }) },
  MAIL_FROM: { kind: 'string', doc: 'From address of outgoing mail, `keys@example.com` or `openbell <keys@example.com>`; required with SMTP_URL', schema: Type.String({ pattern: '^([^<>\\r\\n]*<[^\\s@<>]+@[^\\s@<>]+>|[^\\s@<>]+@[^\\s@<>]+)$' }) },
  LOG_LEVEL: { kind: 'string', default: 'info', doc: 'debug, info, warn or error', schema: Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')]) },
  REUSE_PORT: { kind: 'string', default: 'false', doc: '`true` lets several processes listen on one port (SO_REUSEPORT); they must share one DATA_DIR and key. Default: a port in use stops the start', schema: Type.Union([Type.Literal('true'), Type.Literal('false')]) },
  WORKERS: { kind: 'string', default: '1', doc: '`N` (1–64) or `auto` (one per core): worker processes that share the port and the store, under one supervisor that restarts a worker that dies and passes SIGTERM and SIGHUP on (docs/operations.md, "Every core"). Default 1: one process, no supervisor', schema: Type.String({ pattern: '^(auto|[1-9]|[1-5][0-9]|6[0-4])$' }) },
  STREAM_INTERVAL_SECONDS: { kind: 'integer', default: '30', doc: 'seconds between signed receipts on /v5/stream (one signature per MIC per tick, shared by every stream of that MIC)', schema: Type.Integer({ minimum: 1, maximum: 3600 }) },
  WEBHOOK_DISPATCH_INTERVAL_SECONDS: { kind: 'integer', default: '60', doc: 'webhook dispatch cycle in seconds; also the unit of the retry schedule (1, 5, 30, 150, 600 intervals)', schema: Type.Integer({ minimum: 1, maximum: 3600 }) },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: { kind: 'string', default: 'false', doc: '`true` lets webhooks target loopback, private, link-local and metadata addresses (delivery inside the operator network, tests); the start-up log warns while it is on. Default: refused at subscribe and at every delivery', schema: Type.Union([Type.Literal('true'), Type.Literal('false')]) },
  LOG_ORIGIN: { kind: 'string', doc: 'origin line (and note key name) of the transparency log\'s checkpoints; default `<PUBLIC_BASE_URL without scheme>/log`. Changing it makes a new log for monitors (docs/transparency.md)', schema: Type.String({ pattern: '^[^\\s+]{1,200}$' }) },
  WITNESS_NAME: { kind: 'string', doc: 'key name of the witness\'s cosignatures (C2SP tlog-witness); default `<PUBLIC_BASE_URL without scheme>/witness`', schema: Type.String({ pattern: '^[^\\s+]{1,200}$' }) },
  WITNESS_LOGS_FILE: { kind: 'string', doc: 'logs the C2SP witness (`POST /add-checkpoint`) cosigns, in the witness-network log-list format (`logs/v0`, then `vkey`, optional `origin`, `qpd`, `contact` per log); read at start; logs added with `POST /v5/admin/witness/logs` come on top. Unset = only those and this service\'s own log', schema: Type.String({ minLength: 1 }) },
  LOG_WITNESS_POLICY_FILE: { kind: 'string', doc: 'other witnesses asked to cosign each checkpoint of this log: a C2SP tlog-policy file whose `witness <name> <vkey> <url>` lines name each witness\'s key and add-checkpoint URL prefix; their cosignatures are added to `/log/checkpoint`. Unset = only this service\'s own witness', schema: Type.String({ minLength: 1 }) },
  LOG_POLICY_QUORUM: { kind: 'string', default: 'self', doc: 'the quorum of the tlog-policy published at `/log/policy`: `self` (this service\'s own witness must have cosigned), `none`, `any` or `all` of the witnesses (the own one and those of LOG_WITNESS_POLICY_FILE), or a number k of them', schema: Type.String({ pattern: '^(self|none|any|all|[1-9][0-9]{0,2})$' }) },
  LOG_CHECKPOINT_INTERVAL_MS: { kind: 'integer', default: '1000', doc: 'how often the log integrates new receipts into tiles and signs a checkpoint while receipts flow (milliseconds)', schema: Type.Integer({ minimum: 100, maximum: 4000 }) },
  LOG_WITNESS_TIMEOUT_MS: { kind: 'integer', default: '2000', doc: 'how long a checkpoint waits for each witness of LOG_WITNESS_POLICY_FILE before it is published without that witness\'s cosignature', schema: Type.Integer({ minimum: 100, maximum: 30000 }) },
  DURABILITY: { kind: 'string', default: 'process', doc: '`process`: a committed write survives a crash of the process (SQLite synchronous=NORMAL); `power`: it also survives a power loss or kernel crash (synchronous=FULL, an fsync per commit; its cost is in docs/performance.md). SQLite only: PostgreSQL commits are as durable as its server makes them', schema: Type.Union([Type.Literal('process'), Type.Literal('power')]) },
  CALENDAR_UPSTREAM_URL: { kind: 'string', doc: 'follow this calendar source: an instance\'s base URL or the URL of a directory written by `openbell calendars publish`; `https://`, or `http://` only to a loopback or private-network address. Needs CALENDAR_UPSTREAM_KEY (docs/calendars.md). Unset = follow none', schema: Type.String({ pattern: '^https?://[^\\s?#]+$' }) },
  CALENDAR_UPSTREAM_KEY: { kind: 'string', doc: 'the source\'s calendar-publisher vkey (`calendar_publisher_key.vkey` of its /v5/keys); required with CALENDAR_UPSTREAM_URL', schema: Type.String({ pattern: '^[^\\s+]{1,200}\\+[0-9a-f]{8}\\+[A-Za-z0-9+/]{44}$' }) },
  CALENDAR_UPSTREAM_INTERVAL_S: { kind: 'integer', default: '3600', doc: 'seconds between checks of the calendar source (errors back off with jitter)', schema: Type.Integer({ minimum: 1, maximum: 86400 }) },
  BODY_TIMEOUT_MS: { kind: 'integer', default: '10000', doc: 'milliseconds a request body may take to arrive; a slower upload gets 408', schema: Type.Integer({ minimum: 100, maximum: 600000 }) },
} satisfies Record<string, VariableSpec>

export type ConfigVariable = keyof typeof CONFIG_VARIABLES

/** What can be bought through the billing provider, and the variable holding each price id. */
export const PADDLE_PRICE_VARIABLES = {
  builder: 'PADDLE_PRICE_BUILDER',
  pro: 'PADDLE_PRICE_PRO',
  credits: 'PADDLE_PRICE_CREDITS',
  custody_90d: 'PADDLE_PRICE_CUSTODY_90D',
  custody_1y: 'PADDLE_PRICE_CUSTODY_1Y',
} as const satisfies Record<string, ConfigVariable>
export type PaddleProduct = keyof typeof PADDLE_PRICE_VARIABLES

export interface Config {
  port: number
  host: string
  dataDir: string
  databasePath: string
  /** PostgreSQL (DATABASE_URL) or null for the SQLite file at databasePath. */
  databaseUrl: string | null
  nodeId: string
  signingKey: string | null
  signingKeyFile: string | null
  publicKeyId: string | null
  keyValidFrom: string | null
  keyValidUntil: string | null
  issuer: string
  publicBaseUrl: string
  adminKey: string | null
  schedulesDir: string
  clientIpHeader: string | null
  /** Origins allowed on the CORS 'listed' routes besides the service's own (src/http/cors-policy.ts). */
  corsAllowedOrigins: string[]
  logLevel: 'debug' | 'info' | 'warn' | 'error'
  receiptRetentionDays: number
  reusePort: boolean
  /** WORKERS resolved: the number of worker processes (1: this process serves alone). */
  workers: number
  durability: 'process' | 'power'
  bodyTimeoutMs: number
  delivery: { streamIntervalSeconds: number; dispatchIntervalSeconds: number; allowPrivateTargets: boolean }
  haltFeed: { url: string | null; format: 'rss' | 'json'; intervalMs: number }
  /** The calendar source this instance follows (null: none). */
  calendarUpstream: { url: string; key: string; intervalMs: number } | null
  mcp: { anonymousDailyLimit: number; anonymousRatePerMinute: number; keyRatePerMinute: number; allowedHosts: string[] }
  /** CALENDAR_RATE_PER_MINUTE: the per-address rate of the calendar answers. */
  calendarRatePerMinute: number
  mail: { smtpUrl: string | null; from: string | null }
  metering: { freeDailyLimit: number; freeMonthlyLimit: number }
  securityContact: string | null
  showcase: { file: string; submitUrl: string | null }
  buildInfoFile: string
  x402: { payTo: string | null; network: string; asset: string; assetName: string; assetVersion: string; statusPrice: string; batchPrice: string; chainRpcUrl: string | null; facilitatorUrl: string | null; maxTxAgeSeconds: number }
  paddle: { webhookSecrets: string[]; apiKey: string | null; apiUrl: string; prices: Partial<Record<PaddleProduct, string>> }
  witness: { anonymousDailyCap: number; maxRows: number; maxBytes: number; plan90dUsd: string; plan1yUsd: string; checkoutUrl: string; pricingUrl: string }
  transparency: { origin: string; witnessName: string; witnessLogsFile: string | null; witnessPolicyFile: string | null; policyQuorum: string; checkpointIntervalMs: number; witnessTimeoutMs: number }
}

type Env = Record<string, string | undefined>

function readVariable(env: Env, name: ConfigVariable): unknown {
  const spec: VariableSpec = CONFIG_VARIABLES[name]
  // An empty value means "unset", except where empty is itself meaningful (CLIENT_IP_HEADER).
  const given = env[name] === '' && name !== 'CLIENT_IP_HEADER' ? undefined : env[name]
  const raw = given ?? spec.default
  if (raw === undefined) return undefined
  let value: unknown = raw
  if (spec.kind === 'integer') {
    if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number (got ${JSON.stringify(raw)})`)
    value = Number(raw)
  }
  if (!Value.Check(spec.schema, value)) {
    const first = [...Value.Errors(spec.schema, value)][0]
    // The raw value is not echoed for secrets.
    const shown = name === 'SIGNING_KEY' || name === 'ADMIN_KEY' || name === 'PADDLE_WEBHOOK_SECRET' || name === 'PADDLE_API_KEY' || name === 'SMTP_URL' ? '(value hidden)' : name === 'DATABASE_URL' ? JSON.stringify(maskUrlPassword(raw)) : JSON.stringify(raw)
    const choices = allowedValues(spec.schema)
    throw new ConfigError(name, `${choices ? `must be one of ${choices.join(', ')}` : (first?.message ?? 'invalid value')} (got ${shown})`)
  }
  return value
}

/** The values of a union of literals (LOG_LEVEL, HALT_FEED_FORMAT…), to list them in the error. */
function allowedValues(schema: TSchema): string[] | null {
  const members = (schema as { anyOf?: { const?: unknown }[] }).anyOf
  if (!members?.length || !members.every((member) => typeof member.const === 'string')) return null
  return members.map((member) => member.const as string)
}

/**
 * Where the program lives: the directory of a compiled binary, or the project root when run
 * from source (`bun src/main.ts`), so that the service and the CLI find the same files
 * whatever the working directory is.
 */
export function programDir(): string {
  const compiled = import.meta.path.startsWith('/$bunfs/') || /^[A-Z]:\\~BUN\\/.test(import.meta.path)
  return compiled ? dirname(process.execPath) : resolve(import.meta.dir, '..')
}

/** Where the schedules live when SCHEDULES_DIR is unset: next to a compiled binary, else the working directory. */
function defaultSchedulesDir(): string {
  const besideBinary = join(dirname(process.execPath), 'schedules')
  return existsSync(besideBinary) ? besideBinary : resolve('schedules')
}

/** A base URL without its scheme: the C2SP convention for log origins and key names. */
const schemeless = (url: string) => url.replace(/^https?:\/\//, '')
const fileOrNull = (path: string | undefined) => (path ? resolve(path) : null)

/** CORS_ALLOWED_ORIGINS as origins (scheme://host[:port], lower case); a path or other URL part is a configuration error. */
function corsOrigins(value: string | undefined): string[] {
  if (!value) return []
  return value.split(',').map((entry) => {
    const text = entry.trim()
    let origin: string
    try {
      origin = new URL(text).origin
    } catch {
      throw new ConfigError('CORS_ALLOWED_ORIGINS', `not an origin: ${JSON.stringify(text)}`)
    }
    if (origin !== text.toLowerCase().replace(/\/$/, '')) throw new ConfigError('CORS_ALLOWED_ORIGINS', `give origins only (scheme://host[:port]), not ${JSON.stringify(text)}`)
    return origin
  })
}

export function loadConfig(env: Env = process.env): Config {
  const get = <T>(name: ConfigVariable) => readVariable(env, name) as T
  const dataDir = resolve(get<string | undefined>('DATA_DIR') ?? join(programDir(), 'data'))
  const signingKey = get<string | undefined>('SIGNING_KEY')
  const signingKeyFile = get<string | undefined>('SIGNING_KEY_FILE')
  if (signingKey && signingKeyFile) throw new ConfigError('SIGNING_KEY', 'set either SIGNING_KEY or SIGNING_KEY_FILE, not both')
  const issuer = get<string>('ISSUER')
  const validFrom = get<string | undefined>('KEY_VALID_FROM')
  const validUntil = get<string | undefined>('KEY_VALID_UNTIL')
  for (const [name, value] of [['KEY_VALID_FROM', validFrom], ['KEY_VALID_UNTIL', validUntil]] as const) {
    if (value !== undefined && Number.isNaN(Date.parse(value))) throw new ConfigError(name, `not a valid instant (got ${JSON.stringify(value)})`)
  }
  if (validFrom && validUntil && Date.parse(validFrom) >= Date.parse(validUntil)) throw new ConfigError('KEY_VALID_UNTIL', 'must be after KEY_VALID_FROM')
  const databaseUrl = checkedDatabaseUrl(get<string | undefined>('DATABASE_URL'))
  if (databaseUrl && get('DATABASE_PATH')) throw new ConfigError('DATABASE_PATH', 'set DATABASE_URL (PostgreSQL) or DATABASE_PATH (SQLite), not both')
  const smtpUrl = get<string | undefined>('SMTP_URL') ?? null
  const mailFrom = get<string | undefined>('MAIL_FROM') ?? null
  if (smtpUrl && !mailFrom) throw new ConfigError('MAIL_FROM', 'required when SMTP_URL is set')
  // The default token is USDC on Base mainnet: on another chain that address is no token at all.
  if (get('X402_PAY_TO') && get('X402_NETWORK') !== CONFIG_VARIABLES.X402_NETWORK.default && !env.X402_ASSET) throw new ConfigError('X402_ASSET', 'required when X402_NETWORK is not Base mainnet (the default is USDC on Base)')
  const localIssuer = /^(localhost|127\.0\.0\.1)(:\d+)?$/.test(issuer)
  const clientIpHeader = get<string>('CLIENT_IP_HEADER')
  const port = get<number>('PORT')
  const host = get<string>('HOST')
  const publicBaseUrl = get<string | undefined>('PUBLIC_BASE_URL') ?? (localIssuer && !issuer.includes(':') ? listeningBaseUrl(host, port) : `${localIssuer ? 'http' : 'https'}://${issuer}`)
  return {
    port,
    host,
    dataDir,
    databasePath: resolve(get<string | undefined>('DATABASE_PATH') ?? join(dataDir, 'openbell.sqlite')),
    databaseUrl,
    nodeId: get<string | undefined>('NODE_ID') ?? `${hostname().replace(/[^A-Za-z0-9_.:-]/g, '-').slice(0, 50)}-${process.pid}`,
    signingKey: signingKey?.toLowerCase() ?? null,
    signingKeyFile: signingKeyFile ? resolve(signingKeyFile) : null,
    publicKeyId: get<string | undefined>('PUBLIC_KEY_ID') ?? null,
    keyValidFrom: validFrom ? new Date(validFrom).toISOString() : null,
    keyValidUntil: validUntil ? new Date(validUntil).toISOString() : null,
    issuer,
    publicBaseUrl,
    adminKey: get<string | undefined>('ADMIN_KEY') ?? null,
    schedulesDir: resolve(get<string | undefined>('SCHEDULES_DIR') ?? defaultSchedulesDir()),
    clientIpHeader: clientIpHeader === '' ? null : clientIpHeader.toLowerCase(),
    corsAllowedOrigins: corsOrigins(get<string | undefined>('CORS_ALLOWED_ORIGINS')),
    logLevel: get<Config['logLevel']>('LOG_LEVEL'),
    receiptRetentionDays: get<number>('RECEIPT_RETENTION_DAYS'),
    reusePort: get<string>('REUSE_PORT') === 'true',
    workers: get<string>('WORKERS') === 'auto' ? Math.min(64, availableParallelism()) : Number(get<string>('WORKERS')),
    durability: get<Config['durability']>('DURABILITY'),
    bodyTimeoutMs: get<number>('BODY_TIMEOUT_MS'),
    delivery: { streamIntervalSeconds: get<number>('STREAM_INTERVAL_SECONDS'), dispatchIntervalSeconds: get<number>('WEBHOOK_DISPATCH_INTERVAL_SECONDS'), allowPrivateTargets: get<string>('WEBHOOK_ALLOW_PRIVATE_TARGETS') === 'true' },
    haltFeed: {
      url: get<string>('HALT_FEED_URL') === 'off' ? null : get<string>('HALT_FEED_URL'),
      format: get<'rss' | 'json'>('HALT_FEED_FORMAT'),
      intervalMs: get<number>('HALT_FEED_INTERVAL') * 1000,
    },
    calendarUpstream: calendarUpstream(get<string | undefined>('CALENDAR_UPSTREAM_URL'), get<string | undefined>('CALENDAR_UPSTREAM_KEY'), get<number>('CALENDAR_UPSTREAM_INTERVAL_S')),
    mcp: {
      anonymousDailyLimit: get<number>('MCP_ANON_DAILY_LIMIT'),
      anonymousRatePerMinute: get<number>('MCP_ANON_RATE_PER_MINUTE'),
      keyRatePerMinute: get<number>('MCP_KEY_RATE_PER_MINUTE'),
      allowedHosts: (get<string | undefined>('MCP_ALLOWED_HOSTS') ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean),
    },
    calendarRatePerMinute: get<number>('CALENDAR_RATE_PER_MINUTE'),
    mail: { smtpUrl, from: mailFrom },
    metering: { freeDailyLimit: get<number>('FREE_DAILY_LIMIT'), freeMonthlyLimit: get<number>('FREE_MONTHLY_LIMIT') },
    securityContact: get<string | undefined>('SECURITY_CONTACT') ?? null,
    buildInfoFile: resolve(get<string | undefined>('BUILD_INFO_FILE') ?? join(programDir(), 'build-info.json')),
    showcase: { file: resolve(get<string | undefined>('SHOWCASE_FILE') ?? join(dataDir, 'showcase.json')), submitUrl: get<string | undefined>('SHOWCASE_SUBMIT_URL') ?? null },
    witness: {
      anonymousDailyCap: get<number>('WITNESS_ANON_DAILY_CAP'),
      maxRows: get<number>('WITNESS_MAX_ROWS'),
      maxBytes: get<number>('WITNESS_MAX_BYTES'),
      plan90dUsd: get<string>('WITNESS_PLAN_90D_USD'),
      plan1yUsd: get<string>('WITNESS_PLAN_1Y_USD'),
      checkoutUrl: get<string | undefined>('WITNESS_CHECKOUT_URL') ?? `${publicBaseUrl}/v5/checkout`,
      pricingUrl: get<string | undefined>('WITNESS_PRICING_URL') ?? `${publicBaseUrl}/pricing`,
    },
    transparency: {
      origin: get<string | undefined>('LOG_ORIGIN') ?? `${schemeless(publicBaseUrl)}/log`,
      witnessName: get<string | undefined>('WITNESS_NAME') ?? `${schemeless(publicBaseUrl)}/witness`,
      witnessLogsFile: fileOrNull(get<string | undefined>('WITNESS_LOGS_FILE')),
      witnessPolicyFile: fileOrNull(get<string | undefined>('LOG_WITNESS_POLICY_FILE')),
      policyQuorum: get<string>('LOG_POLICY_QUORUM'),
      checkpointIntervalMs: get<number>('LOG_CHECKPOINT_INTERVAL_MS'),
      witnessTimeoutMs: get<number>('LOG_WITNESS_TIMEOUT_MS'),
    },
    x402: {
      payTo: get<string | undefined>('X402_PAY_TO') ?? null,
      network: get<string>('X402_NETWORK'),
      asset: get<string>('X402_ASSET'),
      statusPrice: get<string>('X402_STATUS_PRICE'),
      batchPrice: get<string>('X402_BATCH_PRICE'),
      assetName: get<string>('X402_ASSET_NAME'),
      assetVersion: get<string>('X402_ASSET_VERSION'),
      chainRpcUrl: get<string | undefined>('CHAIN_RPC_URL') ?? null,
      facilitatorUrl: get<string | undefined>('X402_FACILITATOR_URL')?.replace(/\/+$/, '') ?? null,
      maxTxAgeSeconds: get<number>('X402_MAX_TX_AGE_SECONDS'),
    },
    paddle: {
      webhookSecrets: (get<string | undefined>('PADDLE_WEBHOOK_SECRET') ?? '').split(',').map((secret) => secret.trim()).filter(Boolean),
      apiKey: get<string | undefined>('PADDLE_API_KEY') ?? null,
      apiUrl: get<string>('PADDLE_API_URL'),
      prices: Object.fromEntries(
        (Object.entries(PADDLE_PRICE_VARIABLES) as [PaddleProduct, ConfigVariable][]).flatMap(([product, name]) => {
          const price = get<string | undefined>(name)
          return price ? [[product, price]] : []
        }),
      ),
    },
  }
}

/** An IPv4 or IPv6 literal (or localhost) on loopback or in a private range: where plain http is allowed for a calendar source. */
function privateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host === '::1') return true
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])]
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)
  }
  return /^f[cd][0-9a-f]{2}:/.test(host)
}

/** CALENDAR_UPSTREAM_URL and _KEY, both or neither; http only to a loopback or private address. */
function calendarUpstream(url: string | undefined, key: string | undefined, intervalS: number): Config['calendarUpstream'] {
  if (!url && !key) return null
  if (!url) throw new ConfigError('CALENDAR_UPSTREAM_URL', 'required with CALENDAR_UPSTREAM_KEY')
  if (!key) throw new ConfigError('CALENDAR_UPSTREAM_KEY', 'required with CALENDAR_UPSTREAM_URL (the source\'s calendar_publisher_key.vkey from its /v5/keys)')
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new ConfigError('CALENDAR_UPSTREAM_URL', `not a URL (got ${JSON.stringify(url)})`)
  }
  if (parsed.username || parsed.password) throw new ConfigError('CALENDAR_UPSTREAM_URL', 'must not carry credentials')
  if (parsed.protocol === 'http:' && !privateHost(parsed.hostname)) throw new ConfigError('CALENDAR_UPSTREAM_URL', `http:// is allowed only to a loopback or private-network address; use https:// (got ${JSON.stringify(url)})`)
  return { url: url.replace(/\/+$/, ''), key, intervalMs: intervalS * 1000 }
}

/** A connection URL with its password replaced by `***`: the only form that may reach a message or a log. */
export function maskUrlPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:)[^@/?#]*@/i, '$1***@')
}

/** DATABASE_URL parsed once: a PostgreSQL URL with a host and a database name. */
function checkedDatabaseUrl(raw: string | undefined): string | null {
  return raw === undefined ? null : checkPostgresUrl(raw, 'DATABASE_URL')
}

/** A PostgreSQL URL with a host and one database name (DATABASE_URL, the target of `db copy`); throws ConfigError naming `variable`. */
export function checkPostgresUrl(raw: string, variable: string): string {
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError(variable, `must be a postgres:// URL (got ${JSON.stringify(maskUrlPassword(raw))})`)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(variable, `not a URL (got ${JSON.stringify(maskUrlPassword(raw))}); expected postgres://user:password@host:port/database`)
  }
  const masked = JSON.stringify(maskUrlPassword(raw))
  if (!url.hostname) throw new ConfigError(variable, `names no host (got ${masked})`)
  if (url.port && (Number(url.port) < 1 || Number(url.port) > 65535)) throw new ConfigError(variable, `port out of range (got ${masked})`)
  if (url.pathname.length <= 1 || url.pathname.slice(1).includes('/')) throw new ConfigError(variable, `must name one database after the host, as in postgres://user:password@host:5432/openbell (got ${masked})`)
  return raw
}

/** The URL the service answers on locally: a wildcard bind is reached as localhost. */
export function listeningBaseUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return `http://${name}:${port}`
}
