// A real SMTP server on loopback (smtp-server) that keeps what it receives, parsed by mailparser.
// Start one per test file; close it in afterAll.
import { SMTPServer } from 'smtp-server'
import { simpleParser } from 'mailparser'
import type { AddressInfo } from 'node:net'

export interface ReceivedMail {
  from: string
  to: string[]
  subject: string
  text: string
}

export interface TestSmtp {
  url: string
  port: number
  received: ReceivedMail[]
  /** When set, the next N deliveries are refused with a temporary error (451). */
  refuseNext: number
  /** Resolves once at least `count` messages have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>
  close(): Promise<void>
}

export const SMTP_USER = 'mailer'
export const SMTP_PASSWORD = 'test-password-1'

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = []
  const state = { refuseNext: 0 }
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) return callback(null, { user: auth.username })
      callback(new Error('invalid credentials'))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', async () => {
        if (state.refuseNext > 0) {
          state.refuseNext -= 1
          const error = Object.assign(new Error('try again later'), { responseCode: 451 })
          return callback(error)
        }
        const parsed = await simpleParser(Buffer.concat(chunks))
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    port,
    received,
    get refuseNext() {
      return state.refuseNext
    },
    set refuseNext(value: number) {
      state.refuseNext = value
    },
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} messages, got ${received.length}`)
        await Bun.sleep(10)
      }
      return received
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The API key in a received message. */
export function keyInMail(mail: ReceivedMail, prefix: string): string {
  const match = mail.text.match(new RegExp(`${prefix}[0-9a-f]{64}`))
  if (!match) throw new Error('no key in the message')
  return match[0]
}
