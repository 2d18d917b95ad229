import nodemailer from 'nodemailer'
import type { MailAttachment } from '~/db/schema'
import type { DeliveryFailure, OutboxSender } from './outbox.server'

export type OutgoingMail = { to: string; subject: string; text: string; html: string | null; attachments: MailAttachment[] }

/** Where the outbox delivers e-mail to: a real SMTP server, or the local mailbox (the outbox table itself). */
export type MailTransport = OutboxSender & {
  channel: 'email'
  kind: 'smtp' | 'local'
  send(mail: OutgoingMail): Promise<void>
}

/**
 * A failure of the connection to the mail server (refused, timed out, cut, "421 service not
 * available") stops the round; anything else is this message's and is retried after its back-off.
 */
export function classifyMailError(error: unknown): DeliveryFailure {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown }
  return (typeof code === 'string' && MAIL_SERVER_DOWN_CODES.has(code)) || responseCode === 421 ? 'down' : 'retry'
}

/** Nodemailer's codes for a connection that could not be made or was lost (not EAUTH, EENVELOPE, EMESSAGE…). */
const MAIL_SERVER_DOWN_CODES = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS', 'ECONNREFUSED', 'ECONNRESET'])

/** Nodemailer over SMTP_URL, with timeouts so a stalled server frees the worker for a retry. */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  // Settings in the URL's query (…?connectionTimeout=5000) win over these defaults.
  const transporter = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 },
    { from },
  )
  return {
    channel: 'email',
    kind: 'smtp',
    classify: classifyMailError,
    async send(mail) {
      await transporter.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        attachments: mail.attachments.map((attachment) => ({
          filename: attachment.filename,
          contentType: attachment.contentType,
          content: Buffer.from(attachment.contentBase64, 'base64'),
        })),
      })
    },
    close: () => transporter.close(),
  }
}

/**
 * Without SMTP_URL, a message is "delivered" by staying in the outbox table, where admins read it
 * at /admin/messages; it is also printed to the log, so a newcomer sees their code in the terminal.
 */
export function localMailbox(print?: (mail: OutgoingMail) => void): MailTransport {
  return {
    channel: 'email',
    kind: 'local',
    classify: classifyMailError,
    async send(mail) {
      print?.(mail)
    },
    close() {},
  }
}
