import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { campRegistrations, promoCodes } from '~/db/schema'
import { arriving } from '~/modules/holders/arrivals.server'
import { CAMP_SUMMARY } from '../../../tests/support/camp-summary'
import { useTestDatabase } from '../../../tests/support/test-database'
import * as campRegistration from './camp-registration'
import * as placeInLine from './camp-registration.line'

// The camp form and the page of a parent's place in line, called as React Router calls them, with
// the rush that sends a parent to wait in line made on purpose.

useTestDatabase()

const context = { clientIp: '203.0.113.80', cspNonce: '', requestId: 'camp-line' }

/** Registrations held open on this instance, as in a rush: parents arriving now are answered with their place in line. */
function rush() {
  let end = () => {}
  const over = new Promise<void>((resolve) => (end = resolve))
  const arrivals = Array.from({ length: 5 }, () => arriving(() => over))
  return async () => {
    end()
    await Promise.all(arrivals)
  }
}

describe('a promo code on the camp form, in a rush', () => {
  it('stays on the server while the parent waits in line: in no address, and taken off once their seat is held', async () => {
    await db().insert(promoCodes).values({ code: 'CAMPS', discountKind: 'amount', discountValue: 500_00, products: ['camp'] })
    const form = new URLSearchParams({ name: 'Ria Shah', email: 'ria.parent@example.com', phone_number: '98450 12121', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '', intent: 'register', promoCode: 'camps' })
    const endRush = rush()
    const answer = (await campRegistration.action({ request: new Request('http://localhost/onboarding', { method: 'POST', body: form }), params: {}, context } as never)) as Response
    await endRush()
    expect(answer.status).toBe(303)
    const place = answer.headers.get('Location')!
    expect(place).toMatch(/^\/onboarding\/line\?place=\d+&key=[\w-]+$/)
    expect(place.toLowerCase()).not.toContain('camps')

    // The page of the place, once the parent's turn has come: the summary of what they will pay, the fee less the code's discount.
    const outcome = (await placeInLine.loader({ request: new Request(`http://localhost${place}`), params: {}, context } as never)) as Response
    expect(outcome.status).toBe(302)
    expect(outcome.headers.get('Location')).toMatch(CAMP_SUMMARY)
    const [registration] = await db().select({ amountPaise: campRegistrations.amountPaise, promoDiscountPaise: campRegistrations.promoDiscountPaise }).from(campRegistrations).where(eq(campRegistrations.email, 'ria.parent@example.com'))
    expect(registration).toEqual({ amountPaise: 34_500_00, promoDiscountPaise: 500_00 })
  })
})
