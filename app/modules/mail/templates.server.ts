import { formatLabDateTime } from '~/lib/lab-time'
import { PRODUCT_NAME } from '~/lib/seo'
import type { NewEmail } from './outbox.server'

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

type CodeMail = { to: string; name: string; code: string; link: string; expiresAt: Date }

function codeEmail({ to, name, code, link, expiresAt }: CodeMail, subject: string, intro: string, action: string, outro: string): NewEmail {
  const expiry = formatLabDateTime(expiresAt)
  const text = [
    `Hello ${name},`,
    '',
    intro,
    '',
    `    ${code}`,
    '',
    `The code is valid for 30 minutes (until ${expiry}).`,
    '',
    `Or ${action.toLowerCase()} with one click:`,
    link,
    '',
    outro,
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n')
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#0b1f33;max-width:36rem;margin:0 auto;padding:1rem">
<p>Hello ${escapeHtml(name)},</p>
<p>${escapeHtml(intro)}</p>
<p style="font-size:2rem;font-weight:700;letter-spacing:0.3em;margin:1.5rem 0">${escapeHtml(code)}</p>
<p>The code is valid for 30 minutes (until ${escapeHtml(expiry)}).</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#0b5f75;color:#fff;padding:0.75rem 1.25rem;border-radius:0.5rem;text-decoration:none;font-weight:600">${escapeHtml(action)}</a></p>
<p style="color:#475569">${escapeHtml(outro)}</p>
<p>— ${escapeHtml(PRODUCT_NAME)}</p>
</body></html>`
  return { to, subject, text, html }
}

export function verificationEmail(mail: CodeMail): NewEmail {
  return codeEmail(
    mail,
    `Your verification code for ${PRODUCT_NAME}`,
    `Welcome to ${PRODUCT_NAME}! Enter this code to verify your e-mail address:`,
    'Verify my e-mail address',
    'If you did not create an account, you can ignore this e-mail.',
  )
}

export function passwordResetEmail(mail: CodeMail): NewEmail {
  return codeEmail(
    mail,
    `Your password reset code for ${PRODUCT_NAME}`,
    'Someone (hopefully you) asked to reset the password of your account. Enter this code to choose a new password:',
    'Choose a new password',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  )
}

export type DetailRow = [label: string, value: string, link?: string]

type LetterParts = {
  to: string
  subject: string
  name: string
  paragraphs: string[]
  /** Label and value rows, such as the dates and time of a session; a row with a link (http or https) shows its value as that link. */
  details?: Array<DetailRow>
  /** A titled bullet list, such as what to bring. */
  list?: { title: string; items: readonly string[] }
  /** A button-style link. */
  action?: { label: string; url: string }
  closing?: string
  attachments?: NewEmail['attachments']
}

/** A row's value, as a link when it has one that is a web address. */
function detailValue(value: string, link: string | undefined) {
  return link && /^https?:\/\//i.test(link) ? `<a href="${escapeHtml(link)}">${escapeHtml(value)}</a>` : escapeHtml(value)
}

/** A plain, readable e-mail with the same content as text and as HTML. */
export function letter({ to, subject, name, paragraphs, details = [], list, action, closing, attachments }: LetterParts): NewEmail {
  const width = Math.max(0, ...details.map(([label]) => label.length))
  const text = [
    `Hello ${name},`,
    '',
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(details.length ? [...details.map(([label, value, link]) => `    ${`${label}:`.padEnd(width + 2)}${value}${link && link !== value ? ` (${link})` : ''}`), ''] : []),
    ...(list ? [list.title, ...list.items.map((item) => `  - ${item}`), ''] : []),
    ...(action ? [`${action.label}:`, action.url, ''] : []),
    ...(closing ? [closing, ''] : []),
    `— ${PRODUCT_NAME}`,
  ].join('\n')
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#0b1f33;max-width:36rem;margin:0 auto;padding:1rem">
<p>Hello ${escapeHtml(name)},</p>
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
${details.length ? `<table style="border-collapse:collapse;margin:1rem 0">${details.map(([label, value, link]) => `<tr><th scope="row" style="text-align:left;padding:0.25rem 1rem 0.25rem 0;color:#475569;font-weight:600">${escapeHtml(label)}</th><td style="padding:0.25rem 0">${detailValue(value, link)}</td></tr>`).join('')}</table>` : ''}
${list ? `<p style="font-weight:600;margin-bottom:0.25rem">${escapeHtml(list.title)}</p><ul>${list.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>` : ''}
${action ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#0b5f75;color:#fff;padding:0.75rem 1.25rem;border-radius:0.5rem;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>` : ''}
${closing ? `<p style="color:#475569">${escapeHtml(closing)}</p>` : ''}
<p>— ${escapeHtml(PRODUCT_NAME)}</p>
</body></html>`
  return { to, subject, text, html, attachments }
}
