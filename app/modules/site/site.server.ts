import { asc, eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { cachedContent } from '~/db/content-cache.server'
import { campBatches, camps, catalogueItems, siteSettings } from '~/db/schema'
import { batchColumns, campColumns } from '~/db/camp-columns.server'

/** The settings the public pages show; the staff read adds the GST details to these. */
export const publicSettingsColumns = {
  bannerVisible: siteSettings.bannerVisible,
  reportDelivery: siteSettings.reportDelivery,
  refundPolicy: siteSettings.refundPolicy,
  sessionLocation: siteSettings.sessionLocation,
  venueName: siteSettings.venueName,
  postalAddress: siteSettings.postalAddress,
  phone: siteSettings.phone,
  phoneHours: siteSettings.phoneHours,
  supportEmail: siteSettings.supportEmail,
  infoEmail: siteSettings.infoEmail,
  websiteUrl: siteSettings.websiteUrl,
  whatsappNumber: siteSettings.whatsappNumber,
  socialLinks: siteSettings.socialLinks,
  coach: siteSettings.coach,
  team: siteSettings.team,
  legalName: siteSettings.legalName,
  grievanceOfficerName: siteSettings.grievanceOfficerName,
  grievanceOfficerEmail: siteSettings.grievanceOfficerEmail,
  swimmersAnalysedThreshold: siteSettings.swimmersAnalysedThreshold,
  analysesDeliveredThreshold: siteSettings.analysesDeliveredThreshold,
  campsRunThreshold: siteSettings.campsRunThreshold,
  pagePictures: siteSettings.pagePictures,
}

export function getSiteSettings() {
  return cachedContent('settings', readSiteSettings)
}

async function readSiteSettings() {
  const [row] = await db()
    .select(publicSettingsColumns)
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
  if (!row) throw new Error('The site settings row (id 1) is missing')
  return row
}

/** How refunds reach customers ("within 7 business days, to the original payment method"), read in the transaction that writes the e-mail saying so. */
export async function refundPolicyIn(executor: Executor) {
  const [row] = await executor.select({ refundPolicy: siteSettings.refundPolicy }).from(siteSettings).where(eq(siteSettings.id, 1))
  return row?.refundPolicy ?? 'to the original payment method'
}

/** Where sessions take place, read in the transaction that writes the e-mail or receipt naming it. */
export async function sessionLocationIn(executor: Executor) {
  const [row] = await executor.select({ location: siteSettings.sessionLocation }).from(siteSettings).where(eq(siteSettings.id, 1))
  return row?.location ?? ''
}

/** Whether the promotional banner is on. A failure to read it hides the banner, never the page. */
export async function isBannerVisible(onError?: (error: unknown) => void): Promise<boolean> {
  try {
    const [row] = await db().select({ visible: siteSettings.bannerVisible }).from(siteSettings).where(eq(siteSettings.id, 1))
    return row?.visible ?? false
  } catch (error) {
    onError?.(error)
    return false
  }
}

type CatalogueItem = { code: string; name: string; tagline: string; description: string; duration: string; pricePaise: number; regularPricePaise: number | null }

/** The catalogue keyed by code, so a page asks for exactly the prices it shows. */
export function getCatalogue(): Promise<Record<string, CatalogueItem>> {
  return cachedContent('catalogue', readCatalogue)
}

async function readCatalogue(): Promise<Record<string, CatalogueItem>> {
  const rows = await db()
    .select({
      code: catalogueItems.code,
      name: catalogueItems.name,
      tagline: catalogueItems.tagline,
      description: catalogueItems.description,
      duration: catalogueItems.duration,
      pricePaise: catalogueItems.pricePaise,
      regularPricePaise: catalogueItems.regularPricePaise,
    })
    .from(catalogueItems)
    .orderBy(asc(catalogueItems.sortOrder))
  return Object.fromEntries(rows.map((row) => [row.code, row]))
}

export function requireItem(catalogue: Record<string, CatalogueItem>, code: string): CatalogueItem {
  const item = catalogue[code]
  if (!item) throw new Error(`Catalogue item ${code} is missing`)
  return item
}

export type CampSummary = Awaited<ReturnType<typeof listCamps>>[number]

/** Camps with their batches and the price that applies at `now` (early-bird until the deadline). */
export async function listCamps(now = new Date()) {
  const { rows, batches } = await cachedContent('camps', readCamps)
  return rows.map((camp) => {
    const earlyBird = now < camp.earlyBirdEndsAt
    return {
      ...camp,
      earlyBirdEndsAt: camp.earlyBirdEndsAt.toISOString(),
      earlyBird,
      currentPricePaise: earlyBird ? camp.earlyBirdPricePaise : camp.regularPricePaise,
      batches: batches.filter((batch) => batch.campId === camp.id).map(({ campId: _campId, ...batch }) => batch),
    }
  })
}

async function readCamps() {
  const rows = await db().select(campColumns).from(camps).orderBy(asc(camps.sortOrder), asc(camps.startsOn))
  const batches = await db().select(batchColumns).from(campBatches).orderBy(asc(campBatches.code))
  return { rows, batches }
}
