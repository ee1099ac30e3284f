// Outbound SMTP through nodemailer. SMTP_URL unset = e-mail not configured (no transport).
import nodemailer from 'nodemailer'
import type { OutgoingMail } from './outbox'

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

export interface MailSettings {
  smtpUrl: string | null
  from: string | null
}

export function mailConfigured(settings: MailSettings): settings is { smtpUrl: string; from: string } {
  return settings.smtpUrl !== null && settings.from !== null
}

const TIMEOUT_MS = 15_000

export function smtpTransport(settings: { smtpUrl: string; from: string }): MailTransport {
  // The URL's own settings win; the timeouts apply where it sets none.
  const transporter = nodemailer.createTransport({ url: settings.smtpUrl, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS * 2 })
  return {
    async send(mail) {
      await transporter.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text })
    },
    close() {
      transporter.close()
    },
  }
}
