import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  type AnyPgColumn,
  primaryKey,
  serial,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'

/**
 * What the lab sells, each under its own name on every page, e-mail and receipt: what it is, how
 * long it takes, and its price in paise (`regularPricePaise` is the struck-through price, if any).
 */
export const catalogueItems = pgTable(
  'catalogue_items',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    tagline: text('tagline').notNull().default(''),
    description: text('description').notNull().default(''),
    /** How long it takes, as a visitor reads it ("3 days", "45-60 minutes"). */
    duration: text('duration').notNull().default(''),
    pricePaise: integer('price_paise').notNull(),
    regularPricePaise: integer('regular_price_paise'),
    sortOrder: integer('sort_order').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('catalogue_price_positive', sql`${table.pricePaise} >= 0`),
    check('catalogue_regular_price', sql`${table.regularPricePaise} IS NULL OR ${table.regularPricePaise} >= ${table.pricePaise}`),
  ],
)

/** `photoId` is a photo of the media library (media_items), once staff choose one. */
export type TeamMember = { name: string; role: string; bio: string; placeholder: boolean; photoId?: number | null }
export type Coach = { name: string; credentials: string; placeholder: boolean; photoId?: number | null }
export type SocialLinks = { linkedin: string; instagram: string; twitter: string }
/** Media library ids by the place on the public pages that shows them (app/modules/site/page-pictures.ts). */
export type PagePictureIds = Partial<Record<string, number>>

/**
 * The single row (id 1) of site-wide settings: the banner flag, policy texts and the lab's contact
 * details. Values the lab has not supplied yet are seeded as clearly marked placeholders.
 */
export const siteSettings = pgTable(
  'site_settings',
  {
    id: integer('id').primaryKey(),
    bannerVisible: boolean('banner_visible').notNull().default(false),
    reportDelivery: text('report_delivery').notNull(),
    refundPolicy: text('refund_policy').notNull(),
    sessionLocation: text('session_location').notNull(),
    venueName: text('venue_name').notNull(),
    postalAddress: text('postal_address').notNull(),
    phone: text('phone').notNull(),
    phoneHours: text('phone_hours').notNull(),
    supportEmail: text('support_email').notNull(),
    infoEmail: text('info_email').notNull(),
    websiteUrl: text('website_url').notNull(),
    whatsappNumber: text('whatsapp_number').notNull(),
    socialLinks: jsonb('social_links').$type<SocialLinks>().notNull(),
    coach: jsonb('coach').$type<Coach>().notNull(),
    team: jsonb('team').$type<TeamMember[]>().notNull(),
    legalName: text('legal_name').notNull(),
    gstin: text('gstin').notNull().default(''),
    /** The GST rate in basis points (1800 = 18%); prices are GST-inclusive. Applies when a GSTIN is set. */
    gstRateBasisPoints: integer('gst_rate_basis_points').notNull().default(1800),
    /** The grievance officer people write to about their data, named on the privacy policy. */
    grievanceOfficerName: text('grievance_officer_name').notNull().default(''),
    grievanceOfficerEmail: text('grievance_officer_email').notNull().default(''),
    /** How many months after an analysis the swimmer is invited back for the next one. */
    reanalysisMonths: integer('reanalysis_months').notNull().default(3),
    /**
     * The home page shows each count of the lab's own records (app/modules/site/figures.server.ts)
     * only once it reaches its threshold; 0 never shows it.
     */
    swimmersAnalysedThreshold: integer('swimmers_analysed_threshold').notNull().default(50),
    analysesDeliveredThreshold: integer('analyses_delivered_threshold').notNull().default(50),
    campsRunThreshold: integer('camps_run_threshold').notNull().default(3),
    pagePictures: jsonb('page_pictures').$type<PagePictureIds>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('site_settings_single_row', sql`${table.id} = 1`),
    check('site_settings_figure_thresholds', sql`${table.swimmersAnalysedThreshold} >= 0 AND ${table.analysesDeliveredThreshold} >= 0 AND ${table.campsRunThreshold} >= 0`),
  ],
)

export type TimeRange = { start: string; end: string }

/** A discount (a promo code, a camp's sibling price) takes a percentage off (in basis points) or an amount (in paise). */
export type DiscountKind = 'percent' | 'amount'

export const camps = pgTable(
  'camps',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    startsOn: date('starts_on').notNull(),
    endsOn: date('ends_on').notNull(),
    venue: text('venue').notNull(),
    earlyBirdPricePaise: integer('early_bird_price_paise').notNull(),
    regularPricePaise: integer('regular_price_paise').notNull(),
    /** The early-bird price applies until this instant (end of the chosen day in Asia/Kolkata). */
    earlyBirdEndsAt: timestamp('early_bird_ends_at', { withTimezone: true }).notNull(),
    isOpen: boolean('is_open').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    /**
     * The sibling price: a family's second and each further swimmer registered for this camp pays
     * less, by a percentage (`siblingDiscountValue` in basis points) or an amount (in paise). None: no
     * sibling price.
     */
    siblingDiscountKind: text('sibling_discount_kind').$type<DiscountKind>(),
    siblingDiscountValue: integer('sibling_discount_value').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('camps_code_unique').on(table.code),
    check(
      'camps_sibling_discount',
      sql`(${table.siblingDiscountKind} IS NULL AND ${table.siblingDiscountValue} = 0) OR (${table.siblingDiscountKind} = 'percent' AND ${table.siblingDiscountValue} BETWEEN 1 AND 10000) OR (${table.siblingDiscountKind} = 'amount' AND ${table.siblingDiscountValue} > 0)`,
    ),
    check('camps_dates_ordered', sql`${table.endsOn} >= ${table.startsOn}`),
    check('camps_prices', sql`${table.earlyBirdPricePaise} > 0 AND ${table.regularPricePaise} >= ${table.earlyBirdPricePaise}`),
  ],
)

export const campBatches = pgTable(
  'camp_batches',
  {
    id: serial('id').primaryKey(),
    campId: integer('camp_id')
      .notNull()
      .references(() => camps.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    timeRanges: jsonb('time_ranges').$type<TimeRange[]>().notNull(),
    /** Seats in this batch of this camp; taken seats are counted from registrations. */
    capacity: integer('capacity').notNull(),
  },
  (table) => [uniqueIndex('camp_batches_camp_code_unique').on(table.campId, table.code), check('camp_batches_capacity', sql`${table.capacity} >= 0`)],
)

/** A range of instants, `[)`: from its first instant up to, not including, its last (PostgreSQL's tstzrange). */
const instantRange = customType<{ data: string; driverData: string }>({ dataType: () => 'tstzrange' })

/**
 * Where the lab works: its home (exactly one venue, `isHome`, the lab's own room) and the partner
 * pools, clubs and competition venues it takes its kit to. `stateCode` is the state's GST code (two
 * digits, 29 for Karnataka); `travelMinutes` how long the kit and staff take to get there from the lab,
 * each way. A venue is closed, never deleted, so what happened there keeps its place.
 */
export const venues = pgTable(
  'venues',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    stateCode: text('state_code').notNull(),
    mapUrl: text('map_url'),
    photoId: integer('photo_id').references((): AnyPgColumn => mediaItems.id, { onDelete: 'set null' }),
    hostName: text('host_name'),
    hostEmail: text('host_email'),
    hostPhone: text('host_phone'),
    travelMinutes: integer('travel_minutes').notNull().default(0),
    /**
     * The lab's GST registration in the venue's state, when it holds one: what is performed there is
     * invoiced under this GSTIN, numbered in `invoiceSeries` (both or neither).
     */
    gstin: text('gstin'),
    invoiceSeries: text('invoice_series'),
    isHome: boolean('is_home').notNull().default(false),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('venues_name_unique').on(sql`lower(${table.name})`),
    uniqueIndex('venues_one_home').on(table.isHome).where(sql`${table.isHome}`),
    index('venues_photo').on(table.photoId),
    check('venues_state_code', sql`${table.stateCode} ~ '^[0-9]{2}$'`),
    check('venues_travel', sql`${table.travelMinutes} BETWEEN 0 AND 2880`),
    check('venues_home_open', sql`NOT (${table.isHome} AND ${table.closedAt} IS NOT NULL)`),
    check('venues_gst_registration', sql`(${table.gstin} IS NULL) = (${table.invoiceSeries} IS NULL) AND (${table.gstin} IS NULL OR left(${table.gstin}, 2) = ${table.stateCode})`),
    uniqueIndex('venues_invoice_series_unique').on(table.invoiceSeries).where(sql`${table.invoiceSeries} IS NOT NULL`),
  ],
)

/**
 * A camera rig: the underwater cameras and what goes with them. A kit is at the lab unless a
 * placement (`kitPlacements`) has it elsewhere; `setupMinutes` is how long it takes to set up at a
 * venue, and as long again to pack. Retired, never deleted.
 */
export const kits = pgTable(
  'kits',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    setupMinutes: integer('setup_minutes').notNull().default(60),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('kits_name_unique').on(sql`lower(${table.name})`), check('kits_setup', sql`${table.setupMinutes} BETWEEN 0 AND 720`)],
)

/**
 * Someone or something at a venue from `startsAt` to `endsAt`, and away from anywhere else for all
 * of `during` (with the travel there and back, and a kit's set-up and packing): a kit's placement or
 * a staff member's assignment. The database refuses two of one kit's, or one person's, whose `during`
 * overlap (exclusion constraints, in the migration), so neither is ever in two places at once,
 * however many staff save at the same moment.
 */
const atVenueColumns = () => ({
  id: serial('id').primaryKey(),
  venueId: integer('venue_id')
    .notNull()
    .references(() => venues.id, { onDelete: 'restrict' }),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  during: instantRange('during').notNull(),
  note: text('note'),
  createdBy: integer('created_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** The period lies inside the range away. */
const periodInsideRange = (table: { startsAt: AnyPgColumn; endsAt: AnyPgColumn; during: AnyPgColumn }) => sql`${table.startsAt} < ${table.endsAt} AND lower(${table.during}) <= ${table.startsAt} AND upper(${table.during}) >= ${table.endsAt}`

/** A kit away from the lab, in use at a venue (a kit is at the lab unless placed elsewhere). */
export const kitPlacements = pgTable(
  'kit_placements',
  {
    kitId: integer('kit_id')
      .notNull()
      .references(() => kits.id, { onDelete: 'restrict' }),
    ...atVenueColumns(),
  },
  (table) => [index('kit_placements_venue').on(table.venueId), check('kit_placements_times', periodInsideRange(table))],
)

/** A staff member at a venue: their availability there. */
export const staffAssignments = pgTable(
  'staff_assignments',
  {
    userId: integer('user_id')
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    ...atVenueColumns(),
  },
  (table) => [index('staff_assignments_venue').on(table.venueId), check('staff_assignments_times', periodInsideRange(table))],
)

/**
 * An analysis day: the lab's kit at a venue away from the lab on one or more consecutive dates
 * (`firstDate`-`lastDate`, the same hours each), selling one product of the catalogue in slots of
 * `slotMinutes` at its own price; `rigs` swimmers are filmed at once (one per kit), so each time slot
 * has that many seats. Each date is an availability window of the venue (`availabilityWindows.
 * analysisDayId`), whose seats are booked as every other. Until `releaseAt` only the host's private
 * link books, up to `hostSeats`; from then on everyone. Seen by the public once published; closed,
 * never deleted.
 */
export const analysisDays = pgTable(
  'analysis_days',
  {
    id: serial('id').primaryKey(),
    venueId: integer('venue_id')
      .notNull()
      .references(() => venues.id, { onDelete: 'restrict' }),
    productCode: text('product_code')
      .notNull()
      .references(() => catalogueItems.code, { onDelete: 'restrict' }),
    firstDate: date('first_date').notNull(),
    lastDate: date('last_date').notNull(),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    slotMinutes: integer('slot_minutes').notNull(),
    rigs: integer('rigs').notNull().default(1),
    pricePaise: integer('price_paise').notNull(),
    whatToBring: text('what_to_bring').notNull().default(''),
    hostSeats: integer('host_seats').notNull().default(0),
    releaseAt: timestamp('release_at', { withTimezone: true }).notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdBy: integer('created_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('analysis_days_venue').on(table.venueId),
    index('analysis_days_dates').on(table.lastDate),
    check('analysis_days_dates', sql`${table.firstDate} <= ${table.lastDate} AND ${table.lastDate} <= ${table.firstDate} + 6`),
    check('analysis_days_hours', sql`${table.startTime} < ${table.endTime}`),
    check('analysis_days_slot', sql`${table.slotMinutes} BETWEEN 5 AND 480`),
    check('analysis_days_rigs', sql`${table.rigs} BETWEEN 1 AND 20`),
    check('analysis_days_price', sql`${table.pricePaise} >= 0`),
    check('analysis_days_host_seats', sql`${table.hostSeats} >= 0`),
  ],
)

/**
 * An availability window on one date at a venue (the lab's home unless said otherwise); time slots
 * are cut from it by `slotDurationMinutes`.
 */
export const availabilityWindows = pgTable(
  'availability_windows',
  {
    id: serial('id').primaryKey(),
    /** Defaults to the home venue (`home_venue_id()`, in the migration). */
    venueId: integer('venue_id')
      .notNull()
      .default(sql`home_venue_id()`)
      .references(() => venues.id, { onDelete: 'restrict' }),
    date: date('date').notNull(),
    startTime: time('start_time'),
    endTime: time('end_time'),
    slotDurationMinutes: integer('slot_duration_minutes').default(60),
    capacity: integer('capacity').notNull().default(1),
    isHoliday: boolean('is_holiday').notNull().default(false),
    /** One date of an analysis day: its seats, not the venue's opening hours. */
    analysisDayId: integer('analysis_day_id').references((): AnyPgColumn => analysisDays.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('availability_windows_venue_date').on(table.venueId, table.date),
    uniqueIndex('availability_windows_analysis_day_date').on(table.analysisDayId, table.date).where(sql`${table.analysisDayId} IS NOT NULL`),
    check('availability_windows_capacity_positive', sql`${table.capacity} >= 1`),
    check('availability_windows_duration_positive', sql`${table.slotDurationMinutes} IS NULL OR ${table.slotDurationMinutes} > 0`),
  ],
)

/** waiting (confirmed or not yet), offered a slot, booked through the offer, or ended: lapsed or run out, declined, taken off. */
export type DayWaitlistStatus = 'waiting' | 'offered' | 'booked' | 'expired' | 'declined' | 'cancelled'

/**
 * A swimmer waiting for a slot of a sold-out analysis day. Until the address is confirmed through
 * the e-mailed link (`confirmedAt`) the entry is not in the queue and lapses after a day; once
 * confirmed it is offered the first slot that frees up, as a pending booking (`bookingId`) held for
 * WAITLIST_OFFER_HOURS or until the slot begins. An account signed in when joining (`userId`) takes
 * its entries with it when erased.
 */
export const analysisDayWaitlist = pgTable(
  'analysis_day_waitlist',
  {
    id: serial('id').primaryKey(),
    analysisDayId: integer('analysis_day_id')
      .notNull()
      .references(() => analysisDays.id, { onDelete: 'restrict' }),
    swimmerName: text('swimmer_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    userId: integer('user_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<DayWaitlistStatus>().notNull().default('waiting'),
    /** The pending booking holding the slot offered. */
    bookingId: integer('booking_id').references((): AnyPgColumn => bookings.id, { onDelete: 'set null' }),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** The client's network that joined (an IPv4 address or an IPv6 /64), for the per-network limit. */
    holderNetwork: text('holder_network'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('analysis_day_waitlist_queue').on(table.analysisDayId, table.status, table.id),
    index('analysis_day_waitlist_booking').on(table.bookingId),
    index('analysis_day_waitlist_network').on(table.holderNetwork).where(sql`${table.status} IN ('waiting', 'offered')`),
    uniqueIndex('analysis_day_waitlist_one_per_swimmer')
      .on(table.analysisDayId, sql`lower(${table.email})`, sql`lower(${table.swimmerName})`)
      .where(sql`${table.status} IN ('waiting', 'offered')`),
    check('analysis_day_waitlist_status', sql`${table.status} IN ('waiting', 'offered', 'booked', 'expired', 'declined', 'cancelled')`),
    check('analysis_day_waitlist_lengths', sql`length(${table.email}) <= 254 AND length(${table.swimmerName}) BETWEEN 1 AND 100`),
  ],
)

/** seat (held for them to pay for), taken (their slot; others are free), full (the day), refused (why is in `message`). */
export type DayLineOutcome = 'seat' | 'taken' | 'full' | 'refused'

/**
 * The line of bookings for analysis days: every booking sent from a day's page (or its host's link)
 * is a place here, settled in the order parents arrived. It keeps what the parent typed until a day
 * after it is settled (a place whose slot was taken is booked again from it), never in the address
 * of the place's page.
 */
export const analysisDayLine = pgTable(
  'analysis_day_line',
  {
    id: serial('id').primaryKey(),
    analysisDayId: integer('analysis_day_id')
      .notNull()
      .references(() => analysisDays.id, { onDelete: 'cascade' }),
    /** The booking form as sent (AnalysisDayBookingSchema's output), its slot included. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    /** The booking person's address, lower-cased, as typed: the same as in `details`, for the privacy pages. */
    email: text('email').notNull(),
    promoCode: text('promo_code'),
    /** The host's key, when sent through the host's link (it books the seats kept for the club). */
    hostKey: text('host_key'),
    /** Who asked, for the rules on unpaid holds (see holders.server.ts). */
    holderUserId: integer('holder_user_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    holderNetwork: text('holder_network').notNull(),
    holderBrowser: text('holder_browser'),
    outcome: text('outcome').$type<DayLineOutcome>(),
    /** What the parent is told, and the form's field it is about (a refusal). */
    message: text('message'),
    field: text('field'),
    bookingId: integer('booking_id').references((): AnyPgColumn => bookings.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    index('analysis_day_line_waiting').on(table.id).where(sql`${table.outcome} IS NULL`),
    index('analysis_day_line_settled_at').on(table.settledAt),
    index('analysis_day_line_booking').on(table.bookingId),
    index('analysis_day_line_holder').on(table.holderUserId),
    check('analysis_day_line_outcome', sql`${table.outcome} IN ('seat', 'taken', 'full', 'refused')`),
  ],
)

/**
 * Someone asked to be told when the lab comes to a city (the list of analysis days): their address,
 * the city as typed and its key (`cityKey`: one spelling per city), and, when they asked signed in
 * with their account's own address, the account (which may add WhatsApp). Until the address is
 * confirmed through the e-mailed link (only the SHA-256 of its token kept) it expires at `expiresAt`
 * and is purged; once confirmed it stays until unsubscribed.
 */
export const cityAlerts = pgTable(
  'city_alerts',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    city: text('city').notNull(),
    cityKey: text('city_key').notNull(),
    userId: integer('user_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    whatsapp: boolean('whatsapp').notNull().default(false),
    tokenHash: text('token_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('city_alerts_address_city').on(table.email, table.cityKey),
    uniqueIndex('city_alerts_token_unique').on(table.tokenHash),
    index('city_alerts_confirmed_city').on(table.cityKey).where(sql`${table.confirmedAt} IS NOT NULL`),
    index('city_alerts_unconfirmed').on(table.expiresAt).where(sql`${table.confirmedAt} IS NULL`),
    index('city_alerts_user').on(table.userId),
    check('city_alerts_lengths', sql`length(${table.email}) <= 254 AND length(${table.city}) BETWEEN 1 AND 60 AND length(${table.cityKey}) BETWEEN 1 AND 60`),
    check('city_alerts_pending', sql`${table.confirmedAt} IS NOT NULL OR (${table.tokenHash} IS NOT NULL AND ${table.expiresAt} IS NOT NULL)`),
  ],
)

/**
 * A confirmed city alert told of one analysis day: written once per alert and day (the unique
 * index), in the transaction that publishes the day, with the e-mail it queues. Its token (only the
 * SHA-256 kept) is the e-mail's unsubscribe link.
 */
export const cityAlertNotices = pgTable(
  'city_alert_notices',
  {
    id: serial('id').primaryKey(),
    cityAlertId: integer('city_alert_id')
      .notNull()
      .references(() => cityAlerts.id, { onDelete: 'cascade' }),
    analysisDayId: integer('analysis_day_id')
      .notNull()
      .references(() => analysisDays.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('city_alert_notices_once').on(table.cityAlertId, table.analysisDayId), uniqueIndex('city_alert_notices_token_unique').on(table.tokenHash)],
)

/**
 * People with an account: customers (who register themselves) and the lab's staff (`isAdmin`).
 * The e-mail address is stored lower-cased, so the unique index compares addresses
 * case-insensitively. Profile fields are empty for staff accounts created from the command line.
 */
/**
 * An account: a person who signs in and pays (a parent or guardian, an adult swimmer, a coach). The
 * people who swim are its swimmer profiles (`swimmers`); `phone` is the account holder's WhatsApp
 * number and `currentLocation` where the family is.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    phone: text('phone'),
    /** When the account's owner proved `phone` is theirs (a code sent to it); null while unproven. Changing the number clears it. */
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    currentLocation: text('current_location'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isVerified: boolean('is_verified').notNull().default(false),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    check('users_email_lower_case', sql`${table.email} = lower(${table.email})`),
  ],
)

/**
 * A person who swims, in an account: the account holder themselves (`isAccountHolder`) or a child or
 * swimmer they look after. The age is either an exact date of birth or an age in years as given on
 * a day (`ageYears` on `ageGivenOn`), since the registration form asks for an age.
 */
export const swimmers = pgTable(
  'swimmers',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    isAccountHolder: boolean('is_account_holder').notNull().default(false),
    name: text('name').notNull(),
    birthDate: date('birth_date'),
    ageYears: integer('age_years'),
    ageGivenOn: date('age_given_on'),
    gender: text('gender').notNull(),
    swimmingExperience: text('swimming_experience').notNull(),
    academyName: text('academy_name').notNull(),
    coachName: text('coach_name').notNull(),
    specialization: text('specialization').notNull(),
    otherSpecialization: text('other_specialization'),
    participateInEvents: boolean('participate_in_events').notNull().default(false),
    strokeBestTime: text('stroke_best_time'),
    howDidYouKnow: text('how_did_you_know'),
    otherSource: text('other_source'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('swimmers_account').on(table.accountId),
    uniqueIndex('swimmers_one_account_holder').on(table.accountId).where(sql`${table.isAccountHolder}`),
    check('swimmers_age', sql`${table.birthDate} IS NOT NULL OR (${table.ageYears} IS NOT NULL AND ${table.ageGivenOn} IS NOT NULL)`),
  ],
)

/**
 * How a parent's consent was given: in the registration form, through the e-mailed consent link, or
 * as a declaration in a guest's camp form or booking form.
 */
export type ConsentMethod = 'registration_form' | 'consent_link' | 'camp_form' | 'booking_form'

/**
 * A parent's or guardian's consent to the processing of a swimmer's data while the swimmer is under
 * 18: who gave it and how their e-mail address was verified, the privacy notice's version, when, and
 * when it was withdrawn. A guest camp registration's or booking's consent covers that registration or booking.
 */
export const guardianConsents = pgTable(
  'guardian_consents',
  {
    id: serial('id').primaryKey(),
    swimmerId: integer('swimmer_id').references(() => swimmers.id, { onDelete: 'cascade' }),
    campRegistrationId: integer('camp_registration_id').references(() => campRegistrations.id, { onDelete: 'cascade' }),
    /** A session booked on /booking for a swimmer who is no account's profile: the booking person's declaration. */
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'cascade' }),
    guardianName: text('guardian_name').notNull(),
    guardianEmail: text('guardian_email').notNull(),
    /** How the guardian's address was shown to be theirs: the account's code, the consent link, or not (a guest form's declaration). */
    emailVerifiedBy: text('email_verified_by').$type<'account_code' | 'consent_link' | 'unverified'>().notNull(),
    noticeVersion: text('notice_version').notNull(),
    method: text('method').$type<ConsentMethod>().notNull(),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    /**
     * Why the address that consented through the link may be the swimmer's own (null: no reason to
     * think so). Such a consent lets nothing be booked until staff confirm it (`staffConfirmedAt`).
     */
    weakBecause: text('weak_because').$type<WeakConsentReason>(),
    staffConfirmedAt: timestamp('staff_confirmed_at', { withTimezone: true }),
    /** Once withdrawn, a new link goes only to the address that withdrew, until staff re-open asking another. */
    reopenedAt: timestamp('reopened_at', { withTimezone: true }),
  },
  (table) => [
    index('guardian_consents_swimmer').on(table.swimmerId),
    index('guardian_consents_camp_registration').on(table.campRegistrationId),
    index('guardian_consents_booking').on(table.bookingId).where(sql`${table.bookingId} IS NOT NULL`),
    check('guardian_consents_subject', sql`${table.swimmerId} IS NOT NULL OR ${table.campRegistrationId} IS NOT NULL OR ${table.bookingId} IS NOT NULL`),
    check('guardian_consents_method', sql`${table.method} IN ('registration_form', 'consent_link', 'camp_form', 'booking_form')`),
    check('guardian_consents_verified_by', sql`${table.emailVerifiedBy} IN ('account_code', 'consent_link', 'unverified')`),
    check('guardian_consents_weak_because', sql`${table.weakBecause} IN ('same_day_account', 'answers_for_others')`),
    index('guardian_consents_to_confirm').on(table.givenAt).where(sql`${table.weakBecause} IS NOT NULL AND ${table.staffConfirmedAt} IS NULL AND ${table.withdrawnAt} IS NULL`),
  ],
)

/**
 * An address that consented may be the swimmer's own: an account with it was registered the same
 * day as the swimmer's, or it has answered for swimmers of other accounts.
 */
export type WeakConsentReason = 'same_day_account' | 'answers_for_others'

export type ConsentRequestStatus = 'unsent' | 'waiting' | 'agreed' | 'refused' | 'expired'

/**
 * A minor who registered alone asked a parent for consent: the link e-mailed to the parent carries
 * a random token, of which only the SHA-256 is kept; single-use, it expires with the request. A
 * request stays 'unsent' (no token) until the swimmer's own address is verified.
 */
export const consentRequests = pgTable(
  'consent_requests',
  {
    id: serial('id').primaryKey(),
    swimmerId: integer('swimmer_id')
      .notNull()
      .references(() => swimmers.id, { onDelete: 'cascade' }),
    parentEmail: text('parent_email').notNull(),
    tokenHash: text('token_hash'),
    status: text('status').$type<ConsentRequestStatus>().notNull().default('waiting'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('consent_requests_token_unique').on(table.tokenHash),
    index('consent_requests_swimmer').on(table.swimmerId),
    index('consent_requests_waiting').on(table.expiresAt).where(sql`${table.status} = 'waiting'`),
    check('consent_requests_status', sql`${table.status} IN ('unsent', 'waiting', 'agreed', 'refused', 'expired')`),
    check('consent_requests_token', sql`${table.tokenHash} IS NOT NULL OR ${table.status} = 'unsent'`),
  ],
)

/**
 * Signed-in browsers. The cookie holds a random token; only its SHA-256 is stored, so a copy of
 * this table cannot be used to sign in. Deleting a row signs that browser out.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (table) => [index('sessions_user_id').on(table.userId), index('sessions_expires_at').on(table.expiresAt)],
)

export type OneTimeCodePurpose = 'verify_email' | 'reset_password' | 'delete_account' | 'verify_phone'

/**
 * Six-digit codes sent to a user (e-mailed, or for 'verify_phone' sent on WhatsApp to `phone`, the
 * number it proves), stored hashed; short-lived, single-use, attempt-limited.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<OneTimeCodePurpose>().notNull(),
    /** The number a 'verify_phone' code was sent to (E.164): it proves that number only. */
    phone: text('phone'),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('one_time_codes_user_purpose').on(table.userId, table.purpose),
    check('one_time_codes_purpose', sql`${table.purpose} IN ('verify_email', 'reset_password', 'delete_account', 'verify_phone')`),
    check('one_time_codes_phone', sql`(${table.purpose} = 'verify_phone') = (${table.phone} IS NOT NULL)`),
  ],
)

/**
 * Fixed-window counters for rate limits, shared by every instance: one row per key and window,
 * incremented by a single atomic upsert per hit.
 */
export const rateLimitBuckets = pgTable(
  'rate_limit_buckets',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] }), index('rate_limit_buckets_window_start').on(table.windowStart)],
)

export type OutboxStatus = 'queued' | 'sent' | 'retrying' | 'failed'
export type MailAttachment = { filename: string; contentType: string; contentBase64: string }
/** How a message travels: an e-mail over SMTP, or a WhatsApp message over the Cloud API. */
export type MessageChannel = 'email' | 'whatsapp'
/** What WhatsApp reported of a message after it took it: sent to the phone, delivered, read, or failed. */
export type WhatsAppDeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed'
/**
 * Whose data an outbox message or an audit entry is about, by structure: the account, the swimmer,
 * the booking or the camp registration it tells of (a group's camp registrations by the group's
 * first). Erasing a person finds what is theirs by these keys, never by what a text says. `{}` for
 * what is about nobody in particular: a reply to a number that wrote to the lab, a change to the lab's
 * own settings.
 */
export type About = { accountId?: number | null; swimmerId?: number | null; bookingId?: number | null; campRegistrationId?: number | null }

/**
 * Every message the site sends (e-mails and WhatsApp messages), written in the same transaction
 * that decides to send it and delivered by a background worker per channel with retries. Without
 * SMTP_URL, this table is the local mailbox. A WhatsApp message is an approved template
 * (`templateName` with `templateParams`) or, replying to someone who wrote to the lab, plain text;
 * `to` is then an E.164 number, `subject` the template's title and `text` what the person reads.
 * WhatsApp's id for a sent message (`providerMessageId`) ties its delivery statuses to it.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: serial('id').primaryKey(),
    channel: text('channel').$type<MessageChannel>().notNull().default('email'),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    attachments: jsonb('attachments').$type<MailAttachment[]>().notNull().default([]),
    templateName: text('template_name'),
    templateParams: jsonb('template_params').$type<string[]>(),
    status: text('status').$type<OutboxStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    providerMessageId: text('provider_message_id'),
    deliveryStatus: text('delivery_status').$type<WhatsAppDeliveryStatus>(),
    deliveryError: text('delivery_error'),
    deliveryUpdatedAt: timestamp('delivery_updated_at', { withTimezone: true }),
    /**
     * A private link in a WhatsApp message (a guest's booking, a waitlist offer, a form filled in with
     * the person's details): which parameter, and what it points to. The parameter keeps the link
     * without its key or personal details; the whole link is made only when the message is sent.
     */
    privateLink: jsonb('private_link').$type<MessageLinkReference>(),
    // Whose message this is, by structure: erasing a person removes their messages by these keys and by
    // the recipient, never by what the text says.
    accountId: integer('account_id').references(() => users.id, { onDelete: 'set null' }),
    swimmerId: integer('swimmer_id').references(() => swimmers.id, { onDelete: 'set null' }),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    campRegistrationId: integer('camp_registration_id').references(() => campRegistrations.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('outbox_messages_due').on(table.channel, table.status, table.nextAttemptAt),
    index('outbox_messages_to').on(table.to),
    index('outbox_messages_account').on(table.accountId).where(sql`${table.accountId} IS NOT NULL`),
    index('outbox_messages_swimmer').on(table.swimmerId).where(sql`${table.swimmerId} IS NOT NULL`),
    index('outbox_messages_booking').on(table.bookingId).where(sql`${table.bookingId} IS NOT NULL`),
    index('outbox_messages_camp_registration').on(table.campRegistrationId).where(sql`${table.campRegistrationId} IS NOT NULL`),
    uniqueIndex('outbox_messages_provider_message_id').on(table.providerMessageId),
    check('outbox_messages_status', sql`${table.status} IN ('queued', 'sent', 'retrying', 'failed')`),
    check('outbox_messages_channel', sql`${table.channel} IN ('email', 'whatsapp')`),
    check('outbox_messages_delivery_status', sql`${table.deliveryStatus} IN ('sent', 'delivered', 'read', 'failed')`),
  ],
)

/** What a private link in a WhatsApp message points to: a guest's booking, a seat offered from the waitlist, the camp form filled in for a registration. */
export type MessageLink = { kind: 'guest-booking'; reference: string } | { kind: 'waitlist-offer'; reference: string } | { kind: 'analysis-day-offer'; reference: string } | { kind: 'register-again'; registrationId: number }

/** A link of a WhatsApp message made when it is sent: the template parameter it fills (from 0) and what it points to. */
export type MessageLinkReference = { parameter: number } & MessageLink

export type WhatsAppConsentSource = 'registration' | 'account' | 'camp' | 'booking' | 'reply'

/**
 * Whether a WhatsApp number may be sent messages, per number (E.164). Only its owner opts it in: by
 * replying START, or with the code sent to it for their account (entered there, or replied).
 * A form's ticked box only asks (`requested_*`): the number is then sent one request to confirm, at
 * most once a day (`confirmation_sent_at`), and hears nothing else until its owner answers. STOP, or
 * the account's switch, opts it out. Only `opted_in` numbers get messages; the confirmation of an
 * opt-out is the last.
 */
export const whatsappConsents = pgTable(
  'whatsapp_consents',
  {
    phone: text('phone').primaryKey(),
    optedIn: boolean('opted_in').notNull(),
    optedInAt: timestamp('opted_in_at', { withTimezone: true }),
    optInWording: text('opt_in_wording'),
    optInSource: text('opt_in_source').$type<WhatsAppConsentSource>(),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    optOutSource: text('opt_out_source').$type<WhatsAppConsentSource>(),
    /** A form asked for messages to this number (its box ticked), not yet confirmed by the number's owner. */
    requestedAt: timestamp('requested_at', { withTimezone: true }),
    requestSource: text('request_source').$type<WhatsAppConsentSource>(),
    requestWording: text('request_wording'),
    /** When the number was last sent the request to confirm: at most once a day. */
    confirmationSentAt: timestamp('confirmation_sent_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('whatsapp_consents_phone_e164', sql`${table.phone} ~ '^\\+[1-9][0-9]{7,14}$'`)],
)

/**
 * The webhook notifications from WhatsApp already acted on (an incoming message's id, a status's
 * message id and status), so a notification sent again, or replayed, changes nothing twice.
 */
export const whatsappWebhookEvents = pgTable(
  'whatsapp_webhook_events',
  {
    eventKey: text('event_key').primaryKey(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('whatsapp_webhook_events_received_at').on(table.receivedAt)],
)

/**
 * Random secrets this installation generates for itself on first use (the sandbox gateway's
 * signing key, …), shared by every instance through the database.
 */
export const instanceSecrets = pgTable('instance_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * pending: seats held while the customer pays (until holdExpiresAt); confirmed: paid;
 * expired / payment_failed: never paid, seats released; cancelled: called off after confirmation;
 * refund_pending / refunded: money is on its way back (or back) to the customer.
 */
export type BookingOrigin = 'online' | 'offline' | 'complimentary'

export type BookingStatus = 'pending' | 'confirmed' | 'expired' | 'payment_failed' | 'cancelled' | 'refund_pending' | 'refunded'
export const BOOKING_STATUSES = ['pending', 'confirmed', 'expired', 'payment_failed', 'cancelled', 'refund_pending', 'refunded'] as const

/** A booked analysis session: three days for the 3-day session, one for a single session. */
export const bookings = pgTable(
  'bookings',
  {
    id: serial('id').primaryKey(),
    /** The booking id customers see and quote: SWP- and ten random digits. */
    reference: text('reference').notNull(),
    productCode: text('product_code')
      .notNull()
      .references(() => catalogueItems.code, { onDelete: 'restrict' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Who swims: a profile of the account (none for guest bookings); its name as booked in `swimmerName`. */
    swimmerId: integer('swimmer_id').references(() => swimmers.id, { onDelete: 'set null' }),
    swimmerName: text('swimmer_name').notNull(),
    /** The age in years given for someone else who swims without a profile (a guest's child), when booked. */
    swimmerAge: integer('swimmer_age'),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email').notNull(),
    customerPhone: text('customer_phone'),
    swimmingExperience: text('swimming_experience'),
    notes: text('notes'),
    /** Day 1's time slot; every day of a session has the same start. */
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    /**
     * What is charged for it: the catalogue's price when the seats were held, less `promoDiscountPaise`
     * (so the price itself is the sum of the two); never from the request.
     */
    amountPaise: integer('amount_paise').notNull(),
    /** Taken off the price by a promo code (its use in `promo_code_uses`). */
    promoDiscountPaise: integer('promo_discount_paise').notNull().default(0),
    status: text('status').$type<BookingStatus>().notNull(),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** How it was paid: online through the gateway, offline (recorded by staff), or complimentary. */
    origin: text('origin').$type<BookingOrigin>().notNull().default('online'),
    /** Marked by staff after the session. */
    attendance: text('attendance').$type<'attended' | 'no_show'>(),
    /**
     * Who made an unpaid hold, for the one-hold-at-a-time and per-network rules: the client's network
     * (an IPv4 address or an IPv6 /64) and the SHA-256 of the browser's holder cookie. Empty for
     * bookings made by staff and seats offered from the waitlist.
     */
    holderNetwork: text('holder_network'),
    holderBrowser: text('holder_browser'),
    /** Held through an analysis day's host link before its public release: one of the host's seats. */
    viaHostLink: boolean('via_host_link').notNull().default(false),
    /** Bumped at every reschedule or cancellation, so calendars replace the invitation they have. */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('bookings_reference_unique').on(table.reference),
    index('bookings_user_created').on(table.userId, table.createdAt),
    index('bookings_swimmer').on(table.swimmerId),
    index('bookings_status_hold').on(table.status, table.holdExpiresAt),
    index('bookings_unpaid_network').on(table.holderNetwork).where(sql`${table.status} = 'pending'`),
    index('bookings_unpaid_browser').on(table.holderBrowser).where(sql`${table.status} = 'pending'`),
    index('bookings_unpaid_email').on(sql`lower(${table.customerEmail})`).where(sql`${table.status} = 'pending'`),
    check('bookings_amount', sql`${table.amountPaise} >= 0 AND ${table.promoDiscountPaise} >= 0`),
    check('bookings_status', sql`${table.status} IN ('pending', 'confirmed', 'expired', 'payment_failed', 'cancelled', 'refund_pending', 'refunded')`),
    check('bookings_hold', sql`${table.status} <> 'pending' OR ${table.holdExpiresAt} IS NOT NULL`),
    check('bookings_origin', sql`${table.origin} IN ('online', 'offline', 'complimentary')`),
    check('bookings_attendance', sql`${table.attendance} IS NULL OR ${table.attendance} IN ('attended', 'no_show')`),
    check('bookings_swimmer_age', sql`${table.swimmerAge} IS NULL OR ${table.swimmerAge} BETWEEN 1 AND 120`),
  ],
)

/** One seat on one day: the time slot `startTime` of availability window `windowId` on `date`. */
export const bookingDays = pgTable(
  'booking_days',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    dayNumber: integer('day_number').notNull(),
    windowId: integer('window_id')
      .notNull()
      .references(() => availabilityWindows.id, { onDelete: 'restrict' }),
    date: date('date').notNull(),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.bookingId, table.dayNumber] }),
    index('booking_days_seat').on(table.windowId, table.startTime),
    index('booking_days_date').on(table.date),
    check('booking_days_day_number', sql`${table.dayNumber} BETWEEN 1 AND 3`),
  ],
)

/**
 * One swimmer registered for one camp and one daily batch, by anyone (no account needed). Holds a
 * seat while pending (until holdExpiresAt) or confirmed; statuses as for bookings.
 */
export const campRegistrations = pgTable(
  'camp_registrations',
  {
    id: serial('id').primaryKey(),
    /** The registration id parents see and quote: CMP- and ten random digits. */
    reference: text('reference').notNull(),
    campId: integer('camp_id')
      .notNull()
      .references(() => camps.id, { onDelete: 'restrict' }),
    batchId: integer('batch_id')
      .notNull()
      .references(() => campBatches.id, { onDelete: 'restrict' }),
    swimmerName: text('swimmer_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    /** The account that registered, and which of its swimmers; none for a guest registration. */
    accountId: integer('account_id').references(() => users.id, { onDelete: 'set null' }),
    swimmerId: integer('swimmer_id').references(() => swimmers.id, { onDelete: 'set null' }),
    /**
     * Registrations of an account's swimmers made together and paid for in one payment: each names
     * the first of them (that one its own id), under which the payment is recorded. None for a
     * registration paid for on its own.
     */
    groupId: integer('group_id').references((): AnyPgColumn => campRegistrations.id, { onDelete: 'restrict' }),
    /**
     * What is charged for this swimmer: the camp's fee when the seat was held (early-bird or regular)
     * less the sibling price's and a promo code's discounts (so the fee is the sum of the three);
     * never from the request.
     */
    amountPaise: integer('amount_paise').notNull(),
    /** Taken off the fee because an earlier swimmer of the family is registered for the same camp. */
    siblingDiscountPaise: integer('sibling_discount_paise').notNull().default(0),
    /** Taken off the fee by a promo code (its use in `promo_code_uses`, under the group's first registration). */
    promoDiscountPaise: integer('promo_discount_paise').notNull().default(0),
    status: text('status').$type<BookingStatus>().notNull(),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /**
     * Who made an unpaid hold, for the one-hold-at-a-time and per-network rules: the client's network
     * (an IPv4 address or an IPv6 /64) and the SHA-256 of the browser's holder cookie. Empty for
     * bookings made by staff and seats offered from the waitlist.
     */
    holderNetwork: text('holder_network'),
    holderBrowser: text('holder_browser'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('camp_registrations_reference_unique').on(table.reference),
    index('camp_registrations_seat').on(table.batchId, table.status),
    index('camp_registrations_email').on(table.email),
    index('camp_registrations_account').on(table.accountId),
    index('camp_registrations_group').on(table.groupId),
    index('camp_registrations_unpaid_network').on(table.holderNetwork).where(sql`${table.status} = 'pending'`),
    index('camp_registrations_unpaid_browser').on(table.holderBrowser).where(sql`${table.status} = 'pending'`),
    // One live registration per swimmer (name and e-mail, in any letter case) and camp.
    uniqueIndex('camp_registrations_one_per_swimmer')
      .on(table.campId, sql`lower(${table.email})`, sql`lower(${table.swimmerName})`)
      .where(sql`${table.status} IN ('pending', 'confirmed')`),
    // A promo code may take a fee to nothing (a free registration); the discounts never below it.
    check('camp_registrations_amount', sql`${table.amountPaise} >= 0 AND ${table.siblingDiscountPaise} >= 0 AND ${table.promoDiscountPaise} >= 0`),
    check('camp_registrations_status', sql`${table.status} IN ('pending', 'confirmed', 'expired', 'payment_failed', 'cancelled', 'refund_pending', 'refunded')`),
    check('camp_registrations_hold', sql`${table.status} <> 'pending' OR ${table.holdExpiresAt} IS NOT NULL`),
  ],
)

/**
 * What a parent in the camp line was told: a seat held for them to pay for, the batch full, refused
 * with a message (an unpaid hold elsewhere, already registered…), or too many attempts.
 */
export type CampLineOutcome = 'seat' | 'full' | 'refused' | 'limited'

/**
 * Camp registrations in the order they arrived. Every registration joins this line and seats are
 * given from it in arrival order, one instance settling at a time, so a rush of parents is
 * answered at once instead of queueing for the batch's lock. A row keeps what the parent typed
 * until a day after it is settled.
 */
export const campLine = pgTable(
  'camp_line',
  {
    id: serial('id').primaryKey(),
    campCode: text('camp_code').notNull(),
    batchCode: text('batch_code').notNull(),
    swimmerName: text('swimmer_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    /** Who asked, for the rules on unpaid holds (see holders.server.ts). */
    holderUserId: integer('holder_user_id').references(() => users.id, { onDelete: 'set null' }),
    holderNetwork: text('holder_network').notNull(),
    holderBrowser: text('holder_browser'),
    outcome: text('outcome').$type<CampLineOutcome>(),
    /** Why the batch was full or the parent refused, as the parent is told. */
    message: text('message'),
    registrationId: integer('registration_id').references(() => campRegistrations.id, { onDelete: 'set null' }),
    /** The promo code typed on the form, applied once a seat is held: kept here, never in the address of the place's page. */
    promoCode: text('promo_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    index('camp_line_waiting').on(table.id).where(sql`${table.outcome} IS NULL`),
    index('camp_line_settled_at').on(table.settledAt),
    check('camp_line_outcome', sql`${table.outcome} IN ('seat', 'full', 'refused', 'limited')`),
  ],
)

/** waiting → offered (a seat is held for them) → registered, or expired / cancelled. */
export type WaitlistStatus = 'waiting' | 'offered' | 'registered' | 'expired' | 'cancelled'

/** Parents waiting for a seat in a full batch, first come first served. */
export const campWaitlist = pgTable(
  'camp_waitlist',
  {
    id: serial('id').primaryKey(),
    campId: integer('camp_id')
      .notNull()
      .references(() => camps.id, { onDelete: 'restrict' }),
    batchId: integer('batch_id')
      .notNull()
      .references(() => campBatches.id, { onDelete: 'restrict' }),
    swimmerName: text('swimmer_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    status: text('status').$type<WaitlistStatus>().notNull().default('waiting'),
    /** The registration holding the seat offered to them. */
    registrationId: integer('registration_id').references(() => campRegistrations.id, { onDelete: 'set null' }),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    /**
     * When the parent clicked the link in the waitlist e-mail. Only confirmed entries keep a place in
     * the queue and are offered seats: an address nobody reads holds nothing.
     */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** The client's network that joined (an IPv4 address or an IPv6 /64), for the per-network limit. */
    holderNetwork: text('holder_network'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('camp_waitlist_queue').on(table.batchId, table.status, table.id),
    uniqueIndex('camp_waitlist_one_per_swimmer')
      .on(table.batchId, sql`lower(${table.email})`, sql`lower(${table.swimmerName})`)
      .where(sql`${table.status} IN ('waiting', 'offered')`),
    check('camp_waitlist_status', sql`${table.status} IN ('waiting', 'offered', 'registered', 'expired', 'cancelled')`),
  ],
)

/** initiated: recorded, not yet at the gateway; pending: at the gateway; then completed or failed. */
export type PaymentState = 'initiated' | 'pending' | 'completed' | 'failed'

/** One attempt to pay for a booking at the gateway, under its own unique order id. */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    orderId: text('order_id').notNull(),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'restrict' }),
    campRegistrationId: integer('camp_registration_id').references(() => campRegistrations.id, { onDelete: 'restrict' }),
    gateway: text('gateway').notNull(),
    amountPaise: integer('amount_paise').notNull(),
    state: text('state').$type<PaymentState>().notNull().default('initiated'),
    gatewayOrderId: text('gateway_order_id'),
    transactionId: text('transaction_id'),
    paymentMode: text('payment_mode'),
    /** The gateway's hosted page for this order, so a customer who comes back can resume it. */
    checkoutUrl: text('checkout_url'),
    /** The gateway stops accepting payment for the order at this instant. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    failureReason: text('failure_reason'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When reconciliation next asks the gateway; null once the state is final. */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    checkCount: integer('check_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('payments_order_id_unique').on(table.orderId),
    index('payments_booking').on(table.bookingId),
    index('payments_camp_registration').on(table.campRegistrationId),
    check('payments_pays_for_one_thing', sql`(${table.bookingId} IS NULL) <> (${table.campRegistrationId} IS NULL)`),
    index('payments_transaction').on(table.transactionId),
    index('payments_due_check').on(table.nextCheckAt),
    // A free order (a promo code took the whole price) is recorded as paid without a gateway.
    check('payments_amount', sql`${table.amountPaise} > 0 OR (${table.amountPaise} = 0 AND ${table.gateway} = 'free')`),
    check('payments_state', sql`${table.state} IN ('initiated', 'pending', 'completed', 'failed')`),
  ],
)

/**
 * Everything a gateway told us about an order or a refund (notifications and status answers), with
 * what we made of it. The unique key recognises a repeated notification.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: serial('id').primaryKey(),
    gateway: text('gateway').notNull(),
    eventKey: text('event_key').notNull(),
    source: text('source').$type<'webhook' | 'status'>().notNull(),
    orderId: text('order_id'),
    refundId: text('refund_id'),
    state: text('state'),
    amountPaise: integer('amount_paise'),
    outcome: text('outcome').notNull(),
    payload: jsonb('payload'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('payment_events_gateway_key_unique').on(table.gateway, table.eventKey), index('payment_events_order').on(table.orderId)],
)

export type RefundState = 'pending' | 'completed' | 'failed'

/** Money going back to the customer for a payment, through the gateway that took it. */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    refundId: text('refund_id').notNull(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    amountPaise: integer('amount_paise').notNull(),
    /** The one registration refunded, when the payment paid for several (its fee only); none when the whole payment goes back. */
    campRegistrationId: integer('camp_registration_id').references(() => campRegistrations.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    state: text('state').$type<RefundState>().notNull().default('pending'),
    gatewayRefundId: text('gateway_refund_id'),
    /** Set once the gateway has accepted the refund request. */
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    checkCount: integer('check_count').notNull().default(0),
    lastError: text('last_error'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** How staff repaid the customer themselves after the gateway failed the refund (then state is completed). */
    settledByHand: text('settled_by_hand'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('refunds_refund_id_unique').on(table.refundId),
    index('refunds_payment').on(table.paymentId),
    index('refunds_due').on(table.nextCheckAt),
    check('refunds_amount', sql`${table.amountPaise} > 0`),
    check('refunds_state', sql`${table.state} IN ('pending', 'completed', 'failed')`),
  ],
)

export type SandboxOrderState = 'PENDING' | 'COMPLETED' | 'FAILED'

/**
 * The built-in sandbox gateway's own records. It imitates a separate payment company, so it keeps
 * its books apart from ours and our code reaches it only over HTTP.
 */
export const sandboxGatewayOrders = pgTable('sandbox_gateway_orders', {
  merchantOrderId: text('merchant_order_id').primaryKey(),
  gatewayOrderId: text('gateway_order_id').notNull().unique(),
  amountPaise: integer('amount_paise').notNull(),
  description: text('description').notNull(),
  customerName: text('customer_name').notNull(),
  redirectUrl: text('redirect_url').notNull(),
  callbackUrl: text('callback_url').notNull(),
  state: text('state').$type<SandboxOrderState>().notNull().default('PENDING'),
  transactionId: text('transaction_id'),
  paymentMode: text('payment_mode'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const sandboxGatewayRefunds = pgTable('sandbox_gateway_refunds', {
  merchantRefundId: text('merchant_refund_id').primaryKey(),
  merchantOrderId: text('merchant_order_id')
    .notNull()
    .references(() => sandboxGatewayOrders.merchantOrderId),
  gatewayRefundId: text('gateway_refund_id').notNull().unique(),
  amountPaise: integer('amount_paise').notNull(),
  state: text('state').$type<'PENDING' | 'COMPLETED' | 'FAILED'>().notNull().default('PENDING'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** A counter of numbers taken, one row per series and financial year, taken from by one atomic upsert. */
function seriesSequences<Name extends string>(name: Name) {
  return pgTable(
    name,
    {
      series: text('series').notNull().default(''),
      financialYear: integer('financial_year').notNull(),
      lastNumber: integer('last_number').notNull(),
    },
    (table) => [primaryKey({ name: `${name}_series_financial_year_pk`, columns: [table.series, table.financialYear] })],
  )
}

/**
 * The last receipt number used in each invoice series and Indian financial year (April to March, by
 * its start year): the lab's own series is '', a venue's registration in another state its prefix.
 */
export const receiptSequences = seriesSequences('receipt_sequences')

/** How a receipt taxes its supply: CGST and SGST within the seller's state, IGST across states, or no tax. */
export type TaxKind = 'cgst_sgst' | 'igst' | 'none'

/**
 * One receipt per completed payment, numbered in sequence within its series and financial year, with
 * what it was issued with: where the service is performed (the place of supply), the seller's GSTIN
 * (empty: a plain receipt), the tax and its rate. Rendering reads these, never today's settings.
 */
export const receipts = pgTable(
  'receipts',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    number: text('number').notNull(),
    financialYear: integer('financial_year').notNull(),
    sequence: integer('sequence').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** '' for the lab's own series, else the prefix of the venue registration's. */
    series: text('series').notNull().default(''),
    sellerGstin: text('seller_gstin').notNull().default(''),
    taxKind: text('tax_kind').$type<TaxKind>().notNull().default('none'),
    gstRateBasisPoints: integer('gst_rate_basis_points'),
    supplyVenueName: text('supply_venue_name').notNull().default(''),
    supplyVenueAddress: text('supply_venue_address').notNull().default(''),
    supplyStateCode: text('supply_state_code').notNull(),
  },
  (table) => [
    uniqueIndex('receipts_payment_unique').on(table.paymentId),
    uniqueIndex('receipts_number_unique').on(table.number),
    uniqueIndex('receipts_series_year_sequence_unique').on(table.series, table.financialYear, table.sequence),
    check(
      'receipts_tax',
      sql`(${table.taxKind} = 'none' AND ${table.gstRateBasisPoints} IS NULL) OR (${table.taxKind} IN ('cgst_sgst', 'igst') AND ${table.gstRateBasisPoints} > 0 AND ${table.sellerGstin} <> '')`,
    ),
    check('receipts_supply_state_code', sql`${table.supplyStateCode} ~ '^[0-9]{2}$'`),
  ],
)

/**
 * Reminders already sent: the unique key lets exactly one instance claim each one (the claim and
 * the e-mail are written in one transaction).
 */
export const remindersSent = pgTable(
  'reminders_sent',
  {
    kind: text('kind').$type<'session' | 'camp'>().notNull(),
    targetId: integer('target_id').notNull(),
    onDate: date('on_date').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.targetId, table.onDate] })],
)

export type VideoLink = { label: string; url: string }

/** The personalised report staff deliver for a booking: PDF files, video links and a note. */
export const bookingReports = pgTable(
  'booking_reports',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'restrict' }),
    note: text('note').notNull().default(''),
    videoLinks: jsonb('video_links').$type<VideoLink[]>().notNull().default([]),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('booking_reports_booking_unique').on(table.bookingId)],
)

/** A file of a report; its bytes live in report storage (DATA_DIR/reports by default) under storageKey. */
export const reportFiles = pgTable(
  'report_files',
  {
    id: serial('id').primaryKey(),
    reportId: integer('report_id')
      .notNull()
      .references(() => bookingReports.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('report_files_storage_key_unique').on(table.storageKey), index('report_files_report').on(table.reportId)],
)

/** A single time slot staff have closed (a window stays open for its other time slots). */
export const closedTimeSlots = pgTable(
  'closed_time_slots',
  {
    windowId: integer('window_id')
      .notNull()
      .references(() => availabilityWindows.id, { onDelete: 'cascade' }),
    startTime: time('start_time').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.windowId, table.startTime] })],
)

/** Every change staff make: who, what, when, and the thing before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    summary: text('summary').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    /**
     * The values naming a person (a customer's or swimmer's name, an address), stored apart from the
     * summary, which refers to them as `{key}`: erasing the person replaces these values and nothing else.
     */
    personal: jsonb('personal').$type<Record<string, string>>(),
    // Whose data the entry is about, by structure (no foreign keys: the log outlives what it names).
    accountId: integer('account_id'),
    swimmerId: integer('swimmer_id'),
    bookingId: integer('booking_id'),
    campRegistrationId: integer('camp_registration_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('audit_log_created').on(table.createdAt),
    index('audit_log_entity').on(table.entityType, table.entityId),
    index('audit_log_actor').on(table.actorId).where(sql`${table.actorId} IS NOT NULL`),
    index('audit_log_account').on(table.accountId).where(sql`${table.accountId} IS NOT NULL`),
    index('audit_log_swimmer').on(table.swimmerId).where(sql`${table.swimmerId} IS NOT NULL`),
    index('audit_log_booking').on(table.bookingId).where(sql`${table.bookingId} IS NOT NULL`),
    index('audit_log_camp_registration').on(table.campRegistrationId).where(sql`${table.campRegistrationId} IS NOT NULL`),
  ],
)

/** Whether a larger or a smaller figure is the better one (a faster time is smaller; a longer stroke larger). */
export type BetterWhen = 'higher' | 'lower'

/** A chapter mark in a clip: what happens from this many seconds into the clip. */
export type ClipChapter = { kind: string; seconds: number }

/**
 * The analysis of a booking's sessions: what staff found, recorded as a draft and published to the
 * swimmer's account. It belongs to the booking's swimmer profile when the booking has one (a guest's
 * single session has none), and goes with that profile when the family deletes it.
 */
export const analyses = pgTable(
  'analyses',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    swimmerId: integer('swimmer_id').references(() => swimmers.id, { onDelete: 'cascade' }),
    poolLengthMetres: integer('pool_length_metres').notNull().default(25),
    /** A few sentences for the family at the top of the page. */
    summary: text('summary').notNull().default(''),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** The lab day from which the swimmer is invited back (set on publishing), and when that invitation went out. */
    nextAnalysisOn: date('next_analysis_on'),
    invitedBackAt: timestamp('invited_back_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('analyses_booking_unique').on(table.bookingId), index('analyses_swimmer').on(table.swimmerId), index('analyses_next').on(table.nextAnalysisOn).where(sql`${table.invitedBackAt} IS NULL`)],
)

/** An event analysed: a stroke over a distance (50 m freestyle). */
export const analysisEvents = pgTable(
  'analysis_events',
  {
    id: serial('id').primaryKey(),
    analysisId: integer('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    stroke: text('stroke').notNull(),
    distanceMetres: integer('distance_metres').notNull(),
    position: integer('position').notNull().default(0),
  },
  (table) => [uniqueIndex('analysis_events_unique').on(table.analysisId, table.stroke, table.distanceMetres)],
)

/** One measured figure of an event, with its unit and which way is better (a metric of the list, or one staff added). */
export const analysisMetrics = pgTable(
  'analysis_metrics',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => analysisEvents.id, { onDelete: 'cascade' }),
    metricKey: text('metric_key').notNull(),
    label: text('label').notNull(),
    unit: text('unit').notNull(),
    betterWhen: text('better_when').$type<BetterWhen>().notNull(),
    value: doublePrecision('value').notNull(),
    position: integer('position').notNull().default(0),
  },
  (table) => [uniqueIndex('analysis_metrics_unique').on(table.eventId, table.metricKey), check('analysis_metrics_better_when', sql`${table.betterWhen} IN ('higher', 'lower')`)],
)

/**
 * A reference value results are shown against: for a stroke, distance, age group and gender, the
 * figure of a level ("state finalist", "national junior finalist").
 */
export const referenceBands = pgTable(
  'reference_bands',
  {
    id: serial('id').primaryKey(),
    stroke: text('stroke').notNull(),
    distanceMetres: integer('distance_metres').notNull(),
    metricKey: text('metric_key').notNull(),
    ageMin: integer('age_min').notNull(),
    ageMax: integer('age_max').notNull(),
    /** 'male', 'female' or 'any'. */
    gender: text('gender').notNull(),
    level: text('level').notNull(),
    value: doublePrecision('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('reference_bands_unique').on(table.stroke, table.distanceMetres, table.metricKey, table.ageMin, table.ageMax, table.gender, table.level),
    check('reference_bands_ages', sql`${table.ageMin} <= ${table.ageMax}`),
  ],
)

/** What staff found: what, why it matters, and how urgent it is. */
export const analysisFindings = pgTable(
  'analysis_findings',
  {
    id: serial('id').primaryKey(),
    analysisId: integer('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    whyItMatters: text('why_it_matters').notNull().default(''),
    /** 'high', 'medium' or 'low'. */
    priority: text('priority').notNull(),
    position: integer('position').notNull().default(0),
  },
  (table) => [index('analysis_findings_analysis').on(table.analysisId)],
)

/** A drill that works on a finding. */
export const findingDrills = pgTable(
  'finding_drills',
  {
    id: serial('id').primaryKey(),
    findingId: integer('finding_id')
      .notNull()
      .references(() => analysisFindings.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    instructions: text('instructions').notNull().default(''),
    videoUrl: text('video_url'),
    position: integer('position').notNull().default(0),
  },
  (table) => [index('finding_drills_finding').on(table.findingId)],
)

/**
 * A video clip of an analysis. Its bytes live in file storage (DATA_DIR/analysis-files, or an S3
 * bucket) under storageKey, the finished upload's id; the poster image likewise under posterKey (a
 * WebP), and the same picture as AVIF under posterAvifKey for the browsers that take it (null for a
 * poster set before the site kept one: the WebP serves every browser).
 */
export const analysisClips = pgTable(
  'analysis_clips',
  {
    id: serial('id').primaryKey(),
    analysisId: integer('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    eventId: integer('event_id').references(() => analysisEvents.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    angle: text('angle').notNull(),
    chapters: jsonb('chapters').$type<ClipChapter[]>().notNull().default([]),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    posterKey: text('poster_key'),
    posterContentType: text('poster_content_type'),
    posterAvifKey: text('poster_avif_key'),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('analysis_clips_analysis').on(table.analysisId), uniqueIndex('analysis_clips_storage_key_unique').on(table.storageKey)],
)

/**
 * A link that lets a coach see a swimmer's results (all of them, or one analysis) without an
 * account. Only a hash of its token is kept; it ends at expiresAt or when the account revokes it.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    swimmerId: integer('swimmer_id')
      .notNull()
      .references(() => swimmers.id, { onDelete: 'cascade' }),
    analysisId: integer('analysis_id').references(() => analyses.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    coachEmail: text('coach_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('share_links_token_unique').on(table.tokenHash), index('share_links_swimmer').on(table.swimmerId)],
)

/** What a promo code can apply to: the 3-day analysis sessions, single sessions, camps. */
export type PromoProduct = 'three_day' | 'single' | 'camp'

/**
 * Promo codes staff create: a percentage (basis points) or an amount (paise) off what it applies to,
 * within a validity window, with a total number of uses and a number per customer (an account, or
 * an e-mail address for guests). `code` is stored upper-case, so codes compare case-insensitively.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    discountKind: text('discount_kind').$type<DiscountKind>().notNull(),
    /** Basis points for a percentage (1000 = 10%), paise for an amount. */
    discountValue: integer('discount_value').notNull(),
    /** Empty: everything the lab sells. */
    products: text('products').array().$type<PromoProduct[]>().notNull().default(sql`'{}'::text[]`),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    /** Uses in all; none: no limit. */
    maxUses: integer('max_uses'),
    /** Uses by one account (or one e-mail address for guests); none: no limit. */
    maxUsesPerCustomer: integer('max_uses_per_customer'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('promo_codes_code_unique').on(table.code),
    check('promo_codes_discount', sql`(${table.discountKind} = 'percent' AND ${table.discountValue} BETWEEN 1 AND 10000) OR (${table.discountKind} = 'amount' AND ${table.discountValue} > 0)`),
    check('promo_codes_uses', sql`(${table.maxUses} IS NULL OR ${table.maxUses} >= 1) AND (${table.maxUsesPerCustomer} IS NULL OR ${table.maxUsesPerCustomer} >= 1)`),
    check('promo_codes_window', sql`${table.validFrom} IS NULL OR ${table.validUntil} IS NULL OR ${table.validUntil} > ${table.validFrom}`),
  ],
)

export type PromoUseState = 'held' | 'used' | 'released'

/**
 * A promo code applied to an order: held while the order waits for payment, used once it is paid,
 * released (given back) when its payment fails or its hold expires. The order is a booking, or a
 * camp registration (the group's first one when several swimmers pay at once).
 */
export const promoCodeUses = pgTable(
  'promo_code_uses',
  {
    id: serial('id').primaryKey(),
    promoCodeId: integer('promo_code_id')
      .notNull()
      .references(() => promoCodes.id, { onDelete: 'restrict' }),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'restrict' }),
    campRegistrationId: integer('camp_registration_id').references(() => campRegistrations.id, { onDelete: 'restrict' }),
    /** Whose use it counts as: `account:<id>`, or `email:<address>` for a guest. */
    customerKey: text('customer_key').notNull(),
    discountPaise: integer('discount_paise').notNull(),
    state: text('state').$type<PromoUseState>().notNull().default('held'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('promo_code_uses_code').on(table.promoCodeId, table.state),
    index('promo_code_uses_customer').on(table.promoCodeId, table.customerKey),
    // One code at a time on an order.
    uniqueIndex('promo_code_uses_booking').on(table.bookingId).where(sql`${table.state} <> 'released'`),
    uniqueIndex('promo_code_uses_camp_registration').on(table.campRegistrationId).where(sql`${table.state} <> 'released'`),
    check('promo_code_uses_order', sql`(${table.bookingId} IS NULL) <> (${table.campRegistrationId} IS NULL)`),
    check('promo_code_uses_discount', sql`${table.discountPaise} >= 0`),
    check('promo_code_uses_state', sql`${table.state} IN ('held', 'used', 'released')`),
  ],
)

/** The last credit note number taken in each series (its receipt's) and financial year (Asia/Kolkata). */
export const creditNoteSequences = seriesSequences('credit_note_sequences')

/**
 * A credit note for each completed refund, against the receipt (invoice) of the payment refunded:
 * numbered in its own series within its financial year, with the tax it reverses as charged then
 * (all zero when no GSTIN was set: a plain refund note).
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: serial('id').primaryKey(),
    refundId: integer('refund_id')
      .notNull()
      .references(() => refunds.id, { onDelete: 'restrict' }),
    receiptId: integer('receipt_id')
      .notNull()
      .references(() => receipts.id, { onDelete: 'restrict' }),
    number: text('number').notNull(),
    /** The series of the receipt it is against. */
    series: text('series').notNull().default(''),
    financialYear: integer('financial_year').notNull(),
    sequence: integer('sequence').notNull(),
    amountPaise: integer('amount_paise').notNull(),
    /** The seller's GSTIN and rate when issued; empty and none for a plain refund note. */
    gstin: text('gstin').notNull().default(''),
    gstRateBasisPoints: integer('gst_rate_basis_points'),
    taxablePaise: integer('taxable_paise').notNull(),
    cgstPaise: integer('cgst_paise').notNull().default(0),
    sgstPaise: integer('sgst_paise').notNull().default(0),
    igstPaise: integer('igst_paise').notNull().default(0),
    reason: text('reason').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('credit_notes_refund_unique').on(table.refundId),
    uniqueIndex('credit_notes_number_unique').on(table.number),
    uniqueIndex('credit_notes_series_year_sequence_unique').on(table.series, table.financialYear, table.sequence),
    index('credit_notes_receipt').on(table.receiptId),
    check('credit_notes_amount', sql`${table.amountPaise} > 0 AND ${table.taxablePaise} + ${table.cgstPaise} + ${table.sgstPaise} + ${table.igstPaise} = ${table.amountPaise}`),
  ],
)

/** One file the public pages can show, made from an upload: its format, size in pixels and content-hashed name. */
export type MediaVariant = { format: 'avif' | 'webp' | 'jpeg' | 'mp4'; width: number; height: number; name: string; bytes: number }

/**
 * A photo or a short video loop of the lab's own, uploaded by staff for the public pages. The
 * upload (`originalKey`) is kept private and never served: the background pipeline makes the
 * public files (`variants`), named after their content, with every piece of metadata (a phone's
 * GPS position above all) left behind. Nothing shows it until it has alt text, or staff have
 * said it is decorative.
 */
export const mediaItems = pgTable(
  'media_items',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<'image' | 'video'>().notNull(),
    /** What it shows, which decides where it may be used and the smallest size it may have. */
    collection: text('collection').notNull(),
    /** The staff's own name for it (the uploaded file's name to begin with). */
    title: text('title').notNull(),
    altText: text('alt_text').notNull().default(''),
    decorative: boolean('decorative').notNull().default(false),
    /** processing (waiting for the pipeline), ready, or failed (with the reason). */
    status: text('status').$type<'processing' | 'ready' | 'failed'>().notNull().default('processing'),
    failure: text('failure'),
    originalKey: text('original_key').notNull(),
    originalType: text('original_type').notNull(),
    originalBytes: integer('original_bytes').notNull(),
    /** Upright, as a visitor sees it (a portrait phone photo is taller than wide). */
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    variants: jsonb('variants').$type<MediaVariant[]>().notNull().default([]),
    /** A tiny blurred copy (a data: URL of a few hundred bytes), shown while the photo loads. */
    placeholder: text('placeholder'),
    /** A video loop's still, a photo of the library shown before and instead of the video. */
    posterId: integer('poster_id').references((): AnyPgColumn => mediaItems.id, { onDelete: 'set null' }),
    durationMs: integer('duration_ms'),
    hasSound: boolean('has_sound'),
    /** While a worker makes the public files; a claim that outlives its worker is taken again. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (table) => [
    index('media_items_pending').on(table.createdAt).where(sql`${table.status} = 'processing'`),
    uniqueIndex('media_items_original_key_unique').on(table.originalKey),
    check('media_items_kind', sql`${table.kind} IN ('image', 'video')`),
    check('media_items_status', sql`${table.status} IN ('processing', 'ready', 'failed')`),
    check('media_items_size', sql`${table.width} > 0 AND ${table.height} > 0 AND ${table.originalBytes} > 0`),
  ],
)

export type PartnerKind = 'partner' | 'venue'

/**
 * A partner of the lab or a venue it works at, shown on the home and about pages with its logo (a
 * partner logo of the media library, or a venue's photo) and, when it has one, a link to its site.
 * Staff order them (`position`) and may hide one without deleting it. The library refuses to delete
 * a logo in use; the foreign key only keeps the row should the photo go all the same.
 */
export const partners = pgTable(
  'partners',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<PartnerKind>().notNull(),
    name: text('name').notNull(),
    /** An https address, or none. */
    link: text('link'),
    logoId: integer('logo_id').references(() => mediaItems.id, { onDelete: 'set null' }),
    position: integer('position').notNull(),
    shown: boolean('shown').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('partners_logo').on(table.logoId),
    index('partners_position').on(table.position, table.id),
    check('partners_kind', sql`${table.kind} IN ('partner', 'venue')`),
    check('partners_link', sql`${table.link} IS NULL OR ${table.link} LIKE 'https://%'`),
  ],
)

/** Where a testimonial stands: asked, agreed (shown on the site), declined, withdrawn, or its link ran out unanswered. */
export type TestimonialStatus = 'waiting' | 'agreed' | 'declined' | 'withdrawn' | 'expired'

/**
 * A person's words for the public pages, with their name and role, shown only once that person
 * (their parent or guardian when they are under 18, `aboutMinor`) has agreed through a link e-mailed
 * to `email`: never a box staff tick. The link's token is random and only its SHA-256 is kept. What
 * they agreed to is kept word for word (`agreedText`) with its SHA-256 (`textVersion`); changing the
 * words, name, role or photo afterwards takes it off the site until they agree again. The person
 * may have no account, so nothing here is found by an account's e-mail address.
 */
export const testimonials = pgTable(
  'testimonials',
  {
    id: serial('id').primaryKey(),
    quote: text('quote').notNull(),
    name: text('name').notNull(),
    /** "parent of a 12-year-old", "national-level swimmer", "coach, <academy>". */
    role: text('role').notNull(),
    /** A portrait of the media library; deleting one in use is refused there. */
    photoId: integer('photo_id').references(() => mediaItems.id, { onDelete: 'set null' }),
    /** The address asked: the speaker's, or their parent's or guardian's when `aboutMinor`. */
    email: text('email').notNull(),
    aboutMinor: boolean('about_minor').notNull().default(false),
    status: text('status').$type<TestimonialStatus>().notNull().default('waiting'),
    /** SHA-256 of the open link's token; null once it is answered or replaced. */
    tokenHash: text('token_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the latest request was e-mailed, and how many were e-mailed that lab day (a bound on resending). */
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    sendsThatDay: integer('sends_that_day').notNull().default(1),
    agreedAt: timestamp('agreed_at', { withTimezone: true }),
    /** Exactly what the page showed when they agreed: the words, name, role, photo, and who agreed. */
    agreedText: text('agreed_text'),
    /** SHA-256 of `agreedText`. */
    textVersion: text('text_version'),
    declinedAt: timestamp('declined_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    withdrawnBy: text('withdrawn_by').$type<'person' | 'staff'>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('testimonials_token_hash_unique').on(table.tokenHash),
    index('testimonials_shown').on(table.agreedAt).where(sql`${table.status} = 'agreed'`),
    check('testimonials_status', sql`${table.status} IN ('waiting', 'agreed', 'declined', 'withdrawn', 'expired')`),
    check('testimonials_withdrawn_by', sql`${table.withdrawnBy} IS NULL OR ${table.withdrawnBy} IN ('person', 'staff')`),
    check('testimonials_lengths', sql`char_length(${table.quote}) BETWEEN 1 AND 600 AND char_length(${table.role}) BETWEEN 1 AND 80`),
    check(
      'testimonials_agreement',
      sql`${table.status} <> 'agreed' OR (${table.agreedAt} IS NOT NULL AND ${table.agreedText} IS NOT NULL AND ${table.textVersion} IS NOT NULL)`,
    ),
  ],
)

/** A reference level of a sample's figure, as the results page showed it when the sample was made. */
export type SampleBand = { level: string; value: number }

/** One figure of a sample analysis, frozen: its value, the previous value and change as shown, and the reference levels. */
export type SampleMetric = { key: string; label: string; unit: string; betterWhen: BetterWhen; value: number; previous: number | null; change: number | null; better: boolean | null; bands: SampleBand[] }

/** One event of a sample analysis (50 m freestyle) with its figures. */
export type SampleEvent = { stroke: string; distanceMetres: number; label: string; metrics: SampleMetric[] }

/** A finding of a sample analysis with its drills, as written (staff may edit them on the sample). */
export type SampleFinding = { title: string; whyItMatters: string; priority: string; drills: Array<{ name: string; instructions: string; videoUrl: string | null }> }

/**
 * The public sample of a results page ("see what you get"): a copy with its own id, never a flag on
 * a family's analysis. It holds no name, date of birth, booking, analysis or clip of the family's,
 * so nothing done to theirs afterwards (an edit, an erasure) reaches it. `family_shared` is copied
 * from a family's published analysis with their written agreement, which staff record in
 * `agreementNote` (who and when: `createdBy`, `createdAt`); `lab_recorded` is the lab's own (a lab
 * member swimming). At most one is published at a time.
 */
export const sampleAnalyses = pgTable(
  'sample_analyses',
  {
    id: serial('id').primaryKey(),
    status: text('status').$type<'draft' | 'published' | 'withdrawn'>().notNull().default('draft'),
    source: text('source').$type<'family_shared' | 'lab_recorded'>().notNull(),
    /** Who swam, without identifying them: "Sample swimmer, 13, competitive". */
    swimmerDescription: text('swimmer_description').notNull(),
    summary: text('summary').notNull().default(''),
    poolLengthMetres: integer('pool_length_metres').notNull(),
    events: jsonb('events').$type<SampleEvent[]>().notNull().default([]),
    findings: jsonb('findings').$type<SampleFinding[]>().notNull().default([]),
    /** How and when the family agreed in writing (required for `family_shared`). */
    agreementNote: text('agreement_note').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The staff member who made the copy and recorded the agreement, kept when their account goes. */
    createdByEmail: text('created_by_email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('sample_analyses_one_published').on(table.status).where(sql`${table.status} = 'published'`),
    check('sample_analyses_status', sql`${table.status} IN ('draft', 'published', 'withdrawn')`),
    check('sample_analyses_source', sql`${table.source} IN ('family_shared', 'lab_recorded')`),
    check('sample_analyses_agreement', sql`${table.source} <> 'family_shared' OR length(trim(${table.agreementNote})) > 0`),
  ],
)
