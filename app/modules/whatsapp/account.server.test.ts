import { describe, expect, it } from 'vitest'
import { stateOf } from './account.server'
import type { WhatsAppConsent } from './consent.server'

const consent = (fields: Partial<WhatsAppConsent>): WhatsAppConsent => ({
  phone: '+919845012345',
  optedIn: false,
  optedInAt: null,
  optInWording: null,
  optInSource: null,
  optedOutAt: null,
  optOutSource: null,
  requestedAt: null,
  requestSource: null,
  requestWording: null,
  confirmationSentAt: null,
  updatedAt: new Date(),
  ...fields,
})

// 20:00 UTC is already the next day in Bangalore (UTC+5:30).
const EVENING_UTC = new Date('2027-03-04T20:00:00Z')

describe("the account page's WhatsApp state", () => {
  it('says on since the day of the opt-in, as the lab counts days', () => {
    expect(stateOf(consent({ optedIn: true, optedInAt: EVENING_UTC, optInSource: 'registration' }))).toBe('on (since 5 March 2027)')
  })

  it('says off after STOP, with its day; off since the day it was turned off otherwise; off when nothing was ever said', () => {
    expect(stateOf(consent({ optedInAt: new Date('2027-01-01T00:00:00Z'), optedOutAt: EVENING_UTC, optOutSource: 'reply' }))).toBe('off (you replied STOP on 5 March 2027)')
    expect(stateOf(consent({ optedOutAt: EVENING_UTC, optOutSource: 'account' }))).toBe('off since 5 March 2027')
    expect(stateOf(null)).toBe('off')
  })
})
