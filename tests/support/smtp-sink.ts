import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = { from: string; to: string[]; raw: string; text: string }

/** A real SMTP server on a free local port that keeps every message it receives. */
export async function startSmtpSink(options: { rejectWith?: string } = {}) {
  const messages: ReceivedMail[] = []
  const waiters: Array<() => void> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (options.rejectWith) return callback(Object.assign(new Error(options.rejectWith), { responseCode: 451 }))
        const raw = Buffer.concat(chunks).toString('utf8')
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          text: decodeQuotedPrintable(raw),
        })
        for (const wake of waiters.splice(0)) wake()
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Waits until a message to `to` (whose raw text matches `match`) has arrived; returns the newest. */
    async waitForMailTo(to: string, match: RegExp = /./, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = messages.filter((message) => message.to.includes(to) && match.test(message.raw)).at(-1)
        if (found) return found
        if (Date.now() > deadline) throw new Error(`No e-mail to ${to} arrived within ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 200)
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Enough of quoted-printable for reading text bodies in tests (encoded bytes are UTF-8). */
function decodeQuotedPrintable(raw: string) {
  const joined = raw.replace(/=\r?\n/g, '')
  return joined.replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replaceAll('=', ''), 'hex').toString('utf8'))
}

/** The six-digit code on its own line in a message we sent. */
export function codeIn(text: string) {
  const code = /^\s+(\d{6})\r?$/m.exec(text)?.[1]
  if (!code) throw new Error(`No code found in:\n${text}`)
  return code
}

/** A file attached to an e-mail as it reached the mail server, by its file name (base64, as mail clients send it). */
export function attachedFile(mail: ReceivedMail, filename: RegExp, contentType = /application\/pdf/i) {
  const parts = mail.raw.split(/\r?\n--[^\r\n]+\r?\n/)
  const part = parts.find((candidate) => filename.test(candidate.split(/\r?\n\r?\n/)[0]!))
  if (!part) throw new Error(`no attachment named ${filename} in the e-mail`)
  const [headers, ...body] = part.split(/\r?\n\r?\n/)
  if (!contentType.test(headers!) || !/Content-Transfer-Encoding: base64/i.test(headers!)) throw new Error(`the attachment is not base64 ${contentType}: ${headers}`)
  return Buffer.from(body.join('').replace(/--[\s\S]*$/, '').replace(/\s+/g, ''), 'base64')
}
