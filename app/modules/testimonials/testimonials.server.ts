import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, desc, eq, isNull } from 'drizzle-orm'
import { config } from '~/config.server'
import { cachedContent } from '~/db/content-cache.server'
import { db, type Executor } from '~/db/client.server'
import { auditLog, testimonials, type TestimonialStatus } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { addDays, formatLabDateTime, labToday } from '~/lib/lab-time'
import { testimonialAgreementLink } from '~/lib/links'
import { isLinkKey, privateLinkUrl, TESTIMONIAL_WITHDRAWAL_LINK } from '~/lib/private-links.server'
import { PRODUCT_NAME } from '~/lib/seo'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { enqueueEmail } from '~/modules/mail/outbox.server'
import { letter } from '~/modules/mail/templates.server'
import { publicPictures, requireUsablePhoto } from '~/modules/media/media.server'
import type { Picture } from '~/modules/media/picture'
import { MAX_SENDS_PER_DAY, MAX_SHOWN, TESTIMONIAL_REQUEST_DAYS } from './limits'
import type { TestimonialFields } from './schemas'

type Row = typeof testimonials.$inferSelect

export class TestimonialNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'That testimonial is no longer there.')
  }
}

export class TooManySendsError extends DomainError {
  constructor() {
    super('rate_limited', `This request has already been e-mailed ${MAX_SENDS_PER_DAY} times today. You can send it again tomorrow (India time).`)
  }
}

/** The link's token is random; only its SHA-256 is stored, so the table cannot be used to answer. */
function tokenHashOf(token: string) {
  return createHash('sha256').update(token).digest('hex')
}

/** A token as the site makes them: 32 random bytes in base64url. Anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

/** Where a testimonial stands now: a request nobody answered in time has expired, whatever the row still says. */
export function statusOf(row: Pick<Row, 'status' | 'expiresAt'>, now: Date): TestimonialStatus {
  return row.status === 'waiting' && row.expiresAt <= now ? 'expired' : row.status
}

/**
 * Exactly what the person is shown and agrees to, as text: the words, name, role, photo (by its
 * description and its number in the library) and who agrees. Its SHA-256 is the version recorded.
 */
export function agreementText(row: Pick<Row, 'quote' | 'name' | 'role' | 'photoId' | 'aboutMinor'>, picture: Picture | null) {
  return [
    `Words: “${row.quote}”`,
    `Name: ${row.name}`,
    `Role: ${row.role}`,
    `Photo: ${picture && row.photoId ? `photo ${row.photoId} of the media library (${picture.alt || 'no description'})` : 'none'}`,
    `Agreed by: ${row.aboutMinor ? `the parent or guardian of ${row.name}, who is under 18` : row.name}`,
  ].join('\n')
}

export function textVersionOf(text: string) {
  return createHash('sha256').update(text).digest('hex')
}

/** How many requests this one makes today, refused beyond MAX_SENDS_PER_DAY. */
function sendsWithOneMore(row: Pick<Row, 'sentAt' | 'sendsThatDay'>, now: Date) {
  const sends = labToday(row.sentAt) === labToday(now) ? row.sendsThatDay + 1 : 1
  if (sends > MAX_SENDS_PER_DAY) throw new TooManySendsError()
  return sends
}

/** A new link: the columns that open it for TESTIMONIAL_REQUEST_DAYS, and the token for the e-mail. */
function newLink(now: Date) {
  const token = randomBytes(32).toString('base64url')
  return { token, columns: { status: 'waiting' as const, tokenHash: tokenHashOf(token), expiresAt: addDays(now, TESTIMONIAL_REQUEST_DAYS), sentAt: now } }
}

/** Asks the person (or their parent) in the caller's transaction, with the link to see it and answer. */
async function emailRequest(executor: Executor, row: Pick<Row, 'email' | 'name' | 'aboutMinor' | 'expiresAt'>, token: string, now: Date) {
  const minor = row.aboutMinor
  await enqueueEmail(
    letter({
      to: row.email,
      subject: minor ? `May we show ${row.name}'s words on the ${PRODUCT_NAME} website?` : `May we show your words on the ${PRODUCT_NAME} website?`,
      name: minor ? 'parent or guardian' : row.name,
      paragraphs: [
        minor
          ? `${row.name} told us about their time at ${PRODUCT_NAME}, the swimming analysis lab in Bangalore, and we would like to show their words on our website with their name and role. Because ${row.name} is under 18, we ask you, their parent or guardian.`
          : `You told us about your time at ${PRODUCT_NAME}, the swimming analysis lab in Bangalore, and we would like to show your words on our website with your name and role.`,
        `Nothing is shown unless you agree. The link below shows exactly what would appear. Please answer by ${formatLabDateTime(row.expiresAt)}.`,
      ],
      action: { label: 'See it and answer', url: `${config().SITE_URL}${testimonialAgreementLink(token)}` },
      closing: 'If you do not answer, nothing is shown. If you do not know us, you can ignore this e-mail.',
    }),
    {},
    executor,
    now,
  )
}

const fieldsOf = (input: TestimonialFields) => ({ quote: input.quote, name: input.name, role: input.role, photoId: input.photoId, email: input.email.toLowerCase(), aboutMinor: input.aboutMinor })

/** Staff ask for a testimonial: it is e-mailed to the person (or their parent) and shown once they agree. */
export async function askForTestimonial(actor: Actor, input: TestimonialFields, now = new Date()) {
  return db().transaction(async (tx) => {
    if (input.photoId !== null) await requireUsablePhoto(tx, input.photoId, 'portrait', 'photoId')
    const link = newLink(now)
    const [row] = await tx
      .insert(testimonials)
      .values({ ...fieldsOf(input), ...link.columns, sendsThatDay: 1, createdBy: actor.id, createdAt: now })
      .returning()
    await emailRequest(tx, row!, link.token, now)
    await recordAudit(tx, actor, { action: 'testimonial.ask', entityType: 'testimonial', entityId: row!.id, summary: `Asked for testimonial ${row!.id} to be agreed` }, now)
    return row!.id
  })
}

async function lockedRow(executor: Executor, id: number) {
  const [row] = await executor.select().from(testimonials).where(eq(testimonials.id, id)).for('update')
  if (!row) throw new TestimonialNotFoundError()
  return row
}

const sameAs = (row: Row, fields: ReturnType<typeof fieldsOf>) => (Object.keys(fields) as Array<keyof typeof fields>).every((key) => row[key] === fields[key])

/** No agreement, answer or withdrawal: what a new request starts from. */
const UNANSWERED = { agreedAt: null, agreedText: null, textVersion: null, declinedAt: null, withdrawnAt: null, withdrawnBy: null }

/**
 * Staff change a testimonial. Anything changed takes it off the site and asks again with a new link
 * (the old one stops working): the person agreed to what they saw, not to this.
 */
export async function editTestimonial(actor: Actor, id: number, input: TestimonialFields, now = new Date()): Promise<'unchanged' | 'asked'> {
  return db().transaction(async (tx) => {
    const row = await lockedRow(tx, id)
    const fields = fieldsOf(input)
    if (sameAs(row, fields)) return 'unchanged'
    if (fields.photoId !== null) await requireUsablePhoto(tx, fields.photoId, 'portrait', 'photoId')
    const sendsThatDay = sendsWithOneMore(row, now)
    const link = newLink(now)
    const [updated] = await tx
      .update(testimonials)
      .set({ ...fields, ...link.columns, ...UNANSWERED, sendsThatDay })
      .where(eq(testimonials.id, id))
      .returning()
    await emailRequest(tx, updated!, link.token, now)
    await recordAudit(tx, actor, { action: 'testimonial.edit', entityType: 'testimonial', entityId: id, summary: `Changed testimonial ${id} (was ${statusOf(row, now)}) and asked for it to be agreed again` }, now)
    return 'asked'
  })
}

/** Staff send a request nobody has answered again, with a new link (the old one stops working). */
export async function resendTestimonialRequest(actor: Actor, id: number, now = new Date()) {
  await db().transaction(async (tx) => {
    const row = await lockedRow(tx, id)
    if (row.status !== 'waiting' && row.status !== 'expired') throw new DomainError('conflict', 'This request has been answered or withdrawn, so nothing was sent. Change it to ask again.')
    const sendsThatDay = sendsWithOneMore(row, now)
    const link = newLink(now)
    const [updated] = await tx
      .update(testimonials)
      .set({ ...link.columns, sendsThatDay })
      .where(eq(testimonials.id, id))
      .returning()
    await emailRequest(tx, updated!, link.token, now)
    await recordAudit(tx, actor, { action: 'testimonial.resend', entityType: 'testimonial', entityId: id, summary: `Sent the request for testimonial ${id} again` }, now)
  })
}

/** Takes a testimonial off the site (or stops a request) at once; its link stops working. */
async function withdraw(executor: Executor, row: Row, by: 'person' | 'staff', now: Date) {
  if (row.status !== 'agreed' && row.status !== 'waiting') return false
  await executor.update(testimonials).set({ status: 'withdrawn', tokenHash: null, withdrawnAt: now, withdrawnBy: by }).where(eq(testimonials.id, row.id))
  return true
}

export async function withdrawTestimonialByStaff(actor: Actor, id: number, now = new Date()) {
  await db().transaction(async (tx) => {
    const row = await lockedRow(tx, id)
    if (!(await withdraw(tx, row, 'staff', now))) throw new DomainError('conflict', 'This testimonial is not shown or asked for, so there is nothing to withdraw.')
    await recordAudit(tx, actor, { action: 'testimonial.withdraw', entityType: 'testimonial', entityId: id, summary: `Withdrew testimonial ${id} (was ${row.status})` }, now)
  })
}

/**
 * Deletes a testimonial and what the audit log keeps of the person: the address they acted from
 * (their answers were recorded under it). What staff did is kept.
 */
export async function deleteTestimonial(actor: Actor, id: number, now = new Date()) {
  await db().transaction(async (tx) => {
    const row = await lockedRow(tx, id)
    await tx.delete(testimonials).where(eq(testimonials.id, id))
    await tx
      .update(auditLog)
      .set({ actorEmail: 'erased@invalid' })
      .where(and(eq(auditLog.entityType, 'testimonial'), eq(auditLog.entityId, String(id)), isNull(auditLog.actorId), eq(auditLog.actorEmail, row.email)))
    await recordAudit(tx, actor, { action: 'testimonial.delete', entityType: 'testimonial', entityId: id, summary: `Deleted testimonial ${id}` }, now)
  })
}

export type StaffTestimonial = Awaited<ReturnType<typeof testimonialsForStaff>>[number]

/** Every testimonial, newest first, with where it stands now. */
export async function testimonialsForStaff(now = new Date()) {
  const rows = await db().select().from(testimonials).orderBy(desc(testimonials.createdAt), desc(testimonials.id))
  return rows.map((row) => {
    const status = statusOf(row, now)
    const since = { waiting: row.sentAt, expired: row.expiresAt, agreed: row.agreedAt, declined: row.declinedAt, withdrawn: row.withdrawnAt }[status] ?? row.createdAt
    return { ...row, status, since }
  })
}

/** The request a token opens while it can still be answered, or null (unknown, answered, replaced or expired alike). */
async function openRowOfToken(executor: Executor, token: string, now: Date, { lock }: { lock: boolean }) {
  if (!TOKEN_SHAPE.test(token)) return null
  const hash = tokenHashOf(token)
  const query = executor.select().from(testimonials).where(eq(testimonials.tokenHash, hash))
  const [row] = lock ? await query.for('update') : await query
  // The index found the row by its hash; comparing again in constant time leaves no timing to learn from.
  if (!row?.tokenHash || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash))) return null
  return statusOf(row, now) === 'waiting' ? row : null
}

/** What the person's page shows for a link: exactly what the site would show, or null for a link that cannot be answered. */
export async function testimonialLinkView(token: string, now = new Date()) {
  const row = await openRowOfToken(db(), token, now, { lock: false })
  if (!row) return null
  const pictures = await publicPictures()
  return { quote: row.quote, name: row.name, role: row.role, picture: (row.photoId && pictures.get(row.photoId)) || null, aboutMinor: row.aboutMinor }
}

/**
 * The person's answer through the link, once: agreeing records the time and exactly what they were
 * shown (and its SHA-256), puts it on the site and e-mails them the private link to withdraw it;
 * declining records that. Null for a link that cannot be answered (unknown, used, replaced or expired).
 */
export async function answerTestimonialLink(token: string, agree: boolean, now = new Date()): Promise<{ outcome: 'agreed' | 'declined'; aboutMinor: boolean } | null> {
  // Read before the transaction: on PGlite's one connection a read outside it would wait for it.
  const pictures = await publicPictures()
  return db().transaction(async (tx) => {
    const row = await openRowOfToken(tx, token, now, { lock: true })
    if (!row) return null
    const person = { id: null, email: row.email }
    if (!agree) {
      await tx.update(testimonials).set({ status: 'declined', tokenHash: null, declinedAt: now }).where(eq(testimonials.id, row.id))
      await recordAudit(tx, person, { action: 'testimonial.decline', entityType: 'testimonial', entityId: row.id, summary: `Testimonial ${row.id} was declined through its link` }, now)
      return { outcome: 'declined' as const, aboutMinor: row.aboutMinor }
    }
    const agreedText = agreementText(row, (row.photoId && pictures.get(row.photoId)) || null)
    const textVersion = textVersionOf(agreedText)
    await tx.update(testimonials).set({ status: 'agreed', tokenHash: null, agreedAt: now, agreedText, textVersion }).where(eq(testimonials.id, row.id))
    await recordAudit(tx, person, { action: 'testimonial.agree', entityType: 'testimonial', entityId: row.id, summary: `Testimonial ${row.id} was agreed through its link`, after: { textVersion } }, now)
    // The person has no account: this e-mail is how they take it down again.
    await enqueueEmail(
      letter({
        to: row.email,
        subject: `Thank you: your answer to ${PRODUCT_NAME}`,
        name: row.aboutMinor ? 'parent or guardian' : row.name,
        paragraphs: [
          `Thank you: your agreement is recorded (${formatLabDateTime(now)}), and ${row.aboutMinor ? `${row.name}'s` : 'your'} words are now on our website, exactly as you saw them.`,
          'You can take them off the website at any time through the link below; it happens at once. Please keep this e-mail.',
        ],
        action: { label: 'Take it off the website', url: await privateLinkUrl(TESTIMONIAL_WITHDRAWAL_LINK, row.id, tx) },
      }),
      {},
      tx,
      now,
    )
    return { outcome: 'agreed' as const, aboutMinor: row.aboutMinor }
  })
}

/** A testimonial's id as a link carries it: digits only. */
const ID_SHAPE = /^\d{1,9}$/

async function rowOfWithdrawalLink(executor: Executor, id: string, key: string | null, { lock }: { lock: boolean }) {
  if (!ID_SHAPE.test(id) || !(await isLinkKey(TESTIMONIAL_WITHDRAWAL_LINK, id, key))) return null
  const query = executor.select().from(testimonials).where(eq(testimonials.id, Number(id)))
  const [row] = lock ? await query.for('update') : await query
  return row ?? null
}

/** What the withdrawal page shows, or null for a key that does not check out or a testimonial since deleted. */
export async function testimonialWithdrawalView(id: string, key: string | null) {
  const row = await rowOfWithdrawalLink(db(), id, key, { lock: false })
  if (!row) return null
  return { shown: row.status === 'agreed', name: row.name, aboutMinor: row.aboutMinor, agreedAt: row.agreedAt, withdrawnAt: row.withdrawnAt }
}

/** The person takes their testimonial off the site through the link in their confirmation. Null for a link that does not check out. */
export async function withdrawTestimonialByLink(id: string, key: string | null, now = new Date()): Promise<'withdrawn' | 'already' | null> {
  return db().transaction(async (tx) => {
    const row = await rowOfWithdrawalLink(tx, id, key, { lock: true })
    if (!row) return null
    if (!(await withdraw(tx, row, 'person', now))) return 'already'
    await recordAudit(tx, { id: null, email: row.email }, { action: 'testimonial.withdraw', entityType: 'testimonial', entityId: row.id, summary: `Testimonial ${row.id} was withdrawn through its link` }, now)
    return 'withdrawn'
  })
}

/** The testimonials on the public pages: agreed and not withdrawn, newest first, MAX_SHOWN at most, with their photo if it can be shown. */
export async function publicTestimonials() {
  const [rows, pictures] = await Promise.all([
    cachedContent('testimonials', () =>
      db()
        .select({ id: testimonials.id, quote: testimonials.quote, name: testimonials.name, role: testimonials.role, photoId: testimonials.photoId })
        .from(testimonials)
        .where(eq(testimonials.status, 'agreed'))
        .orderBy(desc(testimonials.agreedAt), desc(testimonials.id))
        .limit(MAX_SHOWN),
    ),
    publicPictures(),
  ])
  return rows.map(({ photoId, ...row }) => ({ ...row, picture: (photoId && pictures.get(photoId)) || null }))
}
