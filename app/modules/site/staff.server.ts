import { asc, eq } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { catalogueItems, siteSettings, type Coach, type TeamMember } from '~/db/schema'
import { formatRupees } from '~/lib/money'
import { DomainError } from '~/lib/domain-error'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { requireUsableMedia, requireUsablePhoto } from '~/modules/media/media.server'
import { mediaUseOf, PAGE_PICTURE_SLOTS } from './page-pictures'
import { publicSettingsColumns } from './site.server'
import { isValidFigureThreshold, isValidGstin, isValidGstRate, isValidPrice, REGULAR_PRICE_MESSAGE, type CoachInput, type ContactInput, type FigureThresholdsInput, type GrievanceOfficerInput, type GstInput, type PagePicturesInput, type PoliciesInput, type TeamMemberInput } from './schemas'

// Staff edits of what the public pages show. Each change is one transaction with its audit entry;
// the database trigger then announces it (NOTIFY site_content_changed), which clears every
// instance's page cache and moves the live banner on open pages.

/** A value the forms should have refused; the domain checks again because money and tax depend on it. */
export class InvalidSettingError extends DomainError {
  constructor(message: string) {
    super('invalid', message)
  }
}

export class CatalogueItemNotFoundError extends DomainError {
  constructor(code: string) {
    super('not_found', `There is no catalogue item ${code}`)
  }
}

/** Every catalogue item, in the order the site lists them, read fresh (not from the page cache). */
export async function catalogueForStaff() {
  return db()
    .select({
      code: catalogueItems.code,
      name: catalogueItems.name,
      tagline: catalogueItems.tagline,
      pricePaise: catalogueItems.pricePaise,
      regularPricePaise: catalogueItems.regularPricePaise,
      updatedAt: catalogueItems.updatedAt,
    })
    .from(catalogueItems)
    .orderBy(asc(catalogueItems.sortOrder), asc(catalogueItems.code))
}

const settingsColumns = {
  ...publicSettingsColumns,
  gstin: siteSettings.gstin,
  gstRateBasisPoints: siteSettings.gstRateBasisPoints,
  reanalysisMonths: siteSettings.reanalysisMonths,
}
type StaffSettings = Awaited<ReturnType<typeof settingsForStaff>>

/** Every setting, including the GST details the public pages do not show, read fresh. */
export async function settingsForStaff() {
  const [row] = await db().select(settingsColumns).from(siteSettings).where(eq(siteSettings.id, 1))
  if (!row) throw new Error('The site settings row (id 1) is missing')
  return row
}

async function lockedSettings(tx: Executor) {
  const [row] = await tx.select(settingsColumns).from(siteSettings).where(eq(siteSettings.id, 1)).for('update')
  if (!row) throw new Error('The site settings row (id 1) is missing')
  return row
}

/** JSON with object keys sorted: jsonb hands objects back with its own key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b)

/** What `next` changes in `current`: the old and new values of exactly those fields. */
function changesOf<T extends Record<string, unknown>>(current: T, next: Partial<T>) {
  const before: Partial<T> = {}
  const after: Partial<T> = {}
  for (const key of Object.keys(next) as Array<keyof T>) {
    if (same(current[key], next[key])) continue
    before[key] = current[key]
    after[key] = next[key]
  }
  return { before, after, changed: Object.keys(after) as Array<keyof T & string> }
}

const itemLabel = (item: { name: string; tagline: string }) => (item.tagline ? `${item.name} (${item.tagline})` : item.name)
const priceLabel = (paise: number | null) => (paise === null ? 'none' : formatRupees(paise))

/**
 * Sets an item's price and its struck-through regular price (null for none), both in paise.
 * Returns false when both were already so (nothing is written or logged).
 */
export async function updateCataloguePrice(actor: Actor, { code, pricePaise, regularPricePaise }: { code: string; pricePaise: number; regularPricePaise: number | null }, now = new Date()) {
  if (!isValidPrice(pricePaise) || (regularPricePaise !== null && !isValidPrice(regularPricePaise))) throw new InvalidSettingError('A price must be a whole number of paise from ₹1 up')
  if (regularPricePaise !== null && regularPricePaise < pricePaise) throw new InvalidSettingError(REGULAR_PRICE_MESSAGE)
  return db().transaction(async (tx) => {
    const [item] = await tx
      .select({ name: catalogueItems.name, tagline: catalogueItems.tagline, pricePaise: catalogueItems.pricePaise, regularPricePaise: catalogueItems.regularPricePaise })
      .from(catalogueItems)
      .where(eq(catalogueItems.code, code))
      .for('update')
    if (!item) throw new CatalogueItemNotFoundError(code)
    const { before, after, changed } = changesOf({ pricePaise: item.pricePaise, regularPricePaise: item.regularPricePaise }, { pricePaise, regularPricePaise })
    if (changed.length === 0) return false
    await tx.update(catalogueItems).set({ pricePaise, regularPricePaise, updatedAt: now }).where(eq(catalogueItems.code, code))
    await recordAudit(
      tx,
      actor,
      {
        action: 'catalogue.price',
        entityType: 'catalogue_item',
        entityId: code,
        summary: `Changed the price of ${itemLabel(item)} from ${priceLabel(item.pricePaise)} (regular ${priceLabel(item.regularPricePaise)}) to ${priceLabel(pricePaise)} (regular ${priceLabel(regularPricePaise)})`,
        before,
        after,
      },
      now,
    )
    return true
  })
}

/**
 * Writes the fields of one settings group that differ from the stored ones, with an audit entry
 * listing exactly those. Returns false when nothing differed (nothing is written or logged).
 */
async function updateSettings(
  actor: Actor,
  action: string,
  describe: (changed: string[], current: StaffSettings) => string,
  next: (current: StaffSettings) => Partial<StaffSettings>,
  now: Date,
  /** Checks what the change refers to, in the transaction, once the settings are locked. */
  check?: (tx: Executor) => Promise<void>,
) {
  return db().transaction(async (tx) => {
    const current = await lockedSettings(tx)
    await check?.(tx)
    const { before, after, changed } = changesOf(current, next(current))
    if (changed.length === 0) return false
    await tx
      .update(siteSettings)
      .set({ ...after, updatedAt: now })
      .where(eq(siteSettings.id, 1))
    await recordAudit(tx, actor, { action, entityType: 'site_settings', entityId: 1, summary: describe(changed, current), before, after }, now)
    return true
  })
}

const FIELD_NAMES: Record<string, string> = {
  reportDelivery: 'report delivery',
  refundPolicy: 'refund policy',
  reanalysisMonths: 'months before inviting the swimmer back',
  sessionLocation: 'session location',
  venueName: 'venue',
  postalAddress: 'postal address',
  phone: 'phone',
  phoneHours: 'phone hours',
  supportEmail: 'support e-mail',
  infoEmail: 'general e-mail',
  websiteUrl: 'website',
  whatsappNumber: 'WhatsApp number',
  socialLinks: 'social links',
  legalName: 'registered name',
  gstin: 'GSTIN',
  gstRateBasisPoints: 'GST rate',
  grievanceOfficerName: "grievance officer's name",
  grievanceOfficerEmail: "grievance officer's e-mail",
  swimmersAnalysedThreshold: 'swimmers analysed',
  analysesDeliveredThreshold: 'analyses delivered',
  campsRunThreshold: 'camps run',
}
const listOf = (changed: string[]) => changed.map((field) => FIELD_NAMES[field] ?? field).join(', ')

export function updatePolicies(actor: Actor, input: PoliciesInput, now = new Date()) {
  return updateSettings(actor, 'settings.policies', (changed) => `Changed the policy texts: ${listOf(changed)}`, () => ({ reportDelivery: input.reportDelivery, refundPolicy: input.refundPolicy, reanalysisMonths: input.reanalysisMonths }), now)
}

export function updateContactDetails(actor: Actor, { linkedin, instagram, twitter, ...details }: ContactInput, now = new Date()) {
  return updateSettings(actor, 'settings.contact', (changed) => `Changed the contact details: ${listOf(changed)}`, () => ({ ...details, socialLinks: { linkedin, instagram, twitter } }), now)
}

export async function updateGstDetails(actor: Actor, { legalName, gstin, gstRate }: GstInput, now = new Date()) {
  if (!isValidGstin(gstin)) throw new InvalidSettingError('A GSTIN has 15 characters: 2 digits, a PAN, an entity number, Z and a check character')
  if (!isValidGstRate(gstRate)) throw new InvalidSettingError('The GST rate must be a whole number of basis points from 0 to 10000')
  return updateSettings(actor, 'settings.gst', (changed) => `Changed the GST details: ${listOf(changed)}`, () => ({ legalName, gstin, gstRateBasisPoints: gstRate }), now)
}

export function updateGrievanceOfficer(actor: Actor, { grievanceOfficerName, grievanceOfficerEmail }: GrievanceOfficerInput, now = new Date()) {
  return updateSettings(
    actor,
    'settings.grievance',
    (changed) => `Changed the grievance officer: ${listOf(changed)}`,
    () => ({ grievanceOfficerName, grievanceOfficerEmail: grievanceOfficerEmail.toLowerCase() }),
    now,
  )
}

/** Sets from which count the home page shows each number of the lab's records (0: never). */
export async function updateFigureThresholds(actor: Actor, thresholds: FigureThresholdsInput, now = new Date()) {
  if (!Object.values(thresholds).every(isValidFigureThreshold)) throw new InvalidSettingError('A threshold must be a whole number from 0 to 10,00,000')
  const { swimmersAnalysedThreshold, analysesDeliveredThreshold, campsRunThreshold } = thresholds
  return updateSettings(
    actor,
    'settings.figures',
    (changed) => `Changed when the site shows its numbers: ${listOf(changed)}`,
    () => ({ swimmersAnalysedThreshold, analysesDeliveredThreshold, campsRunThreshold }),
    now,
  )
}

/**
 * A coach or team member stays marked as a placeholder (drawn as one on the public pages) until
 * staff change one of their details; after that the details are the lab's own.
 */
function edited<T extends { placeholder: boolean }>(current: T, next: Omit<T, 'placeholder'>): T {
  const unchanged = Object.entries(next).every(([key, value]) => current[key as keyof T] === value) && Object.keys(current).every((key) => key === 'placeholder' || key in next)
  return { ...next, placeholder: unchanged ? current.placeholder : false } as T
}

/** Details with their photo, which is left out (not stored as null) when none is chosen. */
function withPhoto<T extends { photoId: number | null }>({ photoId, ...details }: T) {
  return photoId === null ? details : { ...details, photoId }
}

/** A portrait chosen for the coach or a team member: in the library, ready and described (checked under the settings' lock, which a delete takes too). */
function portraitCheck(photoId: number | null) {
  return photoId === null ? undefined : (tx: Executor) => requireUsablePhoto(tx, photoId, 'portrait', 'photoId')
}

export function updateCoach(actor: Actor, input: CoachInput, now = new Date()) {
  return updateSettings(actor, 'settings.coach', () => `Changed the camp coach's details`, (current) => ({ coach: edited<Coach>(current.coach, withPhoto(input)) }), now, portraitCheck(input.photoId))
}

/** Edits one member of the about page's team, in place; the team keeps its size. */
export function updateTeamMember(actor: Actor, { index, ...member }: TeamMemberInput, now = new Date()) {
  return updateSettings(
    actor,
    'settings.team',
    () => `Changed the details of team member ${index + 1}`,
    (current) => {
      if (!current.team[index]) throw new InvalidSettingError(`The team has no member ${index + 1}`)
      return { team: current.team.map((existing, position) => (position === index ? edited<TeamMember>(existing, withPhoto(member)) : existing)) }
    },
    now,
    portraitCheck(member.photoId),
  )
}

/** Chooses the photos and the video loop of the pages' places; each is checked for its place, and a place left empty shows the site's own artwork. */
export function updatePagePictures(actor: Actor, input: PagePicturesInput, now = new Date()) {
  const chosen = PAGE_PICTURE_SLOTS.flatMap((slot) => (input[slot] === null ? [] : [[slot, input[slot]] as const]))
  return updateSettings(
    actor,
    'settings.pictures',
    () => 'Changed the pictures on the pages',
    () => ({ pagePictures: Object.fromEntries(chosen) }),
    now,
    async (tx) => {
      if (input.heroLoop !== null && input.heroWide === null) throw new DomainError('invalid', 'Choose the photo for computers and tablets too: it shows until the loop starts, and wherever it does not play.', 'heroLoop')
      for (const [slot, id] of chosen) await requireUsableMedia(tx, id, mediaUseOf(slot), slot)
    },
  )
}

/** Shows or hides the camp banner; open pages follow through the live event stream. */
export function setBanner(actor: Actor, visible: boolean, now = new Date()) {
  return updateSettings(actor, 'settings.banner', () => (visible ? 'Showed the camp banner' : 'Hid the camp banner'), () => ({ bannerVisible: visible }), now)
}
