// What each self-service key offers, and the texts that go with it (answers and e-mails); the
// plans sold here are in catalogue/pricing.ts (`plansOffer`).
// Figures of spec 8; the free daily limit is left open by the spec (500 here, see docs/accounts.md).
import type { Config } from '../config'
import { canUpgrade, capabilities } from '../catalogue/capabilities'
import { SANDBOX_CALLS } from '../catalogue/limits'

// The sandbox allowance is enforced by metering (catalogue/limits.ts); the offers quote the same figures.
export { SANDBOX_CALLS, SANDBOX_DAYS } from '../catalogue/limits'
export const INSTANT_PER_ADDRESS_PER_DAY = 10
export const EMAIL_KEYS_PER_ADDRESS = 3
export const EMAIL_KEY_WINDOW_HOURS = 24
export const SANDBOX_PER_WINDOW = 1
export const USE_CASE_MAX = 500
export const AGENT_ID_MAX = 256

/** Where a key holder goes to upgrade: the pricing page (served at /pricing unless WITNESS_PRICING_URL names another). */
export function upgradeUrl(config: Config): string {
  return config.witness.pricingUrl
}

/** "Upgrade: <url>" where something can be bought here, else nothing. */
export function upgradeLine(config: Config, prefix = ''): string {
  return canUpgrade(capabilities(config)) ? `${prefix}Upgrade: ${upgradeUrl(config)}` : ''
}

/** How the owner of an agent_id whose key is lost gets going again, with what this installation offers. */
export function lostKeyOptions(config: Config): { way: string; request: string; note: string }[] {
  const base = config.publicBaseUrl
  const options = [{ way: 'new_instant_key', request: `POST ${base}/v5/keys/instant {"agent_id": "<another agent_id>"}`, note: `a new free key under another agent_id (answers count against ${INSTANT_PER_ADDRESS_PER_DAY} per client address per UTC day)` }]
  if (capabilities(config).emailKeys) options.push({ way: 'email_key', request: `POST ${base}/v5/keys/request {"email": "<your address>"}`, note: 'a new free key sent to your e-mail address' })
  return options
}

export function curlExample(config: Config, key: string): string {
  return `curl -H 'X-Oracle-Key: ${key}' '${config.publicBaseUrl}/v5/status?mic=XNYS'`
}

export function quickstart(config: Config, key: string) {
  const url = `${config.publicBaseUrl}/v5/status?mic=XNYS`
  return {
    curl: curlExample(config, key),
    javascript: `const res = await fetch('${url}', { headers: { 'X-Oracle-Key': '${key}' } })\nconsole.log(await res.json())`,
    python: `import requests\nprint(requests.get('${url}', headers={'X-Oracle-Key': '${key}'}).json())`,
  }
}

const signature = (config: Config) => `\n\n-- \n${config.issuer} (${config.publicBaseUrl})\nThis e-mail was requested from ${config.publicBaseUrl}. If it was not you, ignore it.`

export function freeKeyMail(config: Config, key: string) {
  return {
    subject: `Your ${config.issuer} API key`,
    text:
      `Your free API key:\n\n  ${key}\n\nIt allows ${config.metering.freeDailyLimit} requests per UTC day. Send it in the X-Oracle-Key header:\n\n  ${curlExample(config, key)}\n\n` +
      `This is the only copy: the service stores a hash of the key, not the key.${upgradeLine(config, ' ')}` +
      signature(config),
  }
}

export function sandboxKeyMail(config: Config, key: string, expiresAt: string) {
  return {
    subject: `Your ${config.issuer} sandbox key`,
    text:
      `Your sandbox key:\n\n  ${key}\n\nIt allows ${SANDBOX_CALLS} calls in all and expires at ${expiresAt}, whichever comes first.\n\n  ${curlExample(config, key)}` +
      upgradeLine(config, '\n\n') +
      signature(config),
  }
}

export function boughtKeyMail(config: Config, key: string, product: string) {
  return {
    subject: `Your ${config.issuer} ${product} key`,
    text: `Thank you for your purchase (${product}). Your API key:\n\n  ${key}\n\nSend it in the X-Oracle-Key header:\n\n  ${curlExample(config, key)}\n\nThis is the only copy: the service stores a hash of the key, not the key.` + signature(config),
  }
}
