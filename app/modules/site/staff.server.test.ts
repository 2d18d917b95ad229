import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, catalogueItems, siteSettings } from '~/db/schema'
import { SITE_SETTINGS_SEED } from '~/db/seed.server'
import { ensureAdmin } from '~/modules/accounts/users.server'
import type { Actor } from '~/modules/audit/audit.server'
import { useTestDatabase } from '../../../tests/support/test-database'
import { ContactSchema, FigureThresholdsSchema, PoliciesSchema } from './schemas'
import { getCatalogue, getSiteSettings, isBannerVisible, requireItem } from './site.server'
import {
  CatalogueItemNotFoundError,
  InvalidSettingError,
  setBanner,
  settingsForStaff,
  updateCataloguePrice,
  updateCoach,
  updateContactDetails,
  updateFigureThresholds,
  updateGstDetails,
  updatePolicies,
  updateTeamMember,
} from './staff.server'

useTestDatabase()

let actor: Actor
beforeEach(async () => {
  const email = 'staff@lab.example'
  actor = { id: (await ensureAdmin({ email, password: 'staff-password-1' })).id, email }
})

const entries = () =>
  db()
    .select({ actorId: auditLog.actorId, actorEmail: auditLog.actorEmail, action: auditLog.action, entityType: auditLog.entityType, entityId: auditLog.entityId, summary: auditLog.summary, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .orderBy(auditLog.id)

async function price(code: string) {
  const [row] = await db().select({ pricePaise: catalogueItems.pricePaise, regularPricePaise: catalogueItems.regularPricePaise }).from(catalogueItems).where(eq(catalogueItems.code, code))
  return row
}

describe('catalogue prices', () => {
  it('changes the price and the regular price, and logs both before and after', async () => {
    expect(await updateCataloguePrice(actor, { code: 'biomechanical_package', pricePaise: 28_000_00, regularPricePaise: 36_000_00 })).toBe(true)
    expect(requireItem(await getCatalogue(), 'biomechanical_package')).toMatchObject({ pricePaise: 28_000_00, regularPricePaise: 36_000_00 })
    expect(await entries()).toEqual([
      {
        actorId: actor.id,
        actorEmail: 'staff@lab.example',
        action: 'catalogue.price',
        entityType: 'catalogue_item',
        entityId: 'biomechanical_package',
        summary: 'Changed the price of 3-Day Biomechanical Analysis (Master the Mechanics) from ₹30,000.00 (regular ₹35,000.00) to ₹28,000.00 (regular ₹36,000.00)',
        before: { pricePaise: 30_000_00, regularPricePaise: 35_000_00 },
        after: { pricePaise: 28_000_00, regularPricePaise: 36_000_00 },
      },
    ])
  })

  it('logs only what changed, and nothing when nothing did', async () => {
    await updateCataloguePrice(actor, { code: 'biomechanical_package', pricePaise: 30_000_00, regularPricePaise: null })
    expect(await updateCataloguePrice(actor, { code: 'biomechanical_package', pricePaise: 30_000_00, regularPricePaise: null })).toBe(false)
    const logged = await entries()
    expect(logged.map((entry) => [entry.before, entry.after])).toEqual([[{ regularPricePaise: 35_000_00 }, { regularPricePaise: null }]])
    expect(await price('biomechanical_package')).toEqual({ pricePaise: 30_000_00, regularPricePaise: null })
  })

  it('refuses a regular price below the price, and changes nothing', async () => {
    await expect(updateCataloguePrice(actor, { code: 'biomechanical_package', pricePaise: 30_000_00, regularPricePaise: 29_999_99 })).rejects.toThrow(InvalidSettingError)
    await expect(updateCataloguePrice(actor, { code: 'biomechanical_package', pricePaise: 30_000_00, regularPricePaise: 29_999_99 })).rejects.toThrow('The regular price must be at least the price')
    expect(await updateCataloguePrice(actor, { code: 'race_analysis', pricePaise: 5_000_00, regularPricePaise: 5_000_00 })).toBe(true)
    expect(await price('biomechanical_package')).toEqual({ pricePaise: 30_000_00, regularPricePaise: 35_000_00 })
    expect((await entries()).map((entry) => entry.entityId)).toEqual(['race_analysis'])
  })

  it('refuses prices that are not whole paise from ₹1 up', async () => {
    for (const pricePaise of [0, 99, 3_499.5, -100, Number.NaN]) {
      await expect(updateCataloguePrice(actor, { code: 'single_race', pricePaise, regularPricePaise: null })).rejects.toThrow(InvalidSettingError)
    }
    await expect(updateCataloguePrice(actor, { code: 'single_race', pricePaise: 3_499_00, regularPricePaise: 0.5 })).rejects.toThrow(InvalidSettingError)
    expect(await price('single_race')).toEqual({ pricePaise: 3_499_00, regularPricePaise: null })
    expect(await entries()).toEqual([])
  })

  it('refuses an item that does not exist', async () => {
    await expect(updateCataloguePrice(actor, { code: 'no_such_item', pricePaise: 100_00, regularPricePaise: null })).rejects.toThrow(CatalogueItemNotFoundError)
    expect(await entries()).toEqual([])
  })

  it('is not changed when its audit entry cannot be written: both are one transaction', async () => {
    const stranger = { id: actor.id + 1000, email: 'nobody@lab.example' }
    await expect(updateCataloguePrice(stranger, { code: 'single_both', pricePaise: 6_499_00, regularPricePaise: null })).rejects.toThrow()
    expect(await price('single_both')).toEqual({ pricePaise: 5_999_00, regularPricePaise: null })
    expect(await entries()).toEqual([])
  })
})

describe('settings', () => {
  it('saves the policy texts; the entry names the fields that changed', async () => {
    await updatePolicies(actor, { reportDelivery: 'within 48 hours', refundPolicy: 'within 5 business days, to the original payment method', reanalysisMonths: 3 })
    expect((await getSiteSettings()).refundPolicy).toBe('within 5 business days, to the original payment method')
    const [entry] = await entries()
    expect(entry).toMatchObject({
      action: 'settings.policies',
      entityType: 'site_settings',
      entityId: '1',
      summary: 'Changed the policy texts: refund policy',
      before: { refundPolicy: SITE_SETTINGS_SEED.refundPolicy },
      after: { refundPolicy: 'within 5 business days, to the original payment method' },
    })
  })

  it('saves the months after which a swimmer is invited back, with the policy texts', async () => {
    expect((await settingsForStaff()).reanalysisMonths).toBe(3)
    await updatePolicies(actor, { reportDelivery: SITE_SETTINGS_SEED.reportDelivery, refundPolicy: SITE_SETTINGS_SEED.refundPolicy, reanalysisMonths: 6 })
    expect((await settingsForStaff()).reanalysisMonths).toBe(6)
    const [entry] = await entries()
    expect(entry).toMatchObject({ summary: 'Changed the policy texts: months before inviting the swimmer back', before: { reanalysisMonths: 3 }, after: { reanalysisMonths: 6 } })
    expect(PoliciesSchema.safeParse({ reportDelivery: 'within 48 hours', refundPolicy: 'x', reanalysisMonths: '25' }).error?.issues[0]?.message).toBe('Enter a number of months from 1 to 24')
    expect(PoliciesSchema.safeParse({ reportDelivery: 'within 48 hours', refundPolicy: 'x', reanalysisMonths: 'six' }).error?.issues[0]?.message).toBe('Enter a whole number of months from 1 to 24')
  })

  it('saves the contact details, with the social links together', async () => {
    const input = ContactSchema.parse({
      sessionLocation: 'PDCSE, Bangalore',
      venueName: 'PDCSE (sports excellence centre)',
      postalAddress: SITE_SETTINGS_SEED.postalAddress,
      phone: '+91 80 4123 4567',
      phoneHours: 'Monday-Friday 9:00 AM-6:00 PM IST',
      supportEmail: 'support@lab.example',
      infoEmail: SITE_SETTINGS_SEED.infoEmail,
      instagram: 'https://instagram.com/swimlab',
    })
    await updateContactDetails(actor, input)
    const settings = await getSiteSettings()
    expect(settings).toMatchObject({ phone: '+91 80 4123 4567', supportEmail: 'support@lab.example', postalAddress: SITE_SETTINGS_SEED.postalAddress })
    expect(settings.socialLinks).toEqual({ linkedin: '', instagram: 'https://instagram.com/swimlab', twitter: '' })
    const [entry] = await entries()
    expect(entry?.summary).toBe('Changed the contact details: phone, support e-mail, social links')
    expect(entry?.before).toEqual({ phone: SITE_SETTINGS_SEED.phone, supportEmail: SITE_SETTINGS_SEED.supportEmail, socialLinks: { linkedin: '', instagram: '', twitter: '' } })
  })

  it('stores the GST rate in basis points with the GSTIN, and refuses a malformed GSTIN', async () => {
    await updateGstDetails(actor, { legalName: 'Swim Science LLP', gstin: '29ABCDE1234F1Z5', gstRate: 1250 })
    expect(await settingsForStaff()).toMatchObject({ legalName: 'Swim Science LLP', gstin: '29ABCDE1234F1Z5', gstRateBasisPoints: 1250 })
    expect((await entries())[0]).toMatchObject({ before: { gstin: '', gstRateBasisPoints: 1800 }, after: { gstin: '29ABCDE1234F1Z5', gstRateBasisPoints: 1250 } })

    await expect(updateGstDetails(actor, { legalName: 'Swim Science LLP', gstin: '29ABCDE1234', gstRate: 1800 })).rejects.toThrow(InvalidSettingError)
    await expect(updateGstDetails(actor, { legalName: 'Swim Science LLP', gstin: '', gstRate: 18.5 })).rejects.toThrow(InvalidSettingError)
    await expect(updateGstDetails(actor, { legalName: 'Swim Science LLP', gstin: '', gstRate: 10_001 })).rejects.toThrow(InvalidSettingError)
    expect(await settingsForStaff()).toMatchObject({ gstin: '29ABCDE1234F1Z5', gstRateBasisPoints: 1250 })
    expect(await entries()).toHaveLength(1)
  })

  it('clears the placeholder mark of the coach once their details are edited, not before', async () => {
    await updateCoach(actor, { name: SITE_SETTINGS_SEED.coach.name, credentials: SITE_SETTINGS_SEED.coach.credentials, photoId: null })
    expect((await settingsForStaff()).coach.placeholder).toBe(true)
    expect(await entries()).toEqual([])

    await updateCoach(actor, { name: 'Coach Example', credentials: 'Olympic finalist', photoId: null })
    expect((await getSiteSettings()).coach).toEqual({ name: 'Coach Example', credentials: 'Olympic finalist', placeholder: false })
    expect((await entries())[0]).toMatchObject({ action: 'settings.coach', before: { coach: SITE_SETTINGS_SEED.coach }, after: { coach: { name: 'Coach Example', credentials: 'Olympic finalist', placeholder: false } } })
  })

  it('clears the placeholder mark of the one team member edited, and keeps the team whole', async () => {
    await updateTeamMember(actor, { index: 1, name: 'Dr Meera Iyer', role: 'Sports scientist', bio: 'Biomechanics PhD.', photoId: null })
    const { team } = await getSiteSettings()
    expect(team).toHaveLength(4)
    expect(team.map((member) => member.placeholder)).toEqual([true, false, true, true])
    expect(team[1]).toEqual({ name: 'Dr Meera Iyer', role: 'Sports scientist', bio: 'Biomechanics PhD.', placeholder: false })
    expect(team[0]).toEqual(SITE_SETTINGS_SEED.team[0])
    expect((await entries())[0]?.summary).toBe('Changed the details of team member 2')

    await expect(updateTeamMember(actor, { index: 4, name: 'Fifth', role: 'Role', bio: 'Bio', photoId: null })).rejects.toThrow(InvalidSettingError)
    expect((await getSiteSettings()).team).toHaveLength(4)
  })

  it('turns the banner off and on, logging each switch once', async () => {
    expect(await setBanner(actor, false)).toBe(true)
    expect(await isBannerVisible()).toBe(false)
    expect(await setBanner(actor, false)).toBe(false)
    expect(await setBanner(actor, true)).toBe(true)
    expect(await isBannerVisible()).toBe(true)
    expect((await entries()).map((entry) => [entry.summary, entry.before, entry.after])).toEqual([
      ['Hid the camp banner', { bannerVisible: true }, { bannerVisible: false }],
      ['Showed the camp banner', { bannerVisible: false }, { bannerVisible: true }],
    ])
  })

  it('leaves the row as it was when the audit entry fails', async () => {
    await expect(setBanner({ id: actor.id + 1000, email: 'nobody@lab.example' }, false)).rejects.toThrow()
    const [row] = await db().select({ bannerVisible: siteSettings.bannerVisible }).from(siteSettings)
    expect(row?.bannerVisible).toBe(true)
  })
})

describe('the thresholds of the numbers on the site', () => {
  it('sets each threshold and logs exactly what changed', async () => {
    expect(await settingsForStaff()).toMatchObject({ swimmersAnalysedThreshold: 50, analysesDeliveredThreshold: 50, campsRunThreshold: 3 })
    expect(await updateFigureThresholds(actor, { swimmersAnalysedThreshold: 100, analysesDeliveredThreshold: 50, campsRunThreshold: 0 })).toBe(true)
    expect(await updateFigureThresholds(actor, { swimmersAnalysedThreshold: 100, analysesDeliveredThreshold: 50, campsRunThreshold: 0 })).toBe(false)
    expect(await getSiteSettings()).toMatchObject({ swimmersAnalysedThreshold: 100, analysesDeliveredThreshold: 50, campsRunThreshold: 0 })
    expect(await entries()).toMatchObject([
      {
        action: 'settings.figures',
        summary: 'Changed when the site shows its numbers: swimmers analysed, camps run',
        before: { swimmersAnalysedThreshold: 50, campsRunThreshold: 3 },
        after: { swimmersAnalysedThreshold: 100, campsRunThreshold: 0 },
      },
    ])
  })

  it('refuses a threshold that is not a whole number from 0 to 10,00,000, and changes nothing', async () => {
    for (const threshold of [-1, 2.5, 10_00_001, Number.NaN]) {
      await expect(updateFigureThresholds(actor, { swimmersAnalysedThreshold: 10, analysesDeliveredThreshold: threshold, campsRunThreshold: 3 })).rejects.toThrow('A threshold must be a whole number from 0 to 10,00,000')
    }
    expect(await entries()).toEqual([])
  })

  it('has the form say what to enter next to the field', () => {
    const errorsOf = (input: Record<string, string | undefined>) => Object.fromEntries((FigureThresholdsSchema.safeParse({ swimmersAnalysedThreshold: '50', analysesDeliveredThreshold: '50', campsRunThreshold: '3', ...input }).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))
    expect(FigureThresholdsSchema.parse({ swimmersAnalysedThreshold: ' 120 ', analysesDeliveredThreshold: '0', campsRunThreshold: '3' })).toEqual({ swimmersAnalysedThreshold: 120, analysesDeliveredThreshold: 0, campsRunThreshold: 3 })
    expect(errorsOf({ swimmersAnalysedThreshold: '-5' })).toEqual({ swimmersAnalysedThreshold: 'Enter a whole number, or 0 to never show this number' })
    expect(errorsOf({ analysesDeliveredThreshold: '1.5' })).toEqual({ analysesDeliveredThreshold: 'Enter a whole number, or 0 to never show this number' })
    expect(errorsOf({ campsRunThreshold: '' })).toEqual({ campsRunThreshold: 'Enter a whole number, or 0 to never show this number' })
    expect(errorsOf({ campsRunThreshold: undefined })).toEqual({ campsRunThreshold: 'Enter a whole number, or 0 to never show this number' })
    expect(errorsOf({ campsRunThreshold: '2000000' })).toEqual({ campsRunThreshold: 'Enter a number from 0 to 10,00,000' })
  })
})
