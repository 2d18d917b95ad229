import { describe, expect, it } from 'vitest'
import { promoCodes } from '~/db/schema'
import { CAMP_SUMMARY, paySummary, quotedTotal } from '../support/camp-summary'
import { useTestSite } from '../support/site'
import { decodeHtml, text, Visitor } from '../support/visitor'

// The camp price a parent is shown is the price charged, as a browser without JavaScript sees it:
// the registration answers with the priced summary, the parent confirms its total, and the gateway,
// the status page and the receipt say the same.

const site = useTestSite(
  {},
  {
    async prepare(db) {
      await db.insert(promoCodes).values([{ code: 'TENOFF', discountKind: 'percent', discountValue: 10_00, products: ['camp'] }])
    },
  },
)

let family = 0
const guestForm = (overrides: Record<string, string> = {}) => {
  family += 1
  return { name: `Ria Rao ${'ABCDEFGHIJ'[family]}`, email: `price.parent${family}@example.com`, phone_number: '98450 12121', guardianDeclaration: 'on', camp: 'camp2', batch: 'batch1', website_url: '', intent: 'register', ...overrides }
}

/** The message next to a field of the form, if any. */
function fieldError(html: string, name: string) {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? ''
  const id = /aria-describedby="([^"]*)"/.exec(input)?.[1]?.split(' ').find((candidate) => candidate.endsWith('-error'))
  return id ? decodeHtml(new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1] ?? '') : null
}
const valueOf = (html: string, name: string) => decodeHtml(/value="([^"]*)"/.exec(new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '')?.[1] ?? '')

describe('a guest registering one child with a 10% promo code', () => {
  it('is shown ₹31,500 before the gateway, and the gateway, the status page and its lines say ₹31,500', async () => {
    const guest = new Visitor(site.url)
    const form = guestForm({ promoCode: 'tenoff' })
    const registered = await guest.post('/onboarding', form)
    expect(registered.status).toBe(302)
    expect(registered.location).toMatch(CAMP_SUMMARY)

    const summary = await guest.get(registered.location!)
    expect(text(summary.html)).toContain(`Camp fee for ${form.name} ₹35,000.00 Promo code TENOFF −₹3,500.00 Total ₹31,500.00`)
    expect(text(summary.html)).toContain('Pay ₹31,500')
    expect(quotedTotal(summary.html)).toBe('3150000')

    const pay = await paySummary(guest, registered.location!)
    expect(pay.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
    expect(text((await guest.get(pay.location!)).html)).toContain('₹31,500.00')
    const back = await guest.post(pay.location!, { outcome: 'success' })
    const status = text((await guest.get(back.location!)).html)
    expect(status).toContain('Registration Complete!')
    expect(status).toContain(`Camp fee for ${form.name} ₹35,000.00 Promo code TENOFF −₹3,500.00 Amount ₹31,500.00`)
  })

  it('confirming a total that is no longer the price answers the new summary, not the gateway', async () => {
    const guest = new Visitor(site.url)
    const registered = await guest.post('/onboarding', guestForm({ promoCode: 'TENOFF' }))
    const stale = await guest.post(registered.location!, { quotedTotal: '3500000', website_url: '' })
    expect(stale.status).toBe(409)
    expect(stale.location).toBeFalsy()
    expect(text(stale.html)).toContain('The price has changed since it was shown to you. Please check the new total before you pay.')
    expect(text(stale.html)).toContain('Total ₹31,500.00')
    expect(quotedTotal(stale.html)).toBe('3150000')
    // The new summary's own total goes through.
    expect((await guest.post(registered.location!, { quotedTotal: quotedTotal(stale.html), website_url: '' })).location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
  })
})

describe('a wrong promo code on the guest form', () => {
  it('says why next to the field, keeps what was typed, and changes nothing else on the form', async () => {
    const form = guestForm({ promoCode: 'NOSUCH' })
    const answer = await new Visitor(site.url).post('/onboarding', form)
    expect(answer.status).toBe(400)
    expect(fieldError(answer.html, 'promoCode')).toBe('This promo code is not valid.')
    expect([valueOf(answer.html, 'name'), valueOf(answer.html, 'email'), valueOf(answer.html, 'promoCode')]).toEqual([form.name, form.email, 'NOSUCH'])
    expect(text(answer.html)).not.toContain('Try Again')
    expect(answer.html).not.toMatch(/role="alert"[^>]*>[^<]*\w/)
  })
})
