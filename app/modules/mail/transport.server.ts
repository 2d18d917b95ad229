import nodemailer from 'nodemailer'
import type { MailAttachment } from '~/db/schema'

export type OutgoingMail = { to: string; subject: string; text: string; html: string | null; attachments: MailAttachment[] }

/** Where the outbox delivers to: a real SMTP server, or the local mailbox (the outbox table itself). */
export type MailTransport = {
  kind: 'smtp' | 'local'
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

/** Nodemailer over SMTP_URL, with timeouts so a stalled server frees the worker for a retry. */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  // Settings in the URL's query (…?connectionTimeout=5000) win over these defaults.
  const transporter = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 },
    { from },
  )
  return {
    kind: 'smtp',
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
    kind: 'local',
    async send(mail) {
      print?.(mail)
    },
    close() {},
  }
}
