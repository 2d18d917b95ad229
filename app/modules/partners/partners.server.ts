import { asc, eq, max } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { cachedContent } from '~/db/content-cache.server'
import { partners, type PartnerKind } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import type { MediaCollection } from '~/modules/media/limits'
import { publicPictures, requireUsablePhoto } from '~/modules/media/media.server'
import type { Picture } from '~/modules/media/picture'
import type { PartnerInput } from './schemas'

// The lab's partners and the venues it works at, with their logos, as staff list them for the home
// and about pages. Each change is one transaction with its audit entry; the database trigger then
// announces it, which clears every instance's page cache.

export class PartnerNotFoundError extends DomainError {
  constructor() {
    super('not_found', 'That partner or venue is no longer on the list.')
  }
}

/** Where each kind's logo comes from: a partner's logo, or a photo of the venue. */
export const LOGO_COLLECTION: Record<PartnerKind, MediaCollection> = { partner: 'partner', venue: 'venue' }

const KIND_NAMES: Record<PartnerKind, string> = { partner: 'partner', venue: 'venue' }

const columns = { id: partners.id, kind: partners.kind, name: partners.name, link: partners.link, logoId: partners.logoId, position: partners.position, shown: partners.shown }

/** Every partner and venue, hidden ones too, in the order the pages show them, read fresh. */
export async function partnersForStaff() {
  return db().select(columns).from(partners).orderBy(asc(partners.position), asc(partners.id))
}

async function lockedPartner(tx: Executor, id: number) {
  const [row] = await tx.select(columns).from(partners).where(eq(partners.id, id)).for('update')
  if (!row) throw new PartnerNotFoundError()
  return row
}

/** The logo, checked in the transaction that puts it on the pages: of the kind's collection, ready and described. */
const requireLogo = (tx: Executor, input: PartnerInput) => requireUsablePhoto(tx, input.logoId, LOGO_COLLECTION[input.kind], 'logoId')

/** Adds a partner or venue at the end of the list, shown. Returns its id. */
export async function addPartner(actor: Actor, input: PartnerInput, now = new Date()) {
  return db().transaction(async (tx) => {
    await requireLogo(tx, input)
    const [last] = await tx.select({ position: max(partners.position) }).from(partners)
    const [row] = await tx
      .insert(partners)
      .values({ kind: input.kind, name: input.name, link: input.link, logoId: input.logoId, position: (last?.position ?? 0) + 1, createdAt: now, updatedAt: now })
      .returning({ id: partners.id })
    await recordAudit(tx, actor, { action: 'partners.add', entityType: 'partner', entityId: row!.id, summary: `Added the ${KIND_NAMES[input.kind]} ${input.name}`, after: input }, now)
    return row!.id
  })
}

/** Changes a partner's or venue's details. Returns false when they were already so (nothing is written or logged). */
export async function updatePartner(actor: Actor, id: number, input: PartnerInput, now = new Date()) {
  return db().transaction(async (tx) => {
    const current = await lockedPartner(tx, id)
    const before = { kind: current.kind, name: current.name, link: current.link, logoId: current.logoId }
    const after = { kind: input.kind, name: input.name, link: input.link, logoId: input.logoId }
    if (JSON.stringify(before) === JSON.stringify(after)) return false
    await requireLogo(tx, input)
    await tx.update(partners).set({ ...after, updatedAt: now }).where(eq(partners.id, id))
    await recordAudit(tx, actor, { action: 'partners.update', entityType: 'partner', entityId: id, summary: `Changed the details of the ${KIND_NAMES[current.kind]} ${current.name}`, before, after }, now)
    return true
  })
}

/**
 * Moves a partner or venue one place up or down the list; at the top (or bottom) already, nothing
 * moves. The whole list is locked and numbered afresh, so places stay distinct whatever they were.
 */
export async function movePartner(actor: Actor, id: number, direction: 'up' | 'down', now = new Date()) {
  return db().transaction(async (tx) => {
    const list = await tx.select({ id: partners.id, name: partners.name, position: partners.position }).from(partners).orderBy(asc(partners.position), asc(partners.id)).for('update')
    const from = list.findIndex((row) => row.id === id)
    if (from < 0) throw new PartnerNotFoundError()
    const to = direction === 'up' ? from - 1 : from + 1
    if (to < 0 || to >= list.length) return false
    const moved = [...list]
    ;[moved[from], moved[to]] = [moved[to]!, moved[from]!]
    for (const [index, row] of moved.entries()) {
      if (row.position !== index + 1) await tx.update(partners).set({ position: index + 1, updatedAt: now }).where(eq(partners.id, row.id))
    }
    await recordAudit(tx, actor, { action: 'partners.move', entityType: 'partner', entityId: id, summary: `Moved ${list[from]!.name} ${direction} the list of partners and venues, to place ${to + 1}` }, now)
    return true
  })
}

/** Shows or hides a partner or venue on the pages, keeping its place. Returns false when it already was. */
export async function setPartnerShown(actor: Actor, id: number, shown: boolean, now = new Date()) {
  return db().transaction(async (tx) => {
    const current = await lockedPartner(tx, id)
    if (current.shown === shown) return false
    await tx.update(partners).set({ shown, updatedAt: now }).where(eq(partners.id, id))
    await recordAudit(tx, actor, { action: shown ? 'partners.show' : 'partners.hide', entityType: 'partner', entityId: id, summary: `${shown ? 'Showed' : 'Hid'} the ${KIND_NAMES[current.kind]} ${current.name}` }, now)
    return true
  })
}

/** Removes a partner or venue from the list; its logo stays in the media library. */
export async function deletePartner(actor: Actor, id: number, now = new Date()) {
  return db().transaction(async (tx) => {
    const current = await lockedPartner(tx, id)
    await tx.delete(partners).where(eq(partners.id, id))
    await recordAudit(tx, actor, { action: 'partners.delete', entityType: 'partner', entityId: id, summary: `Deleted the ${KIND_NAMES[current.kind]} ${current.name}`, before: current }, now)
    return current.name
  })
}

export type PublicPartner = { id: number; kind: PartnerKind; name: string; link: string | null; picture: Picture | null }

/**
 * The partners and venues the pages show, in order, each with its logo when the library can show
 * it (ready and described), its alt text the partner's name when the photo is marked decorative.
 * A logo is drawn without the blurred copy: it is small, and would show through a transparent one.
 */
export async function partnersForPages(): Promise<PublicPartner[]> {
  const [rows, pictures] = await Promise.all([
    cachedContent('partners', () => db().select(columns).from(partners).where(eq(partners.shown, true)).orderBy(asc(partners.position), asc(partners.id))),
    publicPictures(),
  ])
  return rows.map(({ id, kind, name, link, logoId }) => {
    const picture = (logoId && pictures.get(logoId)) || null
    return { id, kind, name, link, picture: picture && { ...picture, alt: picture.alt || name, placeholder: null } }
  })
}
