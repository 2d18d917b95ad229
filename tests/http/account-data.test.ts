import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { useTestSite } from '../support/site'
import { fieldState, text, Visitor } from '../support/visitor'

// /account/data: a person downloads, corrects and deletes their data, and nobody else can.

const site = useTestSite()

const codeIn = (mail: { text: string }) => /^\s+(\d{6})\r?$/m.exec(mail.text)?.[1]

describe('Your data', () => {
  it('downloads the signed-in account’s data as a ZIP that nothing keeps, and only its own', async () => {
    const asha = await site.customer('Asha Export', 'asha.export@example.com')
    const ravi = await site.customer('Ravi Other', 'ravi.other@example.com')
    const page = await asha.get('/account/data')
    expect(page.status).toBe(200)
    expect(text(page.html)).toContain('Download my data (ZIP)')

    const download = await asha.post('/account/data/export', {})
    expect(download.status).toBe(200)
    expect(download.headers.get('Content-Type')).toBe('application/zip')
    expect(download.headers.get('Cache-Control')).toBe('private, no-store')
    expect(download.headers.get('Content-Disposition')).toMatch(/^attachment; filename="swimming-lab-data-\d{4}-\d{2}-\d{2}\.zip"$/)
    const files = unzipSync(download.bytes)
    const data = JSON.parse(strFromU8(files['data.json']!))
    expect(data.account).toMatchObject({ name: 'Asha Export', email: 'asha.export@example.com' })
    expect(data.swimmers).toMatchObject([{ name: 'Asha Export', isAccountHolder: true }])
    expect(data.emails.map((mail: { subject: string }) => mail.subject).join(' ')).toContain('verification code')
    expect(data.sessions.length).toBeGreaterThan(0)
    expect(strFromU8(files['data.json']!)).not.toContain('ravi.other@example.com')

    const theirs = JSON.parse(strFromU8(unzipSync((await ravi.post('/account/data/export', {})).bytes)['data.json']!))
    expect(theirs.account.email).toBe('ravi.other@example.com')
    expect(JSON.stringify(theirs)).not.toContain('asha.export@example.com')

    // A visitor who is not signed in gets nothing but the way to sign in; a link to the export shows no data.
    const stranger = new Visitor(site.url)
    const refused = await stranger.post('/account/data/export', {})
    expect(refused.status).toBe(302)
    expect(refused.location).toBe(`/login?${new URLSearchParams({ redirectTo: '/account/data/export' })}`)
    expect((await asha.get('/account/data/export')).location).toBe('/account/data')
  })

  it('corrects the holder’s details, with a message next to a field that is wrong', async () => {
    const meera = await site.customer('Meera Correct', 'meera.correct@example.com')
    const wrong = await meera.post('/account/data', { intent: 'profile', name: 'M', phone: '12', currentLocation: 'Mysuru' })
    expect(wrong.status).toBe(400)
    expect(fieldState(wrong.html, 'name')).toEqual({ invalid: true, message: 'Name must be at least 2 characters' })
    expect(fieldState(wrong.html, 'phone')).toEqual({ invalid: true, message: 'WhatsApp number must be at least 10 digits' })
    expect(fieldState(wrong.html, 'currentLocation').invalid).toBe(false)
    const saved = await meera.post('/account/data', { intent: 'profile', name: 'Meera Iyer', phone: '+91 99000 11111', currentLocation: 'Mysuru' })
    expect(saved.location).toBe('/account/data#details')
    const page = (await meera.get('/account/data')).html
    expect(page).toContain('value="Meera Iyer"')
    expect(page).toContain('value="+91 99000 11111"')
    expect(page).toContain('value="Mysuru"')
    expect(text(page)).toContain('To change it, please write to us')
  })

  it('deletes the account: a wrong password is refused next to the field; the e-mailed code deletes it, signs the browser out and sends one last e-mail', async () => {
    const email = 'kiran.delete@example.com'
    const kiran = await site.customer('Kiran Delete', email)
    const plan = text((await kiran.get('/account/data/delete')).html)
    expect(plan).toContain('What will happen')
    expect(plan).toContain('There are none to cancel.')
    expect(plan).toContain('Everything else is erased')

    const wrong = await kiran.post('/account/data/delete', { intent: 'delete', password: 'not-my-password' })
    expect(wrong.status).toBe(400)
    expect(fieldState(wrong.html, 'password')).toEqual({ invalid: true, message: 'That password is not right. Please try again, or ask for a code by e-mail instead.' })
    expect((await kiran.get('/account/data')).status).toBe(200)

    const sent = await kiran.post('/account/data/delete', { intent: 'send-code' })
    expect(sent.status).toBe(200)
    expect(fieldState(sent.html, 'code').invalid).toBe(false)
    const code = codeIn(await site.sink.waitForMailTo(email, /delete your account/))!
    const wrongCode = await kiran.post('/account/data/delete', { intent: 'delete', code: String((Number(code) + 1) % 1_000_000).padStart(6, '0') })
    expect(wrongCode.status).toBe(400)
    expect(fieldState(wrongCode.html, 'code').message).toMatch(/^That code is not valid/)

    const deleted = await kiran.post('/account/data/delete', { intent: 'delete', code })
    expect(deleted.status).toBe(302)
    expect(deleted.location).toBe('/')
    expect(deleted.setCookies.some((cookie) => /swimlab_session=;.*Max-Age=0/i.test(cookie))).toBe(true)
    expect((await kiran.get('/account/data')).location).toBe(`/login?${new URLSearchParams({ redirectTo: '/account/data' })}`)
    const last = await site.sink.waitForMailTo(email, /has been deleted/)
    expect(last.text).toContain('This is the last e-mail we send you')
    // The account is gone: its password no longer signs anyone in.
    const again = await new Visitor(site.url).post('/login', { email, password: 'butterfly-2027', website_url: '' })
    expect(again.location).not.toBe('/book-slot')
  })

  it('deletes the account with the password; another account cannot delete or see a profile that is not theirs', async () => {
    const owner = await site.customer('Nila Owner', 'nila.owner@example.com')
    const other = await site.customer('Omar Other', 'omar.other@example.com')
    const swimmerId = /href="\/swimmers\/(\d+)\/edit"/.exec((await owner.get('/account/data')).html)![1]!
    expect((await other.get(`/account/data/delete?swimmer=${swimmerId}`)).status).toBe(404)
    const forged = await other.post(`/account/data/delete?swimmer=${swimmerId}`, { intent: 'delete', password: 'butterfly-2027' })
    expect(forged.status).toBe(404)
    expect(forged.html).not.toContain('Nila Owner')
    expect((await owner.get('/account/data')).status).toBe(200)

    const deleted = await owner.post('/account/data/delete', { intent: 'delete', password: 'butterfly-2027' })
    expect(deleted.location).toBe('/')
    expect((await owner.get('/account/data')).status).toBe(302)
    await site.sink.waitForMailTo('nila.owner@example.com', /has been deleted/)
    expect((await other.get('/account/data')).status).toBe(200)
  })
})
