import { sql } from 'drizzle-orm'
import { addDays, isoWeekday, labInstant, labToday } from '~/lib/lab-time'
import { LAB_STATE_CODE } from '~/lib/gst-states'
import type { Db } from './client.server'
import { availabilityWindows, campBatches, camps, catalogueItems, kits, siteSettings, venues } from './schema'

const PLACEHOLDER = (what: string) => `[${what} — to be supplied by the lab]`

/** The catalogue as the lab launched it; admins edit prices afterwards, and re-seeding keeps edits. */
export const CATALOGUE_SEED = [
  {
    code: 'biomechanical_package',
    name: '3-Day Biomechanical Analysis',
    tagline: 'Master the Mechanics',
    description: 'Three days at the pool: your swimming filmed above and under water from several angles, joint angles and stroke mechanics measured, then a personalised report with drills to work on.',
    duration: '3 days',
    pricePaise: 30_000_00,
    regularPricePaise: 35_000_00,
    sortOrder: 1,
  },
  {
    code: 'race_analysis',
    name: 'Competition Race Analysis',
    tagline: 'Competitive Edge',
    description: 'We bring the cameras to your competition and analyse your races: start reaction, turns, splits, stroke count and tempo, against elite benchmarks.',
    duration: 'At your competition',
    pricePaise: 5_000_00,
    regularPricePaise: null,
    sortOrder: 2,
  },
  {
    code: 'single_race',
    name: 'Race Analysis Session',
    tagline: 'Single session',
    description: 'One session at the pool: a race swim filmed above and under water, with your start, turns, splits, stroke count and tempo analysed.',
    duration: '45-60 minutes',
    pricePaise: 3_499_00,
    regularPricePaise: null,
    sortOrder: 3,
  },
  {
    code: 'single_biomechanical',
    name: 'Biomechanical Analysis Session',
    tagline: 'Single session',
    description: 'One session at the pool: your stroke filmed from several angles, with joint angles and technique analysed.',
    duration: '45-60 minutes',
    pricePaise: 3_499_00,
    regularPricePaise: null,
    sortOrder: 4,
  },
  {
    code: 'single_both',
    name: 'Race + Biomechanical Analysis Session',
    tagline: 'Single session',
    description: 'One session covering both: a race swim and your stroke mechanics filmed and analysed.',
    duration: '45-60 minutes',
    pricePaise: 5_999_00,
    regularPricePaise: null,
    sortOrder: 5,
  },
] as const

export const SITE_SETTINGS_SEED = {
  id: 1,
  bannerVisible: true,
  reportDelivery: 'within 48 hours',
  refundPolicy: 'within 7 business days, to the original payment method',
  sessionLocation: 'PDCSE, Bangalore',
  venueName: 'PDCSE (sports excellence centre)',
  postalAddress: PLACEHOLDER('Postal address'),
  phone: PLACEHOLDER('Phone number'),
  phoneHours: 'Monday-Friday 9:00 AM-6:00 PM IST',
  supportEmail: PLACEHOLDER('Support e-mail'),
  infoEmail: PLACEHOLDER('General e-mail'),
  websiteUrl: '',
  whatsappNumber: '',
  socialLinks: { linkedin: '', instagram: '', twitter: '' },
  coach: { name: PLACEHOLDER('Coach name'), credentials: PLACEHOLDER('Coach credentials'), placeholder: true },
  team: [1, 2, 3, 4].map((n) => ({
    name: PLACEHOLDER(`Team member ${n}`),
    role: PLACEHOLDER('Role'),
    bio: PLACEHOLDER('Short bio'),
    placeholder: true,
  })),
  legalName: PLACEHOLDER('Registered name of the LLP'),
  gstin: '',
}

const CAMP_BATCHES = [
  { code: 'batch1', name: 'Batch 1', timeRanges: [{ start: '09:00', end: '10:30' }, { start: '13:00', end: '14:30' }] },
  { code: 'batch2', name: 'Batch 2', timeRanges: [{ start: '10:30', end: '12:00' }, { start: '14:30', end: '16:00' }] },
]

/** Seats per batch of each camp: 2 camps × 2 batches × 30 = 120 seats. */
const SEED_BATCH_CAPACITY = 30

/**
 * The camps run 8-16 and 18-26 August. The seed places them in the next August that has not
 * started yet, so a fresh installation always advertises camps that can still be booked.
 */
function seedCampYear(now: Date): number {
  const today = labToday(now)
  const year = Number(today.slice(0, 4))
  return today < `${year}-08-08` ? year : year + 1
}

/** Applies the seed data; safe to run at every start-up: it only adds what is missing. */
export async function seedDatabase(db: Db, now = new Date()) {
  const year = seedCampYear(now)
  await db.transaction(async (tx) => {
    await tx.insert(siteSettings).values(SITE_SETTINGS_SEED).onConflictDoNothing()
    await tx.insert(catalogueItems).values([...CATALOGUE_SEED]).onConflictDoNothing()

    const campRows = [
      { code: 'camp1', name: 'Camp 1', startsOn: `${year}-08-08`, endsOn: `${year}-08-16`, sortOrder: 1 },
      { code: 'camp2', name: 'Camp 2', startsOn: `${year}-08-18`, endsOn: `${year}-08-26`, sortOrder: 2 },
    ].map((camp) => ({
      ...camp,
      venue: 'PDCSE, Bangalore',
      earlyBirdPricePaise: 35_000_00,
      regularPricePaise: 40_000_00,
      earlyBirdEndsAt: labInstant(`${year}-07-15`, '23:59:59'),
    }))
    const inserted = await tx.insert(camps).values(campRows).onConflictDoNothing().returning({ id: camps.id })
    for (const { id } of inserted) {
      await tx
        .insert(campBatches)
        .values(CAMP_BATCHES.map((batch) => ({ ...batch, campId: id, capacity: SEED_BATCH_CAPACITY })))
        .onConflictDoNothing()
    }

    // The lab's own room and its one rig (the migration makes both for an installation it finds
    // running; a database emptied and seeded again needs them too).
    const [home] = await tx.select({ id: venues.id }).from(venues).where(sql`${venues.isHome}`)
    if (!home) await tx.insert(venues).values({ name: SITE_SETTINGS_SEED.sessionLocation, address: '', city: 'Bengaluru', stateCode: LAB_STATE_CODE, isHome: true })
    const [kit] = await tx.select({ id: kits.id }).from(kits).limit(1)
    if (!kit) await tx.insert(kits).values({ name: 'Underwater rig 1' })

    // A few weeks of availability on a fresh installation only; afterwards staff manage it. Nine
    // hourly slots from 9 AM: the times /booking offers, and the 3-day sessions' time slots.
    const [{ count } = { count: 0 }] = await tx.select({ count: sql<number>`count(*)::int` }).from(availabilityWindows)
    if (count === 0) {
      const today = labToday(now)
      const windows = []
      for (let offset = 1; offset <= 28; offset += 1) {
        const date = addDays(today, offset)
        if (isoWeekday(date) === 7) continue
        windows.push({ date, startTime: '09:00', endTime: '18:00', slotDurationMinutes: 60, capacity: 2 })
      }
      await tx.insert(availabilityWindows).values(windows)
    }
  })
}
