import { beforeAll } from 'vitest'
import { openDatabase, type Db } from '~/db/client.server'
import { guardianConsents, swimmers, users } from '~/db/schema'
import { hashPassword } from '~/modules/accounts/passwords.server'
import { PRIVACY_NOTICE_VERSION } from '~/modules/swimmers/consent.server'
import { useTestSite } from './site'
import { migratedDataDir } from './test-server'

/** A parent's account with two swimmers: the parent, and a child of 10 whose parent consented. */
export const FAMILY = {
  name: 'Meera Iyer',
  email: 'meera.iyer@example.com',
  password: 'swimming-family-1',
  phone: '98450 54321',
  swimmers: ['Meera Iyer', 'Kavya Iyer'],
} as const

async function addFamily(db: Db) {
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

/**
 * The test site with FAMILY's account in its database (no page adds a second swimmer yet). On
 * PGlite the data directory is written before the server starts (it then owns it); on a
 * PostgreSQL run the server's own database is written once it has started.
 */
export function useFamilySite() {
  let dataDir: string | undefined
  beforeAll(async () => {
    if (process.env.DATABASE_URL) return
    dataDir = migratedDataDir()
    const database = await openDatabase({ dataDir })
    await database.migrate()
    await addFamily(database.db)
    await database.close()
  })
  const site = useTestSite(() => (dataDir ? { DATA_DIR: dataDir } : {}))
  beforeAll(async () => {
    if (!site.server.databaseUrl) return
    const database = await openDatabase({ databaseUrl: site.server.databaseUrl })
    await addFamily(database.db)
    await database.close()
  })
  return site
}
