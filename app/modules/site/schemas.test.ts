import { describe, expect, it } from 'vitest'
import { NO_SUCH_NUMBER } from '~/lib/phone-field'
import {
  ContactSchema,
  GstSchema,
  PoliciesSchema,
  PriceSchema,
} from './schemas'

const errorsOf = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))

describe('the price form', () => {
  it('gives the price and the regular price in paise', () => {
    expect(PriceSchema.parse({ code: 'biomechanical_package', price: '28,000', regularPrice: '35000' })).toEqual({ code: 'biomechanical_package', price: 28_000_00, regularPrice: 35_000_00 })
    expect(PriceSchema.parse({ code: 'race_analysis', price: '5000' })).toEqual({ code: 'race_analysis', price: 5_000_00 })
  })

  it('refuses a regular price below the price, and accepts one equal to it', () => {
    expect(errorsOf(PriceSchema.safeParse({ code: 'x', price: '30000', regularPrice: '29999.99' }))).toEqual({ regularPrice: 'The regular price must be at least the price' })
    expect(PriceSchema.safeParse({ code: 'x', price: '30000', regularPrice: '30000' }).success).toBe(true)
  })

  it('refuses a missing, malformed or out-of-range price with a message next to the field', () => {
    expect(errorsOf(PriceSchema.safeParse({ code: 'x' }))).toEqual({ price: 'Enter the price' })
    expect(errorsOf(PriceSchema.safeParse({ code: 'x', price: '30,000.999' }))).toEqual({ price: 'Enter an amount in rupees, for example 30000 or 3499.50' })
    expect(errorsOf(PriceSchema.safeParse({ code: 'x', price: '0.99' }))).toEqual({ price: 'Enter an amount from ₹1 to ₹99,99,999.99' })
    expect(errorsOf(PriceSchema.safeParse({ code: 'x', price: '1,00,00,000' }))).toEqual({ price: 'Enter an amount from ₹1 to ₹99,99,999.99' })
    expect(errorsOf(PriceSchema.safeParse({ code: 'x', price: '100', regularPrice: 'free' }))).toEqual({ regularPrice: 'Enter an amount in rupees, for example 30000 or 3499.50' })
  })
})

describe('the GST form', () => {
  const gst = (overrides: Record<string, string | undefined>) => GstSchema.safeParse({ legalName: 'Swim Science LLP', gstin: '29ABCDE1234F1Z5', gstRate: '18', ...overrides })

  it('takes the rate as a percentage with up to 2 decimals and stores basis points', () => {
    expect(gst({}).data?.gstRate).toBe(1800)
    expect(gst({ gstRate: '12.5' }).data?.gstRate).toBe(1250)
    expect(gst({ gstRate: '0.25' }).data?.gstRate).toBe(25)
    expect(gst({ gstRate: '0' }).data?.gstRate).toBe(0)
    expect(gst({ gstRate: '18 %' }).data?.gstRate).toBe(1800)
    expect(errorsOf(gst({ gstRate: '18.125' }))).toEqual({ gstRate: 'Enter the rate as a percentage with up to 2 decimals, for example 18' })
    expect(errorsOf(gst({ gstRate: '100.01' }))).toEqual({ gstRate: 'Enter a rate from 0 to 100 per cent' })
    expect(errorsOf(gst({ gstRate: undefined }))).toEqual({ gstRate: 'Enter the GST rate' })
  })

  it('accepts a GSTIN in the Indian format (in any letter case) or none', () => {
    expect(gst({ gstin: ' 29abcde1234f1z5 ' }).data?.gstin).toBe('29ABCDE1234F1Z5')
    expect(gst({ gstin: undefined }).data?.gstin).toBe('')
  })

  it('refuses a GSTIN that is not 15 characters in that format', () => {
    const message = 'Enter the 15-character GSTIN, for example 29ABCDE1234F1Z5, or leave it empty'
    for (const gstin of ['29ABCDE1234F1Z', '29ABCDE1234F1Z55', 'A9ABCDE1234F1Z5', '291BCDE1234F1Z5', '29ABCDE12X4F1Z5', '29ABCDE1234F0Z5', '29ABCDE1234F1Y5', '29ABCDE1234F1Z-']) {
      expect([gstin, errorsOf(gst({ gstin }))]).toEqual([gstin, { gstin: message }])
    }
  })
})

describe('the policy texts', () => {
  it('need the report delivery time in hours or days, which the overdue check reads', () => {
    expect(PoliciesSchema.safeParse({ reportDelivery: 'within 72 hours', refundPolicy: 'within 7 business days', reanalysisMonths: '3' }).success).toBe(true)
    expect(PoliciesSchema.safeParse({ reportDelivery: 'within 5-7 business days', refundPolicy: 'within 7 days', reanalysisMonths: '24' }).success).toBe(true)
    expect(errorsOf(PoliciesSchema.safeParse({ reportDelivery: 'very soon', refundPolicy: '', reanalysisMonths: '0' }))).toEqual({
      reportDelivery: 'Say how long in hours or days, for example “within 48 hours” or “within 5-7 business days”',
      refundPolicy: 'Enter how refunds are paid',
      reanalysisMonths: 'Enter a number of months from 1 to 24',
    })
  })
})

describe('the contact details', () => {
  const contact = {
    sessionLocation: 'PDCSE, Bangalore',
    venueName: 'PDCSE',
    postalAddress: 'Sports excellence centre, Bengaluru 560001',
    phone: '+91 80 4123 4567',
    phoneHours: 'Monday-Friday 9:00 AM-6:00 PM IST',
    supportEmail: 'support@lab.example',
    infoEmail: 'info@lab.example',
  }

  it('may keep a placeholder the lab has not replaced yet', () => {
    expect(ContactSchema.safeParse({ ...contact, phone: '[Phone number — to be supplied by the lab]', supportEmail: '[Support e-mail — to be supplied by the lab]' }).success).toBe(true)
  })

  it('refuses a phone the pages could not dial, a malformed e-mail, a link that is not a web address, and a WhatsApp number that is not a mobile', () => {
    expect(
      errorsOf(ContactSchema.safeParse({ ...contact, phone: '080-4123-4567', infoEmail: 'info at lab', linkedin: 'linkedin.com/company/lab', whatsappNumber: '044 2345 6789' })),
    ).toEqual({
      phone: 'Enter a phone number of at least 10 digits (digits and spaces, optionally starting with +)',
      infoEmail: 'Enter an e-mail address',
      linkedin: 'Enter a full address starting with https://',
      whatsappNumber: 'Enter the WhatsApp number: 10 digits for an Indian mobile, or + and the country code, for example +91 98450 12345',
    })
  })

  it('keeps the WhatsApp number in E.164, however it was typed', () => {
    expect(ContactSchema.parse({ ...contact, whatsappNumber: '98450 12345' }).whatsappNumber).toBe('+919845012345')
    expect(ContactSchema.parse({ ...contact, whatsappNumber: '+44 7911 123456' }).whatsappNumber).toBe('+447911123456')
    expect(errorsOf(ContactSchema.safeParse({ ...contact, whatsappNumber: '+999999999999999' }))).toEqual({ whatsappNumber: NO_SUCH_NUMBER })
  })

  it('leaves the optional links empty when they are not given', () => {
    expect(ContactSchema.parse(contact)).toMatchObject({ websiteUrl: '', whatsappNumber: '', linkedin: '', instagram: '', twitter: '' })
  })
})
