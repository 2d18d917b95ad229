import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog } from '~/db/schema'
import { useTestDatabase } from '../../../tests/support/test-database'
import { auditEntries, recordAudit } from './audit.server'

useTestDatabase()

const staff = { id: null, email: 'staff@lab.example' }

describe('the audit log', () => {
  it('keeps the values naming people apart from the summary, and shows staff the summary with them in place', async () => {
    await recordAudit(db(), staff, { action: 'customer.disable', entityType: 'customer', entityId: 7, summary: 'Disabled the account of {customer} ({email}), as {asked}', personal: { customer: 'Asha Rao', email: 'asha@example.com', phone: null }, about: { accountId: 7 } })
    await recordAudit(db(), staff, { action: 'settings.update', entityType: 'site_settings', entityId: 1, summary: 'Changed the footer to “{year} and more”' })

    const stored = await db().select().from(auditLog).orderBy(auditLog.id)
    expect(stored).toMatchObject([
      { summary: 'Disabled the account of {customer} ({email}), as {asked}', personal: { customer: 'Asha Rao', email: 'asha@example.com' }, accountId: 7, swimmerId: null, bookingId: null, campRegistrationId: null },
      { summary: 'Changed the footer to “{year} and more”', personal: {}, accountId: null },
    ])
    expect((await auditEntries()).map((entry) => entry.summary)).toEqual(['Changed the footer to “{year} and more”', 'Disabled the account of Asha Rao (asha@example.com), as {asked}'])
  })

  it('shows an entry written before values were kept apart as it was written', async () => {
    await db().insert(auditLog).values({ actorEmail: 'staff@lab.example', action: 'customer.note', entityType: 'customer', entityId: '7', summary: 'Called {customer}', personal: null })
    expect((await auditEntries()).map((entry) => entry.summary)).toEqual(['Called {customer}'])
  })
})
