import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'

/** Every price the site shows, in paise. `regularPricePaise` is the struck-through price, if any. */
export const catalogueItems = pgTable(
  'catalogue_items',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    tagline: text('tagline').notNull().default(''),
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

export type TeamMember = { name: string; role: string; bio: string; placeholder: boolean }
export type Coach = { name: string; credentials: string; placeholder: boolean }
export type SocialLinks = { linkedin: string; instagram: string; twitter: string }

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
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('site_settings_single_row', sql`${table.id} = 1`)],
)

export type TimeRange = { start: string; end: string }

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
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('camps_code_unique').on(table.code),
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
    capacity: integer('capacity').notNull(),
    seatsTaken: integer('seats_taken').notNull().default(0),
  },
  (table) => [
    uniqueIndex('camp_batches_camp_code_unique').on(table.campId, table.code),
    check('camp_batches_capacity', sql`${table.seatsTaken} >= 0 AND ${table.seatsTaken} <= ${table.capacity}`),
  ],
)

/** An availability window on one date; time slots are cut from it by `slotDurationMinutes`. */
export const slots = pgTable(
  'slots',
  {
    id: serial('id').primaryKey(),
    date: date('date').notNull(),
    startTime: time('start_time'),
    endTime: time('end_time'),
    slotDurationMinutes: integer('slot_duration_minutes').default(60),
    capacity: integer('capacity').notNull().default(1),
    isHoliday: boolean('is_holiday').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('slots_capacity_positive', sql`${table.capacity} >= 1`),
    check('slots_duration_positive', sql`${table.slotDurationMinutes} IS NULL OR ${table.slotDurationMinutes} > 0`),
  ],
)

/**
 * People with an account: customers (who register themselves) and the lab's staff (`isAdmin`).
 * The e-mail address is stored lower-cased, so the unique index compares addresses
 * case-insensitively. Profile fields are empty for staff accounts created from the command line.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    phone: text('phone'),
    dob: date('dob'),
    gender: text('gender'),
    swimmingExperience: text('swimming_experience'),
    currentLocation: text('current_location'),
    academyName: text('academy_name'),
    coachName: text('coach_name'),
    specialization: text('specialization'),
    otherSpecialization: text('other_specialization'),
    participateInEvents: boolean('participate_in_events'),
    strokeBestTime: text('stroke_best_time'),
    howDidYouKnow: text('how_did_you_know'),
    otherSource: text('other_source'),
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

export type OneTimeCodePurpose = 'verify_email' | 'reset_password'

/** Six-digit codes e-mailed to a user, stored hashed; short-lived, single-use, attempt-limited. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<OneTimeCodePurpose>().notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('one_time_codes_user_purpose').on(table.userId, table.purpose),
    check('one_time_codes_purpose', sql`${table.purpose} IN ('verify_email', 'reset_password')`),
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

/**
 * Every e-mail the site sends, written in the same request that decides to send it and delivered
 * by a background worker with retries. Without SMTP_URL, this table is the local mailbox.
 */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    attachments: jsonb('attachments').$type<MailAttachment[]>().notNull().default([]),
    status: text('status').$type<OutboxStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('outbox_emails_due').on(table.status, table.nextAttemptAt),
    check('outbox_emails_status', sql`${table.status} IN ('queued', 'sent', 'retrying', 'failed')`),
  ],
)
