import { and, desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, mediaItems, outboxMessages, testimonials } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addDays } from '~/lib/lab-time'
import { isLinkKey, TESTIMONIAL_WITHDRAWAL_LINK } from '~/lib/private-links.server'
import { deleteMedia } from '~/modules/media/media.server'
import { addPortrait } from '../../../tests/support/media'
import { useTestDatabase } from '../../../tests/support/test-database'
import { MAX_SENDS_PER_DAY } from './limits'
import type { TestimonialFields } from './schemas'
import {
  agreementText,
  answerTestimonialLink,
  askForTestimonial,
  deleteTestimonial,
  editTestimonial,
  publicTestimonials,
  resendTestimonialRequest,
  testimonialLinkView,
  testimonialsForStaff,
  testimonialWithdrawalView,
  textVersionOf,
  withdrawTestimonialByLink,
  withdrawTestimonialByStaff,
} from './testimonials.server'

useTestDatabase()

const actor = { id: null as unknown as number, email: 'staff@lab.test' }
const NOW = new Date('2027-03-10T06:00:00Z')
const later = (days: number) => addDays(NOW, days)

const ANITA: TestimonialFields = { quote: 'The underwater video showed us what no coach could see.', name: 'Anita Rao', role: 'parent of a 12-year-old', photoId: null, email: 'Anita.Rao@example.com', aboutMinor: false }

/** The token in the newest request e-mailed to `to`. */
async function tokenSentTo(to: string) {
  const [mail] = await db().select({ text: outboxMessages.text }).from(outboxMessages).where(eq(outboxMessages.to, to)).orderBy(desc(outboxMessages.id)).limit(1)
  const token = /\/testimonials\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1]
  if (!token) throw new Error(`no testimonial link in:\n${mail?.text}`)
  return token
}

const rowOf = async (id: number) => (await db().select().from(testimonials).where(eq(testimonials.id, id)))[0]!
const requestsTo = async (to: string) => (await db().select({ id: outboxMessages.id }).from(outboxMessages).where(and(eq(outboxMessages.to, to), eq(outboxMessages.subject, 'May we show your words on the Swimming Sport Science Lab website?')))).length
const shownQuotes = async () => (await publicTestimonials()).map((testimonial) => testimonial.quote)

async function askAndOpen(input: TestimonialFields = ANITA) {
  const id = await askForTestimonial(actor, input, NOW)
  return { id, token: await tokenSentTo(input.email.toLowerCase()) }
}

describe('asking for a testimonial', () => {
  it('e-mails the person a link whose token is not stored, and shows nothing yet', async () => {
    const { id, token } = await askAndOpen()
    const row = await rowOf(id)
    expect(row).toMatchObject({ status: 'waiting', email: 'anita.rao@example.com', agreedAt: null, sendsThatDay: 1 })
    expect(row.expiresAt).toEqual(later(14))
    expect(row.tokenHash).not.toContain(token)
    expect(JSON.stringify(await db().select().from(testimonials))).not.toContain(token)
    expect(await testimonialLinkView(token, NOW)).toEqual({ quote: ANITA.quote, name: 'Anita Rao', role: 'parent of a 12-year-old', picture: null, aboutMinor: false })
    expect(await shownQuotes()).toEqual([])
  })

  it("asks the parent of a speaker under 18, saying so", async () => {
    await askForTestimonial(actor, { ...ANITA, name: 'Kavya Menon', role: 'national-level swimmer', email: 'menon.parent@example.com', aboutMinor: true }, NOW)
    const [mail] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, 'menon.parent@example.com'))
    expect(mail!.subject).toBe("May we show Kavya Menon's words on the Swimming Sport Science Lab website?")
    expect(mail!.text).toContain('Hello parent or guardian,')
    expect(mail!.text).toContain('Because Kavya Menon is under 18, we ask you, their parent or guardian.')
  })

  it('refuses a photo that is not a usable portrait', async () => {
    const processing = await addPortrait(db(), { title: 'Still processing', altText: 'A swimmer', status: 'processing' })
    await expect(askForTestimonial(actor, { ...ANITA, photoId: processing.id }, NOW)).rejects.toMatchObject({ field: 'photoId' })
    expect(await db().select().from(testimonials)).toEqual([])
  })
})

describe('the answer through the link', () => {
  it('agreeing records the time and exactly what was shown with its hash, shows it, and e-mails a private link to withdraw', async () => {
    const photo = await addPortrait(db(), { title: 'Anita', altText: 'Anita Rao at the poolside', status: 'ready' })
    const { id, token } = await askAndOpen({ ...ANITA, photoId: photo.id })
    expect(await answerTestimonialLink(token, true, later(1))).toEqual({ outcome: 'agreed', aboutMinor: false })
    const row = await rowOf(id)
    expect(row.status).toBe('agreed')
    expect(row.agreedAt).toEqual(later(1))
    expect(row.agreedText).toBe(
      [
        `Words: “${ANITA.quote}”`,
        'Name: Anita Rao',
        'Role: parent of a 12-year-old',
        `Photo: photo ${photo.id} of the media library (Anita Rao at the poolside)`,
        'Agreed by: Anita Rao',
      ].join('\n'),
    )
    expect(row.textVersion).toBe(textVersionOf(row.agreedText!))
    expect(row.textVersion).toMatch(/^[0-9a-f]{64}$/)
    const [shown] = await publicTestimonials()
    expect(shown).toMatchObject({ quote: ANITA.quote, name: 'Anita Rao', role: 'parent of a 12-year-old' })
    expect(shown!.picture?.alt).toBe('Anita Rao at the poolside')

    const [confirmation] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, 'anita.rao@example.com')).orderBy(desc(outboxMessages.id)).limit(1)
    const link = /\/testimonials\/withdraw\/(\d+)\?key=([A-Za-z0-9_-]+)/.exec(confirmation!.text)
    expect(link?.[1]).toBe(String(id))
    expect(await isLinkKey(TESTIMONIAL_WITHDRAWAL_LINK, link![1]!, link![2])).toBe(true)
  })

  it("records a parent's agreement as theirs for a speaker under 18", async () => {
    const { id, token } = await askAndOpen({ ...ANITA, name: 'Kavya Menon', aboutMinor: true })
    await answerTestimonialLink(token, true, NOW)
    expect((await rowOf(id)).agreedText).toContain('Agreed by: the parent or guardian of Kavya Menon, who is under 18')
  })

  it('declining records it and shows nothing', async () => {
    const { id, token } = await askAndOpen()
    expect(await answerTestimonialLink(token, false, later(1))).toEqual({ outcome: 'declined', aboutMinor: false })
    expect(await rowOf(id)).toMatchObject({ status: 'declined', declinedAt: later(1), agreedAt: null, tokenHash: null })
    expect(await shownQuotes()).toEqual([])
  })

  it('answers once: a used link opens nothing and changes nothing', async () => {
    const { id, token } = await askAndOpen()
    await answerTestimonialLink(token, false, NOW)
    expect(await testimonialLinkView(token, NOW)).toBeNull()
    expect(await answerTestimonialLink(token, true, NOW)).toBeNull()
    expect((await rowOf(id)).status).toBe('declined')
  })

  it('an expired link opens nothing, cannot agree, and staff see the request expired', async () => {
    const { id, token } = await askAndOpen()
    expect(await testimonialLinkView(token, later(14))).toBeNull()
    expect(await answerTestimonialLink(token, true, later(14))).toBeNull()
    expect((await rowOf(id)).status).toBe('waiting')
    expect((await testimonialsForStaff(later(14)))[0]).toMatchObject({ id, status: 'expired', since: later(14) })
    expect(await shownQuotes()).toEqual([])
  })

  it('a token the site never made, or of another shape, opens nothing', async () => {
    await askAndOpen()
    expect(await testimonialLinkView('A'.repeat(43), NOW)).toBeNull()
    expect(await testimonialLinkView('short', NOW)).toBeNull()
    expect(await answerTestimonialLink('B'.repeat(43), true, NOW)).toBeNull()
  })
})

describe('editing', () => {
  it('after agreement takes it off the site and asks again with a new link; the old link is dead', async () => {
    const { id, token } = await askAndOpen()
    await answerTestimonialLink(token, true, NOW)
    expect(await editTestimonial(actor, id, { ...ANITA, quote: 'Three sessions changed my daughter’s turns.' }, later(1))).toBe('asked')
    expect(await rowOf(id)).toMatchObject({ status: 'waiting', agreedAt: null, agreedText: null, textVersion: null, quote: 'Three sessions changed my daughter’s turns.' })
    expect(await shownQuotes()).toEqual([])
    const fresh = await tokenSentTo('anita.rao@example.com')
    expect(fresh).not.toBe(token)
    expect(await answerTestimonialLink(token, true, later(1))).toBeNull()
    await answerTestimonialLink(fresh, true, later(1))
    expect(await shownQuotes()).toEqual(['Three sessions changed my daughter’s turns.'])
  })

  it('changes nothing and sends nothing when nothing changed', async () => {
    const { id, token } = await askAndOpen()
    await answerTestimonialLink(token, true, NOW)
    expect(await editTestimonial(actor, id, { ...ANITA, email: 'anita.rao@example.com' }, later(1))).toBe('unchanged')
    expect((await rowOf(id)).status).toBe('agreed')
    expect(await requestsTo('anita.rao@example.com')).toBe(1)
  })
})

describe('withdrawal', () => {
  it('by the person through the signed link takes it off the site at once; a wrong key opens nothing', async () => {
    const { id, token } = await askAndOpen()
    await answerTestimonialLink(token, true, NOW)
    const [confirmation] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, 'anita.rao@example.com')).orderBy(desc(outboxMessages.id)).limit(1)
    const key = /\?key=([A-Za-z0-9_-]+)/.exec(confirmation!.text)![1]!
    expect(await testimonialWithdrawalView(String(id), 'k'.repeat(32))).toBeNull()
    expect(await withdrawTestimonialByLink(String(id), 'k'.repeat(32), later(1))).toBeNull()
    expect(await testimonialWithdrawalView(String(id), key)).toMatchObject({ shown: true, name: 'Anita Rao' })
    expect(await withdrawTestimonialByLink(String(id), key, later(1))).toBe('withdrawn')
    expect(await rowOf(id)).toMatchObject({ status: 'withdrawn', withdrawnAt: later(1), withdrawnBy: 'person' })
    expect(await shownQuotes()).toEqual([])
    expect(await withdrawTestimonialByLink(String(id), key, later(2))).toBe('already')
  })

  it('by staff takes it off the site at once, and stops a request still waiting', async () => {
    const shown = await askAndOpen()
    await answerTestimonialLink(shown.token, true, NOW)
    await withdrawTestimonialByStaff(actor, shown.id, later(1))
    expect(await rowOf(shown.id)).toMatchObject({ status: 'withdrawn', withdrawnBy: 'staff' })
    expect(await shownQuotes()).toEqual([])

    const waiting = await askAndOpen({ ...ANITA, email: 'second@example.com' })
    await withdrawTestimonialByStaff(actor, waiting.id, later(1))
    expect(await answerTestimonialLink(waiting.token, true, later(1))).toBeNull()
    await expect(withdrawTestimonialByStaff(actor, waiting.id, later(1))).rejects.toBeInstanceOf(DomainError)
  })
})

describe('sending again', () => {
  it(`sends at most ${MAX_SENDS_PER_DAY} requests a day, each with a new link, and again the next day`, async () => {
    const { id, token } = await askAndOpen()
    await resendTestimonialRequest(actor, id, NOW)
    await resendTestimonialRequest(actor, id, NOW)
    await expect(resendTestimonialRequest(actor, id, NOW)).rejects.toThrow(`This request has already been e-mailed ${MAX_SENDS_PER_DAY} times today.`)
    await expect(editTestimonial(actor, id, { ...ANITA, role: 'parent of a swimmer' }, NOW)).rejects.toThrow('times today')
    expect(await requestsTo('anita.rao@example.com')).toBe(MAX_SENDS_PER_DAY)
    expect(await answerTestimonialLink(token, true, NOW)).toBeNull()
    await resendTestimonialRequest(actor, id, later(1))
    expect(await requestsTo('anita.rao@example.com')).toBe(MAX_SENDS_PER_DAY + 1)
    expect((await rowOf(id)).expiresAt).toEqual(later(15))
  })

  it('is refused once the person has answered', async () => {
    const { id, token } = await askAndOpen()
    await answerTestimonialLink(token, false, NOW)
    await expect(resendTestimonialRequest(actor, id, NOW)).rejects.toThrow('has been answered or withdrawn')
  })
})

describe('the public list', () => {
  it('shows the newest agreed first, six at most', async () => {
    for (let day = 0; day < 7; day++) {
      const { token } = await askAndOpen({ ...ANITA, quote: `Words of day ${day}`, email: `person${day}@example.com` })
      await answerTestimonialLink(token, true, later(day))
    }
    expect(await shownQuotes()).toEqual([6, 5, 4, 3, 2, 1].map((day) => `Words of day ${day}`))
  })
})

describe('deleting', () => {
  it("removes it and the person's address from the audit log, keeping what staff did", async () => {
    const { id, token } = await askAndOpen()
    await answerTestimonialLink(token, true, NOW)
    await deleteTestimonial(actor, id, later(1))
    expect(await db().select().from(testimonials)).toEqual([])
    const entries = await db().select({ action: auditLog.action, actorEmail: auditLog.actorEmail }).from(auditLog).where(eq(auditLog.entityType, 'testimonial'))
    expect(entries).toEqual(
      expect.arrayContaining([
        { action: 'testimonial.ask', actorEmail: 'staff@lab.test' },
        { action: 'testimonial.agree', actorEmail: 'erased@invalid' },
        { action: 'testimonial.delete', actorEmail: 'staff@lab.test' },
      ]),
    )
    expect(JSON.stringify(entries)).not.toContain('anita.rao@example.com')
  })
})

describe('the media library', () => {
  it('refuses to delete a portrait a testimonial uses, naming it', async () => {
    const photo = await addPortrait(db(), { title: 'Anita', altText: 'Anita Rao at the poolside', status: 'ready' })
    await askForTestimonial(actor, { ...ANITA, photoId: photo.id }, NOW)
    await expect(deleteMedia(actor, photo.id)).rejects.toThrow(`"Anita" is shown as the photo of Anita Rao's testimonial.`)
    expect(await db().select({ id: mediaItems.id }).from(mediaItems).where(eq(mediaItems.id, photo.id))).toHaveLength(1)
  })
})

describe('the agreed text', () => {
  it('says when there is no photo', () => {
    expect(agreementText({ ...ANITA, photoId: null }, null)).toContain('Photo: none')
  })
})
