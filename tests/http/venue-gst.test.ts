import { describe, expect, it } from 'vitest'
import { textOf } from '../support/page-text'
import { fieldState } from '../support/visitor'
import { useTestSite } from '../support/site'

// The lab's own GST registration in a venue's state, as staff set it on the venue's form without
// JavaScript: a GSTIN of that state whose check character is right, and an invoice series of the
// venue's own; each refusal told next to its field with nothing saved, and the change audited.

const site = useTestSite()
const staff = site.sharedStaff

const PUNE = {
  name: 'Balewadi Sports Complex pool',
  address: 'Balewadi High Street, Baner',
  city: 'Pune',
  stateCode: '27',
  mapUrl: '',
  photoId: '',
  hostName: '',
  hostEmail: '',
  hostPhone: '',
  travelMinutes: '180',
}
const MUMBAI = { ...PUNE, name: 'Andheri Sports Complex pool', address: 'Veera Desai Road, Andheri West', city: 'Mumbai' }

/** Valid GSTINs of Maharashtra (27) and Karnataka (29), their check characters right. */
const PUNE_GSTIN = '27AAPFU0939F1ZV'
const MUMBAI_GSTIN = '27AAACR5055K1Z7'
const KARNATAKA_GSTIN = '29AAGCB7383J1Z4'

const venuePath = (id: number) => `/admin/venues/${id}`

/** The venue's page as text, or null when the list has no venue of that name. */
async function venuePage(name: string) {
  const admin = await staff()
  const list = (await admin.get('/admin/venues')).html
  const id = new RegExp(`href="/admin/venues/(\\d+)"[^>]*>${name}<`).exec(list)?.[1]
  return id ? textOf((await admin.get(venuePath(Number(id)))).html) : null
}

describe('a venue’s GST registration', () => {
  it('refuses a GSTIN whose check character is wrong, of another state, or without its series, next to the field, saving nothing', async () => {
    const admin = await staff()
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ gstin: '27AAPFU0939F1ZW', invoiceSeries: 'PUN' }, 'gstin', 'This GSTIN’s last character does not match the others: check it for a typing mistake'],
      [{ gstin: KARNATAKA_GSTIN, invoiceSeries: 'PUN' }, 'gstin', 'This GSTIN is of state 29; a registration for this venue starts with its state’s code, 27'],
      [{ gstin: '27AAPFU0939', invoiceSeries: 'PUN' }, 'gstin', 'A GSTIN has 15 characters; this one has 11'],
      [{ gstin: PUNE_GSTIN, invoiceSeries: '' }, 'invoiceSeries', 'Enter the invoice series this GSTIN numbers its invoices in, for example PUN'],
      [{ gstin: '', invoiceSeries: 'PUN' }, 'gstin', 'Enter the GSTIN this invoice series is for, or leave the series empty'],
      [{ gstin: PUNE_GSTIN, invoiceSeries: 'SSL' }, 'invoiceSeries', 'SSL is the lab’s own series: choose another for this venue'],
      [{ gstin: PUNE_GSTIN, invoiceSeries: 'PUNE-1' }, 'invoiceSeries', 'Enter a short series of 1 to 3 letters or digits, starting with a letter, for example PUN'],
    ]
    for (const [values, field, message] of cases) {
      const refused = await admin.post('/admin/venues', { ...PUNE, ...values })
      expect(refused.status, JSON.stringify(values)).toBe(400)
      expect(fieldState(refused.html, field), JSON.stringify(values)).toEqual({ invalid: true, message })
    }
    expect(await venuePage(PUNE.name)).toBeNull()
  })

  it('saves a GSTIN and series typed in any case, shows them, and audits them; a series another venue uses is refused', async () => {
    const admin = await staff()
    const added = await admin.post('/admin/venues', { ...PUNE, gstin: ` ${PUNE_GSTIN.toLowerCase()} `, invoiceSeries: 'pun' })
    expect(added.status).toBe(302)
    expect(await venuePage(PUNE.name)).toContain(`GST registration GSTIN ${PUNE_GSTIN}, invoices numbered PUN/…`)

    // Another venue in the state, with the same series: refused next to it, nothing saved.
    const taken = await admin.post('/admin/venues', { ...MUMBAI, gstin: MUMBAI_GSTIN, invoiceSeries: 'PUN' })
    expect(taken.status).toBe(409)
    expect(fieldState(taken.html, 'invoiceSeries')).toEqual({ invalid: true, message: 'Another venue already numbers its invoices in this series: choose another' })
    expect(await venuePage(MUMBAI.name)).toBeNull()

    // Added without a registration, then given one taken by Pune: refused, the venue left as it was.
    const mumbai = await admin.post('/admin/venues', MUMBAI)
    expect(mumbai.status).toBe(302)
    const clash = await admin.post(mumbai.location!, { intent: 'edit', ...MUMBAI, gstin: MUMBAI_GSTIN, invoiceSeries: 'pun' })
    expect(clash.status).toBe(409)
    expect(fieldState(clash.html, 'invoiceSeries').message).toBe('Another venue already numbers its invoices in this series: choose another')
    const wrongState = await admin.post(mumbai.location!, { intent: 'edit', ...MUMBAI, stateCode: '29', gstin: MUMBAI_GSTIN, invoiceSeries: 'BOM' })
    expect(wrongState.status).toBe(400)
    expect(fieldState(wrongState.html, 'gstin').message).toBe('This GSTIN is of state 27; a registration for this venue starts with its state’s code, 29')
    expect(await venuePage(MUMBAI.name)).not.toContain('invoices numbered')

    const saved = await admin.post(mumbai.location!, { intent: 'edit', ...MUMBAI, gstin: MUMBAI_GSTIN, invoiceSeries: 'BOM' })
    expect(saved.status).toBe(302)
    expect(await venuePage(MUMBAI.name)).toContain(`GSTIN ${MUMBAI_GSTIN}, invoices numbered BOM/…`)
    const audit = textOf((await admin.get('/admin/audit')).html)
    expect(audit).toContain(`Changed the details of the venue ${MUMBAI.name}`)
    expect(audit).toContain(`GSTIN none → changed to “${MUMBAI_GSTIN}” Invoice series none → changed to “BOM”`)
  })

  it('is not asked of the lab’s own room, whose GSTIN is in the settings, and refused there', async () => {
    const admin = await staff()
    const list = (await admin.get('/admin/venues')).html
    const homeId = Number(/href="\/admin\/venues\/(\d+)"/.exec(list)![1])
    const page = (await admin.get(venuePath(homeId))).html
    expect(page).not.toContain('name="gstin"')
    const refused = await admin.post(venuePath(homeId), { intent: 'edit', ...PUNE, name: 'The lab', city: 'Bengaluru', stateCode: '29', travelMinutes: '0', gstin: KARNATAKA_GSTIN, invoiceSeries: 'BLR' })
    expect(refused.status).toBe(400)
    expect(textOf(refused.html)).toContain('The lab’s own GSTIN is set in Settings, under GST details, not on its room')
    expect(textOf((await admin.get(venuePath(homeId))).html)).not.toContain('invoices numbered')
  })
})
