// The rules of the catalogue and settings forms, used by the admin actions and, in the browser,
// for validation as you type; the domain module checks the invariants that matter for money and tax
// again with the same predicates. Nothing server-only may be imported here.
import { z } from 'zod'
import { optionalText, requiredText } from '~/lib/text-fields'
import { isUnknownNumber, toE164 } from '~/lib/phone'
import { NO_SUCH_NUMBER } from '~/lib/phone-field'
import { GSTIN_FORMAT } from '~/lib/gstin'
import { percentToBasisPoints, rupeesToPaise } from '~/lib/money'
import { personNameField } from '~/modules/forms/fields'
import { photoIdField } from '~/modules/media/schemas'
import { PAGE_PICTURE_SLOTS, type PagePictureSlot } from './page-pictures'

/** The gateway takes nothing smaller than a rupee, and a free item cannot be paid for online. */
const MIN_PRICE_PAISE = 100
const MAX_PRICE_PAISE = 9_999_999_99
const MAX_GST_BASIS_POINTS = 100_00

export function isValidPrice(paise: number) {
  return Number.isInteger(paise) && paise >= MIN_PRICE_PAISE && paise <= MAX_PRICE_PAISE
}

export function isValidGstin(gstin: string) {
  return gstin === '' || GSTIN_FORMAT.test(gstin)
}

export function isValidGstRate(basisPoints: number) {
  return Number.isInteger(basisPoints) && basisPoints >= 0 && basisPoints <= MAX_GST_BASIS_POINTS
}

/**
 * Values the lab has not supplied yet are kept as marked placeholders ("[Phone number — to be
 * supplied by the lab]"); the public pages show them as such, so a form may keep one as it is.
 */
export function isPlaceholder(value: string) {
  return /^\[[^\]]*\]$/.test(value)
}

/** The report is due this long after the last session (reports.server.ts reads the number). */
function statesDeliveryTime(text: string) {
  return /\d+\s*(?:hours?|(?:business\s+)?days?)\b/i.test(text)
}

const PRICE_FORMAT_MESSAGE = 'Enter an amount in rupees, for example 30000 or 3499.50'
const PRICE_RANGE_MESSAGE = 'Enter an amount from ₹1 to ₹99,99,999.99'

const rupeeAmount = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { message: requiredMessage, abort: true })
    .refine((value) => rupeesToPaise(value) !== null, { message: PRICE_FORMAT_MESSAGE, abort: true })
    .transform((value) => rupeesToPaise(value)!)
    .refine(isValidPrice, { message: PRICE_RANGE_MESSAGE, abort: true })

export const REGULAR_PRICE_MESSAGE = 'The regular price must be at least the price'

export const PriceSchema = z
  .object({
    code: z.string().trim().min(1).max(60),
    price: rupeeAmount('Enter the price'),
    regularPrice: rupeeAmount('Enter the regular price').optional(),
  })
  .refine((form) => form.regularPrice === undefined || form.regularPrice >= form.price, { message: REGULAR_PRICE_MESSAGE, path: ['regularPrice'] })

export const PoliciesSchema = z.object({
  reportDelivery: requiredText('Enter when the report is delivered', 120).refine(
    statesDeliveryTime,
    'Say how long in hours or days, for example “within 48 hours” or “within 5-7 business days”',
  ),
  refundPolicy: requiredText('Enter how refunds are paid', 200),
  reanalysisMonths: z
    .string({ error: 'Enter a number of months from 1 to 24' })
    .trim()
    .regex(/^\d{1,2}$/, 'Enter a whole number of months from 1 to 24')
    .transform(Number)
    .refine((months) => months >= 1 && months <= 24, 'Enter a number of months from 1 to 24'),
})
export type PoliciesInput = z.output<typeof PoliciesSchema>

const PHONE_MESSAGE = 'Enter a phone number of at least 10 digits (digits and spaces, optionally starting with +)'
const EMAIL_MESSAGE = 'Enter an e-mail address'
const URL_MESSAGE = 'Enter a full address starting with https://'

/** What the public pages can dial (contact-value.tsx), with an area or country code. */
const isPhoneNumber = (value: string) => /^\+?[\d ]+$/.test(value) && value.replace(/\D/g, '').length >= 10 && value.replace(/\D/g, '').length <= 15
const isEmail = (value: string) => z.email().safeParse(value).success
const isWebAddress = (value: string) => {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.')
  } catch {
    return false
  }
}

/** A required contact detail that may still be the lab's placeholder. */
const contactDetail = (requiredMessage: string, isValid: (value: string) => boolean, invalidMessage: string, max = 200) =>
  requiredText(requiredMessage, max).refine((value) => isPlaceholder(value) || isValid(value), invalidMessage)

const optionalWebAddress = optionalText(300).refine((value) => value === '' || isWebAddress(value), URL_MESSAGE)

// Flat field names (the social links too), so each form's default values are one flat record.
export const ContactSchema = z.object({
  sessionLocation: requiredText('Enter where sessions take place', 100),
  venueName: requiredText('Enter the venue', 150),
  postalAddress: requiredText('Enter the postal address', 300),
  phone: contactDetail('Enter the phone number', isPhoneNumber, PHONE_MESSAGE, 100),
  phoneHours: requiredText('Enter when the phone is answered', 100),
  supportEmail: contactDetail('Enter the support e-mail address', isEmail, EMAIL_MESSAGE, 254),
  infoEmail: contactDetail('Enter the general e-mail address', isEmail, EMAIL_MESSAGE, 254),
  websiteUrl: optionalWebAddress,
  /** The lab's own number, which visitors can message (how-it-works): kept in E.164, like every number the site holds. */
  whatsappNumber: optionalText(20)
    .superRefine((value, context) => {
      if (value === '' || toE164(value) !== null) return
      context.addIssue({ code: 'custom', message: isUnknownNumber(value) ? NO_SUCH_NUMBER : 'Enter the WhatsApp number: 10 digits for an Indian mobile, or + and the country code, for example +91 98450 12345' })
    })
    .transform((value) => (value === '' ? '' : toE164(value)!)),
  linkedin: optionalWebAddress,
  instagram: optionalWebAddress,
  twitter: optionalWebAddress,
})
export type ContactInput = z.output<typeof ContactSchema>

export const GstSchema = z.object({
  legalName: requiredText('Enter the registered name of the business', 200),
  gstin: z
    .string()
    .trim()
    .toUpperCase()
    .optional()
    .transform((value) => value ?? '')
    .refine(isValidGstin, 'Enter the 15-character GSTIN, for example 29ABCDE1234F1Z5, or leave it empty'),
  gstRate: z
    .string({ error: 'Enter the GST rate' })
    .trim()
    .min(1, { message: 'Enter the GST rate', abort: true })
    .refine((value) => percentToBasisPoints(value) !== null, { message: 'Enter the rate as a percentage with up to 2 decimals, for example 18', abort: true })
    .transform((value) => percentToBasisPoints(value)!)
    .refine(isValidGstRate, 'Enter a rate from 0 to 100 per cent'),
})
export type GstInput = z.output<typeof GstSchema>

/**
 * The grievance officer the privacy policy names, whom people write to about their data. Both are
 * needed together; until they are set the policy shows them as still to be supplied.
 */
export const GrievanceOfficerSchema = z.object({
  grievanceOfficerName: personNameField({ required: "Enter the grievance officer's name", alsoAccept: isPlaceholder }),
  grievanceOfficerEmail: requiredText("Enter the grievance officer's e-mail address", 254).refine(isEmail, EMAIL_MESSAGE),
})
export type GrievanceOfficerInput = z.output<typeof GrievanceOfficerSchema>

export const CoachSchema = z.object({
  name: personNameField({ required: 'Enter the name', min: 1, alsoAccept: isPlaceholder }),
  credentials: requiredText('Enter the credentials', 200),
  photoId: photoIdField,
})
export type CoachInput = z.output<typeof CoachSchema>

export const TeamMemberSchema = z.object({
  /** The member's position on the about page, from 0. */
  index: z.coerce.number().int().min(0).max(50),
  name: personNameField({ required: 'Enter the name', min: 1, alsoAccept: isPlaceholder }),
  role: requiredText('Enter the role', 100),
  bio: requiredText('Enter a short bio', 600),
  photoId: photoIdField,
})
export type TeamMemberInput = z.output<typeof TeamMemberSchema>

/** The pictures on the pages, each a library item's id or none. */
export const PagePicturesSchema = z.object(Object.fromEntries(PAGE_PICTURE_SLOTS.map((slot) => [slot, photoIdField])) as Record<PagePictureSlot, typeof photoIdField>)
export type PagePicturesInput = z.output<typeof PagePicturesSchema>

export const BannerSchema = z.object({ visible: z.enum(['true', 'false']).transform((value) => value === 'true') })

/** The largest threshold of a number on the site: ten lakh, far beyond anything the lab will count soon. */
export const MAX_FIGURE_THRESHOLD = 10_00_000

export function isValidFigureThreshold(threshold: number) {
  return Number.isInteger(threshold) && threshold >= 0 && threshold <= MAX_FIGURE_THRESHOLD
}

const THRESHOLD_FORMAT_MESSAGE = 'Enter a whole number, or 0 to never show this number'

const figureThreshold = z
  .string({ error: THRESHOLD_FORMAT_MESSAGE })
  .trim()
  .regex(/^\d{1,7}$/, THRESHOLD_FORMAT_MESSAGE)
  .transform(Number)
  .refine(isValidFigureThreshold, 'Enter a number from 0 to 10,00,000')

/** From which count each number of the lab's records is shown on the home page (0: never). */
export const FigureThresholdsSchema = z.object({
  swimmersAnalysedThreshold: figureThreshold,
  analysesDeliveredThreshold: figureThreshold,
  campsRunThreshold: figureThreshold,
})
export type FigureThresholdsInput = z.output<typeof FigureThresholdsSchema>
