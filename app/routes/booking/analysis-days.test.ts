import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { cityAlerts, users } from '~/db/schema'
import { optInToWhatsApp, optOutOfWhatsApp } from '~/modules/whatsapp/consent.server'
import { createCustomers, signInUser } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { useWhatsAppOn } from '../../../tests/support/whatsapp-on'
import * as analysisDays from './analysis-days'

// The alert form's WhatsApp box on the list of analysis days, called as React Router calls the
// page: offered to a signed-in customer only while the account's number is proven and opted in.

useTestDatabase()
useWhatsAppOn()

const context = { clientIp: '203.0.113.81', cspNonce: '', requestId: 'city-alerts' }

describe('the alert form’s WhatsApp box', () => {
  it('is offered only to a signed-in customer whose number is proven and opted in, and the choice is kept', async () => {
    const [person] = await createCustomers(1, 'family')
    const userId = person!.userId!
    const { cookie } = await signInUser(userId)
    const load = async (headers: Record<string, string> = { Cookie: cookie }) => (await analysisDays.loader({ request: new Request('http://localhost/analysis-days', { headers }), params: {}, context } as never)).alerts.whatsapp
    expect(await load({})).toBeNull()
    // Opted in, not proven: the number may be anyone's.
    await optInToWhatsApp({ phone: '+919845012345', source: 'account' })
    expect(await load()).toBeNull()
    await db().update(users).set({ phoneVerifiedAt: new Date() }).where(eq(users.id, userId))
    expect(await load()).toEqual({ phone: expect.stringContaining('98450') })

    const form = new URLSearchParams({ email: person!.email, city: 'Pune', whatsapp: 'on', website_url: '' })
    await analysisDays.action({ request: new Request('http://localhost/analysis-days', { method: 'POST', body: form, headers: { Cookie: cookie } }), params: {}, context } as never)
    expect(await db().select({ userId: cityAlerts.userId, whatsapp: cityAlerts.whatsapp }).from(cityAlerts)).toEqual([{ userId, whatsapp: true }])

    await optOutOfWhatsApp({ phone: '+919845012345', source: 'reply' })
    expect(await load()).toBeNull()
  })
})
