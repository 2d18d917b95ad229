import type { OutgoingMail } from './transport.server'

const RULE = '─'.repeat(60)

/** A line of the text that is only a code (the verification and password reset e-mails set it apart so). */
const CODE_LINE = /^[ \t]*(\d{4,8})[ \t]*$/m

/**
 * An e-mail the local mailbox delivered, as a block a person reads in the terminal among the log
 * lines: who it is to, its subject, any code on a line of its own where the eye finds it, then the
 * text as the recipient would read it.
 */
export function mailboxBlock(mail: Pick<OutgoingMail, 'to' | 'subject' | 'text' | 'attachments'>): string {
  const code = CODE_LINE.exec(mail.text)?.[1]
  const attachments = mail.attachments.map((attachment) => attachment.filename)
  return [
    '',
    `──── E-mail (local mailbox) ${RULE.slice(28)}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    ...(code ? [`Code: ${code}`] : []),
    ...(attachments.length > 0 ? [`Attached: ${attachments.join(', ')}`] : []),
    '',
    mail.text.trimEnd(),
    RULE,
    '',
  ].join('\n')
}
