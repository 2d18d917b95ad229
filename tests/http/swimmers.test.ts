import { describe, expect, it } from 'vitest'
import { GUARDIAN_DECLARATION_MESSAGE, PARENT_EMAIL_MESSAGE } from '~/modules/swimmers/schemas'
import { NAME_MESSAGE } from '~/modules/forms/fields'
import { MINOR_HOLDER_MESSAGE } from '~/modules/swimmers/swimmers.server'
import { codeIn } from '../support/smtp-sink'
import { useTestSite } from '../support/site'
import { fieldState, registrationForm, swimmerForm, text, Visitor } from '../support/visitor'

// The family pages as a browser without JavaScript uses them: registering a child or oneself as a
// minor, and the account's swimmers at /swimmers (list, add, edit), against the real server.

const site = useTestSite()

const childRegistration = (overrides: Record<string, string> = {}) =>
  registrationForm({ whoSwims: 'child', name: 'Lakshmi Menon', email: 'lakshmi@example.com', swimmerName: 'Anu Menon', age: '12', guardianDeclaration: 'on', ...overrides })


async function verify(visitor: Visitor, email: string) {
  const mail = await site.sink.waitForMailTo(email, /verification code/)
  const verified = await visitor.post(`/verify-email?${new URLSearchParams({ email })}`, { email, code: codeIn(mail.text), website_url: '' })
  expect(verified.location).toBe('/book-slot')
}

const idsOf = (html: string) => [...html.matchAll(/href="\/swimmers\/(\d+)\/edit"/g)].map((match) => match[1]!)

describe('registering a child, without JavaScript', () => {
  it('shows every field, each with a hint saying when it applies, "Myself" chosen', async () => {
    const page = (await new Visitor(site.url).get('/registration')).html
    const shown = text(page)
    expect(shown).toContain('Who will swim?')
    expect(page).toMatch(/<input[^>]*value="myself"[^>]*checked|<input[^>]*checked[^>]*value="myself"/)
    for (const name of ['swimmerName', 'birthDate', 'parentEmail', 'guardianDeclaration']) expect(page).toContain(`name="${name}"`)
    expect(page).not.toMatch(/<input[^>]*name="guardianDeclaration"[^>]*checked/)
    expect(shown).toContain('Only when you register your child or a swimmer you look after.')
    expect(shown).toContain('Needed when you register your child or a swimmer you look after who is under 18.')
    expect(shown).toContain("Parent's or guardian's e-mail")
    expect(page).toContain('href="/privacy-policy"')
  })

  it('refuses a 12-year-old without the declaration, with the message next to the box, and creates nothing', async () => {
    const visitor = new Visitor(site.url)
    const refused = await visitor.post('/registration', childRegistration({ guardianDeclaration: '', email: 'refused.parent@example.com' }))
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'guardianDeclaration')).toEqual({ invalid: true, message: GUARDIAN_DECLARATION_MESSAGE })
    // The address was not taken: registering with the declaration works.
    expect((await visitor.post('/registration', childRegistration({ email: 'refused.parent@example.com' }))).status).toBe(302)
  })

  it("creates the parent's account, the child as its swimmer and the parent's consent", async () => {
    const parent = new Visitor(site.url)
    const refused = await parent.post('/registration', childRegistration({ swimmerName: '' }))
    expect(fieldState(refused.html, 'swimmerName')).toEqual({ invalid: true, message: "Swimmer's name must be at least 2 characters" })

    const registered = await parent.post('/registration', childRegistration())
    expect(registered.location).toBe('/verify-email?email=lakshmi%40example.com')
    await verify(parent, 'lakshmi@example.com')
    const swimmers = text((await parent.get('/swimmers')).html)
    expect(swimmers).toContain('Anu Menon')
    expect(swimmers).toContain('12 years')
    expect(swimmers).toContain("Parent's consent Given by Lakshmi Menon")
    // The parent registered their child only: they are not one of the swimmers.
    expect(swimmers).not.toContain('(you)')
    expect(swimmers).not.toContain('Waiting for your parent')
  })
})

describe('a swimmer under 18 registering themselves', () => {
  it("needs a parent's e-mail, which is asked for consent; until then they are told so and cannot add swimmers", async () => {
    const teen = new Visitor(site.url)
    const form = registrationForm({ name: 'Tara Singh', email: 'tara@example.com', age: '15' })
    const refused = await teen.post('/registration', form)
    expect(refused.status).toBe(400)
    expect(fieldState(refused.html, 'parentEmail')).toEqual({ invalid: true, message: PARENT_EMAIL_MESSAGE })

    expect((await teen.post('/registration', { ...form, parentEmail: 'harpreet.singh@example.com' })).status).toBe(302)
    // The parent is asked once the swimmer's own address is verified.
    await verify(teen, 'tara@example.com')
    await site.sink.waitForMailTo('harpreet.singh@example.com', /asks for your consent/)

    const page = (await teen.get('/swimmers')).html
    const shown = text(page)
    expect(shown).toContain("Waiting for your parent's or guardian's consent")
    expect(shown).toContain('we have e-mailed your parent or guardian at harpreet.singh@example.com')
    expect(shown).toContain('You cannot book a session until they agree')
    expect(shown).toContain('Tara Singh (you)')
    expect(shown).toContain('Waiting for harpreet.singh@example.com to agree')
    expect(shown).toContain(MINOR_HOLDER_MESSAGE)
    expect(page).not.toContain('href="/swimmers/new"')

    expect(text((await teen.get('/swimmers/new')).html)).toContain(MINOR_HOLDER_MESSAGE)
    const added = await teen.post('/swimmers/new', { ...swimmerForm(), guardianDeclaration: 'on' })
    expect(added.status).toBe(409)
    expect(text(added.html)).toContain(MINOR_HOLDER_MESSAGE)
    expect(idsOf((await teen.get('/swimmers')).html)).toHaveLength(1)
  })
})

describe('My Swimmers', () => {
  it('lists the account holder, adds a child with the declaration, and edits them, with messages next to the fields', async () => {
    const owner = await site.customer('Meera Pillai')
    const list = await owner.get('/swimmers')
    expect(list.status).toBe(200)
    expect(text(list.html)).toContain('Meera Pillai (you)')
    expect(text(list.html)).toContain("Parent's consent Not needed (18 or over)")
    expect(text(list.html)).toContain('Butterfly')
    expect(list.html).toContain('href="/swimmers/new"')
    expect(list.html).toMatch(/href="\/swimmers"[^>]*>My Swimmers</)

    const newPage = await owner.get('/swimmers/new')
    expect(newPage.status).toBe(200)
    expect(newPage.html).toMatch(/<form[^>]*method="post"/)
    expect(newPage.html).not.toMatch(/<input[^>]*name="guardianDeclaration"[^>]*checked/)

    const invalid = await owner.post('/swimmers/new', swimmerForm({ name: 'D', age: '', academyName: '', strokeBestTime: '1.05' }))
    expect(invalid.status).toBe(400)
    expect(fieldState(invalid.html, 'name')).toEqual({ invalid: true, message: "Swimmer's name must be at least 2 characters" })
    expect(fieldState(invalid.html, 'age')).toEqual({ invalid: true, message: 'Age is required' })
    expect(fieldState(invalid.html, 'academyName')).toEqual({ invalid: true, message: 'Academy name is required (Enter NA if not applicable)' })
    expect(fieldState(invalid.html, 'strokeBestTime')).toEqual({ invalid: true, message: 'Enter the time as mm:ss.ms, for example 01:05.32' })
    const future = await owner.post('/swimmers/new', swimmerForm({ age: '', birthDate: '2099-01-01' }))
    expect(fieldState(future.html, 'birthDate')).toEqual({ invalid: true, message: 'Please enter a date of birth in the past, as on a birth certificate' })

    const undeclared = await owner.post('/swimmers/new', swimmerForm())
    expect(undeclared.status).toBe(400)
    expect(fieldState(undeclared.html, 'guardianDeclaration')).toEqual({ invalid: true, message: GUARDIAN_DECLARATION_MESSAGE })
    expect(idsOf((await owner.get('/swimmers')).html)).toHaveLength(1)

    const added = await owner.post('/swimmers/new', swimmerForm({ guardianDeclaration: 'on' }))
    expect([added.status, added.location]).toEqual([302, '/swimmers'])
    const afterAdd = await owner.get('/swimmers')
    expect(text(afterAdd.html)).toContain('Dev Menon')
    expect(text(afterAdd.html)).toContain('Given by Meera Pillai')
    const [, childId] = idsOf(afterAdd.html)

    const edit = await owner.get(`/swimmers/${childId}/edit`)
    expect(edit.status).toBe(200)
    expect(edit.html).toMatch(/name="name"[^>]*value="Dev Menon"|value="Dev Menon"[^>]*name="name"/)
    // A parent's consent is in force: nothing more to declare.
    expect(edit.html).not.toContain('name="guardianDeclaration"')
    const badEdit = await owner.post(`/swimmers/${childId}/edit`, swimmerForm({ coachName: 'https://pay.example' }))
    expect(badEdit.status).toBe(400)
    expect(fieldState(badEdit.html, 'coachName')).toEqual({ invalid: true, message: NAME_MESSAGE })
    const saved = await owner.post(`/swimmers/${childId}/edit`, swimmerForm({ coachName: 'Suresh Kumar', age: '', birthDate: '2016-04-02', specialization: 'other', otherSpecialization: 'Open water' }))
    expect([saved.status, saved.location]).toEqual([302, '/swimmers'])
    const afterEdit = text((await owner.get('/swimmers')).html)
    expect(afterEdit).toContain('Suresh Kumar')
    expect(afterEdit).toContain('(born 2 April 2016)')
    expect(afterEdit).toContain('Other: Open water')

    // The holder's own profile takes no declaration, and cannot be made under 18 here.
    const [selfId] = idsOf(afterAdd.html)
    const ownEdit = await owner.get(`/swimmers/${selfId}/edit`)
    expect(ownEdit.html).not.toContain('name="guardianDeclaration"')
    const younger = await owner.post(`/swimmers/${selfId}/edit`, swimmerForm({ name: 'Meera Pillai', age: '16' }))
    expect(younger.status).toBe(400)
    expect(fieldState(younger.html, 'age').message).toMatch(/cannot be changed here to or from under 18/)
  })

  it("answers another account's swimmer, and ids that are none, with 404 to GET and POST, and changes nothing", async () => {
    const owner = await site.customer('Nisha Owner')
    const other = await site.customer('Omar Other')
    const [ownerSwimmer] = idsOf((await owner.get('/swimmers')).html)
    const before = text((await owner.get('/swimmers')).html)

    for (const path of [`/swimmers/${ownerSwimmer}/edit`, '/swimmers/abc/edit', '/swimmers/1e3/edit', '/swimmers/99999999999/edit', '/swimmers/0/edit']) {
      const page = await other.get(path)
      expect(page.status, path).toBe(404)
      expect(page.html, path).not.toContain('Nisha Owner')
      for (const form of [swimmerForm({ name: 'Taken Over', age: '30' }), swimmerForm({ name: 'X', age: '' })]) {
        const posted = await other.post(path, form)
        expect(posted.status, path).toBe(404)
        expect(posted.html, path).not.toContain('Nisha Owner')
      }
    }
    expect(text((await owner.get('/swimmers')).html)).toBe(before)
    expect(text((await other.get('/swimmers')).html)).not.toContain('Nisha Owner')
  })

  it('sends a signed-out visitor to sign in, and back', async () => {
    const guest = new Visitor(site.url)
    for (const path of ['/swimmers', '/swimmers/new', '/swimmers/1/edit']) {
      const page = await guest.get(path)
      expect([page.status, page.location], path).toEqual([302, `/login?${new URLSearchParams({ redirectTo: path })}`])
    }
    for (const path of ['/swimmers/new', '/swimmers/1/edit']) {
      const posted = await guest.post(path, swimmerForm({ guardianDeclaration: 'on' }))
      expect([posted.status, posted.location], path).toEqual([302, `/login?${new URLSearchParams({ redirectTo: path })}`])
    }
  })
})
