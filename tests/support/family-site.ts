import type { Db } from '~/db/client.server'
import { guardianConsents, swimmers, users } from '~/db/schema'
import { hashPassword } from '~/modules/accounts/passwords.server'
import { PRIVACY_NOTICE_VERSION } from '~/modules/swimmers/consent.server'
import { useTestSite } from './site'

/** A parent's account with two swimmers: the parent, and a child of 10 whose parent consented. */
export const FAMILY = {
  name: 'Meera Iyer',
  email: 'meera.iyer@example.com',
  password: 'swimming-family-1',
  phone: '98450 54321',
  swimmers: ['Meera Iyer', 'Kavya Iyer'],
} as const

export async function addFamily(db: Db) {
  const [account] = await db
    .insert(users)
    .values({ name: FAMILY.name, email: FAMILY.email, passwordHash: await hashPassword(FAMILY.password), isVerified: true, phone: FAMILY.phone })
    .returning({ id: users.id })
  const profile = { accountId: account!.id, ageGivenOn: '2026-01-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' }
  await db.insert(swimmers).values({ ...profile, isAccountHolder: true, name: FAMILY.swimmers[0], ageYears: 38 })
  const [child] = await db
    .insert(swimmers)
    .values({ ...profile, name: FAMILY.swimmers[1], ageYears: 10 })
    .returning({ id: swimmers.id })
  await db.insert(guardianConsents).values({ swimmerId: child!.id, guardianName: FAMILY.name, guardianEmail: FAMILY.email, emailVerifiedBy: 'account_code', method: 'registration_form', noticeVersion: PRIVACY_NOTICE_VERSION, givenAt: new Date() })
}

/** The test site with FAMILY's account in its database, written before the server starts. */
export function useFamilySite() {
  return useTestSite({}, { prepare: addFamily })
}
