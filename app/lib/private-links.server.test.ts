import { describe, expect, it, vi } from 'vitest'
import {
  BOOKING_STATUS_LINK,
  CAMP_LINE_LINK,
  CAMP_STATUS_LINK,
  CANCEL_CONFIRMATION_LINK,
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

vi.mock('~/db/secrets.server', () => ({ instanceSecret: async () => 'fixed-secret-for-link-vectors' }))
vi.mock('~/config.server', () => ({ config: () => ({ SITE_URL: 'https://swimlab.example' }) }))

const ORDER = 'SLOT_1767225600000_7_abcdefgh'

// Links made under this secret before private links had a module of their own, as e-mailed to
// customers: they must keep opening, so every key here stays byte for byte the same.
describe('links already sent', () => {
  it('keep their exact address and key, kind by kind', async () => {
    expect(await privateLinkUrl(GUEST_BOOKING_LINK, 'SL-2026-0042')).toBe('https://swimlab.example/booking/view?ref=SL-2026-0042&key=7XZP_YqlxukKn5Kp3Hd8-Ro3tALUyY-p')
    expect(await privateLinkUrl(BOOKING_STATUS_LINK, ORDER)).toBe(`https://swimlab.example/booking?step=3&orderId=${ORDER}&key=OiCpZsLeXeSw-8uS34nX-vyjJLq2BbZe`)
    expect(await privateLinkUrl(CAMP_STATUS_LINK, 'CAMP_1767225600000_7_abcdefgh')).toBe(
      'https://swimlab.example/payment-status?orderId=CAMP_1767225600000_7_abcdefgh&key=lrQivn-R2T6JLTPw3tzhsnA4DmZe2NPS',
    )
    expect(await privateLinkPath(RECEIPT_LINK, ORDER)).toBe(`/receipts/${ORDER}?key=O1_-XGRfP7cU7PzLxFRseNKtq8KWURzp`)
    expect(await privateLinkPath(REPORT_FILE_LINK, 17)).toBe('/reports/files/17?key=UCwv31g9GBru1m-NW6hjYwhZPCN5R_vf')
    expect(await privateLinkPath(CAMP_LINE_LINK, 305)).toBe('/onboarding/line?place=305&key=m_cNPGAhBovRyNhw6IE5rjGIDuJFXmjQ')
    expect(await privateLinkUrl(WAITLIST_CONFIRMATION_LINK, 12)).toBe('https://swimlab.example/onboarding/waitlist?entry=12&key=a066dny6Zv0vOrTfq1wSd1NfCqv-2MO8')
    expect(await privateLinkUrl(WAITLIST_OFFER_LINK, 'CR-2026-0007')).toBe('https://swimlab.example/onboarding/offer?registration=CR-2026-0007&key=58_B525jSq0XUwraCRCSFG8wdljSvwy-')
    expect(await privateLinkUrl(CANCEL_CONFIRMATION_LINK, { reference: 'SL-2026-0042', until: 1767227400, calendarSequence: 2 })).toBe(
      'https://swimlab.example/bookings/SL-2026-0042/cancel?key=7XZP_YqlxukKn5Kp3Hd8-Ro3tALUyY-p&until=1767227400&confirm=Agf_cE7jVOAhzLJvlQKXwXozO82LtLq4',
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
    expect(await isLinkKey(CAMP_LINE_LINK, '305', 'm_cNPGAhBovRyNhw6IE5rjGIDuJFXmjQ')).toBe(true)
    expect(await isLinkKey(CAMP_LINE_LINK, '0305', 'm_cNPGAhBovRyNhw6IE5rjGIDuJFXmjQ')).toBe(false)
  })

  it('that is missing, cut short or changed by a character opens nothing', async () => {
    const key = 'UCwv31g9GBru1m-NW6hjYwhZPCN5R_vf'
    expect(await isLinkKey(REPORT_FILE_LINK, 17, key)).toBe(true)
    for (const given of [null, undefined, '', key.slice(0, -1), `${key}A`, `${key.slice(0, -1)}g`]) {
      expect(await isLinkKey(REPORT_FILE_LINK, 17, given)).toBe(false)
    }
  })

  it('confirms a cancellation only for the booking as it was when e-mailed', async () => {
    const subject = { reference: 'SL-2026-0042', until: 1767227400, calendarSequence: 2 }
    expect(await isLinkKey(CANCEL_CONFIRMATION_LINK, subject, 'Agf_cE7jVOAhzLJvlQKXwXozO82LtLq4')).toBe(true)
    expect(await isLinkKey(CANCEL_CONFIRMATION_LINK, { ...subject, calendarSequence: 3 }, 'Agf_cE7jVOAhzLJvlQKXwXozO82LtLq4')).toBe(false)
    expect(await isLinkKey(CANCEL_CONFIRMATION_LINK, { ...subject, until: subject.until + 60 }, 'Agf_cE7jVOAhzLJvlQKXwXozO82LtLq4')).toBe(false)
  })
})
