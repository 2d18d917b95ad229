import { describe, expect, it } from 'vitest'
import { mailboxBlock } from './mailbox-block'
import { verificationEmail } from './templates.server'

describe('an e-mail printed by the local mailbox', () => {
  it('says who it is to and its subject, puts the code on a line of its own, then the text', () => {
    const mail = verificationEmail({ to: 'asha@example.com', name: 'Asha Rao', code: '482913', link: 'http://localhost:3000/verify-email?email=asha%40example.com', expiresAt: new Date('2026-11-28T06:30:00Z') })
    const lines = mailboxBlock({ ...mail, attachments: [] }).split('\n')
    const top = lines.findIndex((line) => line.includes('E-mail (local mailbox)'))
    expect(lines.slice(top + 1, top + 4)).toEqual(['To: asha@example.com', 'Subject: Your verification code for Swimming Sport Science Lab', 'Code: 482913'])
    expect(lines).toContain('Hello Asha Rao,')
    expect(lines).toContain('http://localhost:3000/verify-email?email=asha%40example.com')
    expect(lines.at(-2)).toMatch(/^─+$/)
  })

  it('has no code line for an e-mail without one, and names its attachments', () => {
    const block = mailboxBlock({
      to: 'asha@example.com',
      subject: 'Your receipt SWP-0000012345',
      text: 'Hello Asha,\n\nYour booking of 12 March 2027 is confirmed. Receipt attached.\n',
      attachments: [{ filename: 'receipt-SWP-0000012345.pdf', contentType: 'application/pdf', contentBase64: '' }],
    })
    expect(block).not.toMatch(/^Code:/m)
    expect(block).toMatch(/^Attached: receipt-SWP-0000012345\.pdf$/m)
    expect(block).toContain('Your booking of 12 March 2027 is confirmed. Receipt attached.')
  })
})
