import { formatClockTime, formatLongDate, labDateParts } from '~/lib/format'
import { PRODUCT_NAME } from '~/lib/seo'
import type { NewEmail } from './outbox.server'

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** "3:45 PM IST on 8 August 2027": an instant as the lab's clock shows it. */
export function formatLabDateTime(at: Date) {
  const { date, time } = labDateParts(at)
  return `${formatClockTime(time)} IST on ${formatLongDate(date)}`
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
