import { createHmac } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { config, setConfig } from '~/config.server'
import { instanceSecret } from '~/db/secrets.server'
import { useTestDatabase } from '../../tests/support/test-database'
import {
  BOOKING_STATUS_LINK,
  CAMP_LINE_LINK,
  CAMP_STATUS_LINK,
  CANCEL_CONFIRMATION_LINK,
  CONSENT_WITHDRAWAL_LINK,
  CREDIT_NOTE_LINK,
  GUEST_BOOKING_LINK,
  isLinkKey,
  privateLinkPath,
  privateLinks,
  privateLinkUrl,
  RECEIPT_LINK,
  REPORT_FILE_LINK,
  WAITLIST_CONFIRMATION_LINK,
  WAITLIST_OFFER_LINK,
} from './private-links.server'

useTestDatabase()

const SITE_URL = 'https://swimlab.example'
const ORDER = 'SLOT_1767225600000_7_abcdefgh'

beforeAll(() => setConfig({ ...config(), SITE_URL }))

/** The key as links were made before this module: e-mails already sent carry keys made this way. */
async function keyMadeBefore(purpose: string, value: string) {
  const secret = await instanceSecret('link_keys')
  return createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url').slice(0, 32)
}

// Links already e-mailed must keep opening: every address and key stays byte for byte the same.
describe('links already sent', () => {
  it('keep their exact address and key, kind by kind', async () => {
    const key = keyMadeBefore
    expect(await privateLinkUrl(GUEST_BOOKING_LINK, 'SL-2026-0042')).toBe(`${SITE_URL}/booking/view?ref=SL-2026-0042&key=${await key('guest-booking', 'SL-2026-0042')}`)
    expect(await privateLinkUrl(BOOKING_STATUS_LINK, ORDER)).toBe(`${SITE_URL}/booking?step=3&orderId=${ORDER}&key=${await key('booking-status', ORDER)}`)
    expect(await privateLinkUrl(CAMP_STATUS_LINK, ORDER)).toBe(`${SITE_URL}/payment-status?orderId=${ORDER}&key=${await key('camp-status', ORDER)}`)
    expect(await privateLinkPath(RECEIPT_LINK, ORDER)).toBe(`/receipts/${ORDER}?key=${await key('receipt', ORDER)}`)
    expect(await privateLinkPath(CREDIT_NOTE_LINK, 'RFND_1795724969187_393_tvi5rv4r')).toBe(`/credit-notes/RFND_1795724969187_393_tvi5rv4r?key=${await key('credit-note', 'RFND_1795724969187_393_tvi5rv4r')}`)
    expect(await privateLinkPath(REPORT_FILE_LINK, 17)).toBe(`/reports/files/17?key=${await key('report-file', '17')}`)
    expect(await privateLinkPath(CAMP_LINE_LINK, 305)).toBe(`/onboarding/line?place=305&key=${await key('camp-line', '305')}`)
    expect(await privateLinkUrl(WAITLIST_CONFIRMATION_LINK, 12)).toBe(`${SITE_URL}/onboarding/waitlist?entry=12&key=${await key('camp-waitlist', '12')}`)
    expect(await privateLinkUrl(WAITLIST_OFFER_LINK, 'CR-2026-0007')).toBe(`${SITE_URL}/onboarding/offer?registration=CR-2026-0007&key=${await key('camp-offer', 'CR-2026-0007')}`)
    expect(await privateLinkUrl(CONSENT_WITHDRAWAL_LINK, 9)).toBe(`${SITE_URL}/consent/withdraw/9?key=${await key('consent-withdrawal', '9')}`)
    expect(await privateLinkUrl(CANCEL_CONFIRMATION_LINK, { reference: 'SL-2026-0042', until: 1767227400, calendarSequence: 2 })).toBe(
      `${SITE_URL}/bookings/SL-2026-0042/cancel?key=${await key('guest-booking', 'SL-2026-0042')}&until=1767227400&confirm=${await key('guest-cancel-confirmation', 'SL-2026-0042:1767227400:2')}`,
    )
  })

  it('are made the same way in one go, for use inside a transaction', async () => {
    const links = await privateLinks()
    expect(links.path(RECEIPT_LINK, ORDER)).toBe(await privateLinkPath(RECEIPT_LINK, ORDER))
    expect(links.url(WAITLIST_CONFIRMATION_LINK, 12)).toBe(await privateLinkUrl(WAITLIST_CONFIRMATION_LINK, 12))
  })
})

describe('a key', () => {
  it('opens its own link only: not another subject, not another kind of link', async () => {
    const key = new URL(await privateLinkUrl(RECEIPT_LINK, ORDER)).searchParams.get('key')
    expect(await isLinkKey(RECEIPT_LINK, ORDER, key)).toBe(true)
    expect(await isLinkKey(RECEIPT_LINK, `${ORDER}x`, key)).toBe(false)
    expect(await isLinkKey(BOOKING_STATUS_LINK, ORDER, key)).toBe(false)
  })

  it('signs an id as its digits: the id read from a link opens what the number made', async () => {
    const key = await keyMadeBefore('camp-line', '305')
    expect(await isLinkKey(CAMP_LINE_LINK, '305', key)).toBe(true)
    expect(await isLinkKey(CAMP_LINE_LINK, '0305', key)).toBe(false)
  })

  it('that is missing, cut short or changed by a character opens nothing', async () => {
    const key = await keyMadeBefore('report-file', '17')
    expect(await isLinkKey(REPORT_FILE_LINK, 17, key)).toBe(true)
    const changed = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`
    for (const given of [null, undefined, '', key.slice(0, -1), `${key}A`, changed]) {
      expect(await isLinkKey(REPORT_FILE_LINK, 17, given)).toBe(false)
    }
  })

  it('confirms a cancellation only for the booking as it was when e-mailed', async () => {
    const subject = { reference: 'SL-2026-0042', until: 1767227400, calendarSequence: 2 }
    const confirm = await keyMadeBefore('guest-cancel-confirmation', 'SL-2026-0042:1767227400:2')
    expect(await isLinkKey(CANCEL_CONFIRMATION_LINK, subject, confirm)).toBe(true)
    expect(await isLinkKey(CANCEL_CONFIRMATION_LINK, { ...subject, calendarSequence: 3 }, confirm)).toBe(false)
    expect(await isLinkKey(CANCEL_CONFIRMATION_LINK, { ...subject, until: subject.until + 60 }, confirm)).toBe(false)
  })
})
