import { and, eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { campBatches, campLine, campRegistrations, camps } from '~/db/schema'
import { addHours } from '~/lib/lab-time'
import { visitor } from '../../../tests/support/holders'
import { useTestDatabase } from '../../../tests/support/test-database'
import { joinCampLine, LINE_LIMIT_PER_NETWORK, lineArrival, placesAhead, pruneCampLine, settleCampLine, settledArrival } from './line.server'
import { arriving, quietOr } from '~/modules/holders/arrivals.server'
import { BatchNotInCampError, CampNotFoundError, RegistrationClosedError } from './registrations.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'

useTestDatabase()

// Whatever a test started settling is finished before the next test empties the tables.
afterEach(() => settleCampLine())

let nextParent = 1
const parent = (overrides: Partial<{ swimmerName: string; email: string; phone: string }> = {}) => ({ swimmerName: `Swimmer ${nextParent}`, email: `parent${nextParent++}@example.com`, phone: '9845012345', ...overrides })
const join = (applicant = parent(), { camp = 'camp1', batch = 'batch1', holder = visitor({ email: applicant.email }) } = {}) =>
  joinCampLine({ campCode: camp, batchCode: batch, applicant: { ...applicant, guardianDeclaration: true }, holder: { ...holder, email: applicant.email } })

async function setCapacity(capacity: number, camp = 'camp1', batch = 'batch1') {
  const [target] = await db().select({ id: campBatches.id }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, camp), eq(campBatches.code, batch)))
  await db().update(campBatches).set({ capacity }).where(eq(campBatches.id, target!.id))
}

const outcomes = async (ids: number[]) => Promise.all(ids.map(async (id) => (await settledArrival(id, 10_000))!.outcome))

describe('the camp line', () => {
  it('gives the seats to the first parents in arrival order, and tells everyone after that the batch is full', async () => {
    await setCapacity(3)
    const places = []
    for (let index = 0; index < 10; index += 1) places.push((await join()).id)
    expect(await outcomes(places)).toEqual(['seat', 'seat', 'seat', 'full', 'full', 'full', 'full', 'full', 'full', 'full'])
    const full = await lineArrival(places[9]!)
    expect(full!.message).toBe('Batch 1 of Camp 1 is full.')
    const seats = await db().select().from(campRegistrations).where(eq(campRegistrations.status, 'pending'))
    expect(seats.map((seat) => seat.id).sort()).toEqual((await Promise.all(places.slice(0, 3).map(async (id) => (await lineArrival(id))!.registrationId))).sort())
  })

  it('of 200 parents arriving at once for 5 seats, the 5 who came first hold them; nobody else does', async () => {
    await setCapacity(5)
    const places = await Promise.all(Array.from({ length: 200 }, () => join()))
    const ids = places.map((place) => place.id).sort((a, b) => a - b)
    const results = await outcomes(ids)
    expect(results.slice(0, 5)).toEqual(['seat', 'seat', 'seat', 'seat', 'seat'])
    expect(results.slice(5).every((outcome) => outcome === 'full')).toBe(true)
    expect(await db().select().from(campRegistrations).where(eq(campRegistrations.status, 'pending'))).toHaveLength(5)
  })

  it('a parent refused a seat (another unpaid hold for the address) leaves it to the next in line, with the reason', async () => {
    await setCapacity(2)
    const asha = parent({ email: 'asha.family@example.com' })
    // The address already holds an unpaid seat, made in another browser.
    const first = await join(asha)
    expect(await outcomes([first.id])).toEqual(['seat'])
    const again = await join({ ...asha, swimmerName: 'Another Swimmer' })
    const next = await join()
    expect(await outcomes([again.id, next.id])).toEqual(['refused', 'seat'])
    expect((await lineArrival(again.id))!.message).toMatch(/^A booking for this e-mail address is already waiting for payment/)
  })

  it('the same swimmer twice: the second is told the swimmer is registered', async () => {
    const holder = visitor({ email: 'rao.family@example.com' })
    const asha = parent({ swimmerName: 'Asha Rao', email: 'rao.family@example.com' })
    const first = await join(asha, { holder })
    expect(await outcomes([first.id])).toEqual(['seat'])
    await db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null })
    const second = await join({ ...asha, swimmerName: 'ASHA RAO' }, { holder })
    expect(await outcomes([second.id])).toEqual(['refused'])
    expect((await lineArrival(second.id))!.message).toBe('ASHA RAO is already registered for Camp 1 with this e-mail address.')
  })

  it('refuses before the line a camp or batch that does not exist, or a camp that takes no registrations', async () => {
    await expect(join(parent(), { camp: 'camp9' })).rejects.toThrow(CampNotFoundError)
    await expect(join(parent(), { batch: 'evening' })).rejects.toThrow(BatchNotInCampError)
    await db().update(camps).set({ isOpen: false }).where(eq(camps.code, 'camp2'))
    await expect(join(parent(), { camp: 'camp2' })).rejects.toThrow(RegistrationClosedError)
    expect(await db().select().from(campLine)).toEqual([])
  })

  it('one network joins the line a bounded number of times', async () => {
    const network = '203.0.113.7'
    for (let index = 0; index < LINE_LIMIT_PER_NETWORK.limit; index += 1) await join(parent(), { holder: visitor({ network }) })
    await expect(join(parent(), { holder: visitor({ network }) })).rejects.toThrow(RateLimitedError)
    expect(await outcomes([(await join(parent(), { holder: visitor({ network: '203.0.113.8' }) })).id])).toEqual(['seat'])
  })

  it('parents arriving at once are each told their own place; a network past its limit is refused, the others are not', async () => {
    const crowded = '203.0.113.9'
    const asked = Array.from({ length: 45 }, (_, index) => ({ applicant: parent(), network: index % 9 === 0 ? `198.51.100.${index}` : crowded }))
    const answers = await Promise.allSettled(asked.map(({ applicant, network }) => join(applicant, { holder: visitor({ network }) })))
    const fromCrowded = answers.filter((_, index) => asked[index]!.network === crowded)
    expect(fromCrowded.filter((answer) => answer.status === 'fulfilled')).toHaveLength(LINE_LIMIT_PER_NETWORK.limit)
    expect(fromCrowded.filter((answer) => answer.status === 'rejected' && answer.reason instanceof RateLimitedError)).toHaveLength(40 - LINE_LIMIT_PER_NETWORK.limit)
    expect(answers.filter((answer, index) => asked[index]!.network !== crowded && answer.status === 'fulfilled')).toHaveLength(5)
    const placed = answers.flatMap((answer, index) => (answer.status === 'fulfilled' ? [{ id: answer.value.id, swimmerName: asked[index]!.applicant.swimmerName }] : []))
    const rows = await db().select({ id: campLine.id, swimmerName: campLine.swimmerName }).from(campLine)
    expect(rows.sort((a, b) => a.id - b.id)).toEqual(placed.sort((a, b) => a.id - b.id))
  })

  it('counts the parents ahead while they wait, and forgets settled places after a day', async () => {
    const holder = visitor()
    // Three parents in line, not settled yet.
    const places = await db()
      .insert(campLine)
      .values([1, 2, 3].map((index) => ({ campCode: 'camp1', batchCode: 'batch1', swimmerName: `Waiting ${index}`, email: `waiting${index}@example.com`, phone: '9845012345', holderNetwork: `198.51.100.${index}`, holderBrowser: holder.browser })))
      .returning({ id: campLine.id })
    expect(await placesAhead(places[2]!.id)).toBe(2)
    expect((await lineArrival(places[0]!.id))!.outcome).toBeNull()
    await settleCampLine()
    expect(await outcomes(places.map((place) => place.id))).toEqual(['seat', 'seat', 'seat'])
    expect(await placesAhead(places[2]!.id)).toBe(0)
    await pruneCampLine(addHours(new Date(), 23))
    expect(await db().select().from(campLine)).toHaveLength(3)
    await pruneCampLine(addHours(new Date(), 25))
    expect(await db().select().from(campLine)).toEqual([])
  })

  it('in a rush, what waits for quiet goes on once the parents still arriving have been answered (or at its deadline); alone, at once', async () => {
    let quiet = false
    await quietOr(Date.now() + 60_000).then(() => (quiet = true))
    expect(quiet).toBe(true)
    let answer!: () => void
    const answered = new Promise<void>((resolve) => (answer = resolve))
    const rush = Array.from({ length: 6 }, () => arriving(() => answered))
    quiet = false
    const waiting = quietOr(Date.now() + 60_000).then(() => (quiet = true))
    let late = false
    const shortWait = quietOr(Date.now() + 20).then(() => (late = true))
    // The short wait ends at its deadline while the rush is still unanswered; the long one goes on waiting.
    await shortWait
    expect([quiet, late]).toEqual([false, true])
    answer()
    await Promise.all([...rush, waiting, shortWait])
    expect(quiet).toBe(true)
  })

  it.skipIf(!process.env.DATABASE_URL)('one instance settles at a time: while another holds the line, this one leaves it alone (PostgreSQL)', async () => {
    const pg = await import('pg')
    const other = new pg.default.Client({ connectionString: (db() as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString })
    await other.connect()
    try {
      await other.query('BEGIN')
      await other.query(`SELECT pg_advisory_xact_lock(('x' || substr(encode(sha256('camp-line:settler'::bytea), 'hex'), 1, 16))::bit(64)::bigint)`)
      const place = await join()
      await settleCampLine()
      expect((await lineArrival(place.id))!.outcome).toBeNull()
      await other.query('COMMIT')
      expect((await settledArrival(place.id, 10_000))!.outcome).toBe('seat')
    } finally {
      await other.end()
    }
  })
})
