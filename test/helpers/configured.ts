// An installation with every way to pay configured (issue 24 item 17 tests): x402 per request and
// on-chain transfers, card checkout for every product (API key, price ids, webhook secret) and
// e-mail. Every URL is a loopback port nothing listens on: no test reaches out with these.
export const FULLY_CONFIGURED: Record<string, string> = {
  X402_PAY_TO: '0x' + '7'.repeat(40),
  CHAIN_RPC_URL: 'http://127.0.0.1:9/rpc',
  X402_FACILITATOR_URL: 'http://127.0.0.1:9/facilitator',
  PADDLE_API_KEY: 'pdl_test_configured_0123456789',
  PADDLE_API_URL: 'http://127.0.0.1:9',
  PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_configured_secret',
  PADDLE_PRICE_BUILDER: 'pri_01builder',
  PADDLE_PRICE_PRO: 'pri_01pro',
  PADDLE_PRICE_CREDITS: 'pri_01credits',
  PADDLE_PRICE_CUSTODY_90D: 'pri_01custody90',
  PADDLE_PRICE_CUSTODY_1Y: 'pri_01custody1y',
  SMTP_URL: 'smtp://127.0.0.1:9',
  MAIL_FROM: 'keys@oracle.test',
}
