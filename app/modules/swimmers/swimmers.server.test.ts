import { eq } from 'drizzle-orm'
import { consentStatusOf } from './consent.server'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { guardianConsents, swimmers } from '~/db/schema'
import { registerCustomer } from '~/modules/accounts/registration.server'
import { createVerifiedCustomer, registrationInput, swimmerInput as validSwimmer } from '../../../tests/support/accounts'
import { useTestDatabase } from '../../../tests/support/test-database'
import {
  addSwimmer,
  addSwimmerRefusal,
  GuardianDeclarationNeededError,
  holderConsentNotice,
  MAX_SWIMMERS_PER_ACCOUNT,
  MinorAccountHolderError,
  OwnAgeChangeError,
  SwimmerNotFoundError,
  swimmersOf,
  TooManySwimmersError,
  updateSwimmer,
} from './swimmers.server'

useTestDatabase()
const ip = '198.51.100.20'

/** A valid add-or-edit form, as the schema returns it, without the guardian's declaration unless given. */
const swimmerInput = (overrides: Record<string, string> = {}) => validSwimmer({ specialization: 'backstroke', guardianDeclaration: '', ...overrides })

async function account(overrides: Record<string, string> = {}) {
  const user = await registerCustomer(registrationInput(overrides), { ip })
  return { id: user.id, name: user.name, email: user.email }
}

const consentsOf = (swimmerId: number) => db().select().from(guardianConsents).where(eq(guardianConsents.swimmerId, swimmerId))

describe('adding a swimmer', () => {
  it("adds a child under 18 with the holder's declaration, recorded as the parent's consent", async () => {
    const parent = await account()
    const child = await addSwimmer(parent, swimmerInput({ guardianDeclaration: 'on' }))
    expect(child).toMatchObject({ accountId: parent.id, name: 'Kavya Rao', isAccountHolder: false, ageYears: 12, specialization: 'backstroke' })
    expect(await consentsOf(child.id)).toMatchObject([{ guardianName: 'Asha Rao', guardianEmail: 'asha@example.com', method: 'registration_form', emailVerifiedBy: 'account_code', withdrawnAt: null }])
    expect(await consentStatusOf(child)).toMatchObject({ state: 'given', guardianName: 'Asha Rao' })
  })

  it('refuses a child under 18 without the declaration, next to the box, and adds nothing', async () => {
    const parent = await account()
    const refused = addSwimmer(parent, swimmerInput({ birthDate: '2020-01-01', age: '' }))
    await expect(refused).rejects.toThrow(GuardianDeclarationNeededError)
    await expect(refused).rejects.toMatchObject({ field: 'guardianDeclaration' })
    expect(await swimmersOf(parent.id)).toHaveLength(1)
  })

  it('adds an adult without a declaration, and records no consent', async () => {
    const parent = await account()
    const adult = await addSwimmer(parent, swimmerInput({ name: 'Ravi Rao', age: '19' }))
    expect(await consentsOf(adult.id)).toEqual([])
    expect(await consentStatusOf(adult)).toEqual({ state: 'not_needed' })
  })

  it('refuses an account holder under 18', async () => {
    const teen = await account({ age: '15', parentEmail: 'mother@example.com' })
    expect(await addSwimmerRefusal(teen.id)).toMatch(/under 18 cannot add other swimmers/)
    await expect(addSwimmer(teen, swimmerInput({ guardianDeclaration: 'on' }))).rejects.toThrow(MinorAccountHolderError)
    expect(await swimmersOf(teen.id)).toHaveLength(1)
  })

  it(`keeps at most ${MAX_SWIMMERS_PER_ACCOUNT} swimmers to an account, also when many are added at once`, async () => {
    const coach = await account()
    const adds = Array.from({ length: MAX_SWIMMERS_PER_ACCOUNT + 3 }, (_, n) => addSwimmer(coach, swimmerInput({ name: `Squad Swimmer ${String.fromCharCode(65 + n)}`, age: '20' })))
    const results = await Promise.allSettled(adds)
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(MAX_SWIMMERS_PER_ACCOUNT - 1)
    for (const result of results.filter((result) => result.status === 'rejected')) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(TooManySwimmersError)
    expect(await swimmersOf(coach.id)).toHaveLength(MAX_SWIMMERS_PER_ACCOUNT)
    expect(await addSwimmerRefusal(coach.id)).toMatch(/at most 20 swimmers/)
  })
})

describe('editing a swimmer', () => {
  it("changes the account's own swimmer", async () => {
    const parent = await account()
    const child = await addSwimmer(parent, swimmerInput({ guardianDeclaration: 'on' }))
    const updated = await updateSwimmer(parent, child.id, swimmerInput({ name: 'Kavya R. Rao', age: '13', coachName: 'Suresh', strokeBestTime: '01:10.5' }))
    expect(updated).toMatchObject({ id: child.id, name: 'Kavya R. Rao', ageYears: 13, coachName: 'Suresh', strokeBestTime: '01:10.5' })
    // The consent given stands: no second declaration is needed or recorded.
    expect(await consentsOf(child.id)).toHaveLength(1)
  })

  it("answers another account's swimmer, and ids that are none, as not found, and changes nothing", async () => {
    const parent = await account()
    const other = await account({ email: 'other@example.com', name: 'Other Parent' })
    const [theirs] = await swimmersOf(other.id)
    for (const id of [theirs!.id, 0, -1, Number.NaN, 2 ** 60]) {
      await expect(updateSwimmer(parent, id, swimmerInput({ name: 'Taken Over', age: '30' }))).rejects.toThrow(SwimmerNotFoundError)
    }
    const [after] = await db().select().from(swimmers).where(eq(swimmers.id, theirs!.id))
    expect(after).toEqual(theirs)
  })

  it('needs the declaration when a new age or date of birth makes the swimmer under 18, then records it', async () => {
    const parent = await account()
    const adult = await addSwimmer(parent, swimmerInput({ name: 'Ravi Rao', age: '19' }))
    await expect(updateSwimmer(parent, adult.id, swimmerInput({ name: 'Ravi Rao', age: '', birthDate: '2015-06-01' }))).rejects.toThrow(GuardianDeclarationNeededError)
    expect((await swimmersOf(parent.id)).find((swimmer) => swimmer.id === adult.id)).toMatchObject({ ageYears: 19, birthDate: null })
    expect(await consentsOf(adult.id)).toEqual([])

    await updateSwimmer(parent, adult.id, swimmerInput({ name: 'Ravi Rao', age: '', birthDate: '2015-06-01', guardianDeclaration: 'on' }))
    expect(await consentsOf(adult.id)).toMatchObject([{ method: 'registration_form', guardianEmail: 'asha@example.com' }])
  })

  it("does not let an account holder change their own age to or from under 18", async () => {
    const adult = await account()
    const [self] = await swimmersOf(adult.id)
    await expect(updateSwimmer(adult, self!.id, swimmerInput({ name: 'Asha Rao', age: '16', guardianDeclaration: 'on' }))).rejects.toThrow(OwnAgeChangeError)
    expect(await consentsOf(self!.id)).toEqual([])

    const teen = await account({ email: 'teen@example.com', age: '15', parentEmail: 'mother@example.com' })
    const [teenSelf] = await swimmersOf(teen.id)
    await expect(updateSwimmer(teen, teenSelf!.id, swimmerInput({ name: 'Asha Rao', age: '18' }))).rejects.toMatchObject({ field: 'age' })
    // Other changes are fine.
    expect(await updateSwimmer(teen, teenSelf!.id, swimmerInput({ name: 'Asha Rao', age: '15', coachName: 'Meena' }))).toMatchObject({ coachName: 'Meena', ageYears: 15 })
  })
})

describe("an account holder under 18 waiting for a parent's consent", () => {
  it('is told who was e-mailed and until when; an adult holder, nothing', async () => {
    const { user: teen } = await createVerifiedCustomer({ email: 'teen@example.com', age: '15', parentEmail: 'Mother@Example.com' })
    expect(await holderConsentNotice(teen.id)).toEqual({ parentEmail: 'mother@example.com', answerBy: expect.any(String) })
    const [self] = await swimmersOf(teen.id)
    expect(await consentStatusOf(self!)).toMatchObject({ state: 'waiting', parentEmail: 'mother@example.com' })
    const adult = await account()
    expect(await holderConsentNotice(adult.id)).toBeNull()
  })
})
