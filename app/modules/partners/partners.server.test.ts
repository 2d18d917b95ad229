import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog } from '~/db/schema'
import { ensureAdmin } from '~/modules/accounts/users.server'
import type { Actor } from '~/modules/audit/audit.server'
import { deleteMedia, libraryForStaff } from '~/modules/media/media.server'
import { diskMediaStore, useMediaFileStore } from '~/modules/media/store.server'
import { addPhoto } from '../../../tests/support/media'
import { useTestDatabase } from '../../../tests/support/test-database'
import { addPartner, deletePartner, movePartner, partnersForPages, partnersForStaff, setPartnerShown, updatePartner } from './partners.server'
import { PartnerSchema } from './schemas'

useTestDatabase()

let actor: Actor
beforeEach(async () => {
  const email = 'staff@lab.example'
  actor = { id: (await ensureAdmin({ email, password: 'staff-password-1' })).id, email }
})
beforeAll(() => useMediaFileStore(diskMediaStore(mkdtempSync(path.join(tmpdir(), 'partners-')))))
afterAll(() => useMediaFileStore(undefined))

const logo = (title: string, altText = `${title} logo`) => addPhoto(db(), 'partner', { title, altText, status: 'ready' }).then((row) => row.id)
const partner = (name: string, logoId: number, link: string | null = null) => ({ kind: 'partner' as const, name, link, logoId })
const names = async () => (await partnersForStaff()).map((row) => row.name)
const actions = async () => (await db().select({ action: auditLog.action, summary: auditLog.summary }).from(auditLog).orderBy(auditLog.id)).map((entry) => `${entry.action}: ${entry.summary}`)

describe('partners and venues', () => {
  it('adds each at the end of the list, shown, and audits it', async () => {
    await addPartner(actor, partner('Aquatic Club', await logo('Aquatic Club')))
    const venuePhoto = await addPhoto(db(), 'venue', { title: 'Basavanagudi pool', altText: 'The 50 m pool at Basavanagudi', status: 'ready' })
    await addPartner(actor, { kind: 'venue', name: 'Basavanagudi Aquatic Centre', link: 'https://pool.example.in', logoId: venuePhoto.id })
    expect(await partnersForStaff()).toMatchObject([
      { name: 'Aquatic Club', kind: 'partner', position: 1, shown: true, link: null },
      { name: 'Basavanagudi Aquatic Centre', kind: 'venue', position: 2, shown: true, link: 'https://pool.example.in' },
    ])
    expect(await actions()).toEqual(['partners.add: Added the partner Aquatic Club', 'partners.add: Added the venue Basavanagudi Aquatic Centre'])
  })

  it('refuses a logo that is not ready, not described, or of the other collection, next to the logo field', async () => {
    const processing = (await addPhoto(db(), 'partner', { title: 'Waiting', altText: 'A logo', status: 'processing' })).id
    const undescribed = await logo('Blank', '')
    const venue = (await addPhoto(db(), 'venue', { title: 'Pool', altText: 'The pool', status: 'ready' })).id
    await expect(addPartner(actor, partner('A', processing))).rejects.toMatchObject({ field: 'logoId', message: 'That photo is still being processed (or could not be): choose it once the library shows it ready.' })
    await expect(addPartner(actor, partner('B', undescribed))).rejects.toMatchObject({ field: 'logoId', message: 'That photo has no alt text yet. Describe it in the media library first.' })
    await expect(addPartner(actor, partner('C', venue))).rejects.toMatchObject({ field: 'logoId', message: 'Choose a partner logo from the media library.' })
    await expect(addPartner(actor, { kind: 'venue', name: 'D', link: null, logoId: await logo('Club') })).rejects.toMatchObject({ field: 'logoId', message: 'Choose a venue photo from the media library.' })
    expect(await partnersForStaff()).toEqual([])
    expect(await actions()).toEqual([])
  })

  it('edits the details, and writes nothing when nothing changed', async () => {
    const id = await addPartner(actor, partner('Aquatic Club', await logo('Aquatic Club')))
    const other = await logo('New Club')
    expect(await updatePartner(actor, id, partner('Aquatic Club Bengaluru', other, 'https://club.example.in'))).toBe(true)
    expect(await updatePartner(actor, id, partner('Aquatic Club Bengaluru', other, 'https://club.example.in'))).toBe(false)
    expect(await partnersForStaff()).toMatchObject([{ name: 'Aquatic Club Bengaluru', link: 'https://club.example.in', logoId: other }])
    expect((await actions()).slice(1)).toEqual(['partners.update: Changed the details of the partner Aquatic Club'])
    await expect(updatePartner(actor, 999, partner('X', other))).rejects.toMatchObject({ kind: 'not_found' })
  })

  it('moves one up or down a place; at either end nothing moves', async () => {
    const logoId = await logo('Club')
    const [a, b, c] = [await addPartner(actor, partner('A', logoId)), await addPartner(actor, partner('B', logoId)), await addPartner(actor, partner('C', logoId))]
    expect(await movePartner(actor, c!, 'up')).toBe(true)
    expect(await names()).toEqual(['A', 'C', 'B'])
    expect(await movePartner(actor, a!, 'down')).toBe(true)
    expect(await names()).toEqual(['C', 'A', 'B'])
    expect(await movePartner(actor, c!, 'up')).toBe(false)
    expect(await movePartner(actor, b!, 'down')).toBe(false)
    expect(await names()).toEqual(['C', 'A', 'B'])
    expect((await partnersForStaff()).map((row) => row.position)).toEqual([1, 2, 3])
    expect((await actions()).slice(3)).toEqual(['partners.move: Moved C up the list of partners and venues, to place 2', 'partners.move: Moved A down the list of partners and venues, to place 2'])
  })

  it('shows the pages only those shown, in order, with the logo’s alt text or else the name', async () => {
    const decorative = (await addPhoto(db(), 'partner', { title: 'Plain mark', altText: '', decorative: true, status: 'ready' })).id
    const a = await addPartner(actor, partner('Aquatic Club', await logo('Aquatic Club', 'Aquatic Club: a wave in a circle'), 'https://club.example.in'))
    await addPartner(actor, partner('Swim Federation', decorative))
    const hidden = await addPartner(actor, partner('Hidden Trust', await logo('Trust')))
    expect(await setPartnerShown(actor, hidden, false)).toBe(true)
    expect(await setPartnerShown(actor, hidden, false)).toBe(false)
    await movePartner(actor, a, 'down')
    const shown = await partnersForPages()
    expect(shown.map((row) => [row.name, row.link, row.picture?.alt])).toEqual([
      ['Swim Federation', null, 'Swim Federation'],
      ['Aquatic Club', 'https://club.example.in', 'Aquatic Club: a wave in a circle'],
    ])
    await setPartnerShown(actor, hidden, true)
    expect((await partnersForPages()).map((row) => row.name)).toEqual(['Swim Federation', 'Aquatic Club', 'Hidden Trust'])
  })

  it('deletes one, leaving its logo in the library; the library refuses to delete a logo in use', async () => {
    const logoId = await logo('Aquatic Club')
    const id = await addPartner(actor, partner('Aquatic Club', logoId))
    expect((await libraryForStaff()).find((item) => item.id === logoId)?.usedBy).toEqual(['the logo of Aquatic Club (partners and venues)'])
    await expect(deleteMedia(actor, logoId)).rejects.toMatchObject({ kind: 'conflict', message: '"Aquatic Club" is shown as the logo of Aquatic Club (partners and venues). Choose another there first.' })
    expect(await deletePartner(actor, id)).toBe('Aquatic Club')
    expect(await partnersForStaff()).toEqual([])
    await expect(deletePartner(actor, id)).rejects.toMatchObject({ kind: 'not_found' })
    await deleteMedia(actor, logoId)
    expect((await actions()).at(-2)).toBe('partners.delete: Deleted the partner Aquatic Club')
  })
})

describe('the partner form', () => {
  const errorsOf = (input: Record<string, string>) => Object.fromEntries((PartnerSchema.safeParse(input).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))

  it('takes an https address or none, and a logo from the list', () => {
    expect(PartnerSchema.parse({ kind: 'venue', name: ' Pool ', link: '', logoId: '7' })).toEqual({ kind: 'venue', name: 'Pool', link: null, logoId: 7 })
    for (const link of ['http://club.example.in', 'club.example.in', 'https://localhost', 'javascript:alert(1)', 'https://user:pw@club.example.in']) {
      expect(errorsOf({ kind: 'partner', name: 'Club', link, logoId: '7' })).toEqual({ link: 'Enter the full address of its site, starting with https://, or leave it empty' })
    }
    expect(errorsOf({ kind: 'club', name: '', logoId: '' })).toEqual({ kind: 'Choose whether it is a partner or a venue', name: 'Enter its name', logoId: 'Choose its logo from the list' })
  })
})
