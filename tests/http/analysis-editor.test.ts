import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { addDays, addMonths, formatWeekdayDate, isoWeekday, labToday } from '~/lib/lab-time'
import { invalidSubmission, type FormSpec } from '../support/hostile-input'
import { decodeHtml, fieldState, text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// Staff recording and publishing an analysis as they would without JavaScript: every form of the
// editor and of the reference bands, bad input answered with messages next to the fields (never a
// 500), the CSV import's preview and confirmation, the family's e-mail and My Bookings; and that
// nobody but staff gets in.

const site = useTestSite()

/** A weekday of a month beyond the seeded availability, opened by staff and booked at the desk. */
const farMonth = addMonths(labToday().slice(0, 7), 2)
const sessionDate = [0, 1, 2, 3, 4, 5, 6].map((offset) => addDays(`${farMonth}-08`, offset)).find((date) => isoWeekday(date) === 3)!

let reference: string
let family: Visitor
const editor = () => `/admin/bookings/${reference}/analysis`

beforeAll(async () => {
  const admin = await site.sharedStaff()
  family = await site.customer('Asha Rao')
  const hours = new URLSearchParams({ intent: 'create', from: sessionDate, to: sessionDate, weekdays: '3', startTime: '09:00', endTime: '13:00', slotDurationMinutes: '60', capacity: '2' })
  expect((await admin.post('/admin/availability', hours)).status).toBe(302)
  const made = await admin.post('/admin/bookings/new', { name: 'Asha Rao', swimmerName: '', email: 'asharao@example.com', phone: '9845012345', product: 'single_race', date: sessionDate, time: '10:00', origin: 'complimentary', amount: '', notes: '' })
  expect(made.status).toBe(302)
  reference = /^\/admin\/bookings\/(SWP-\d{10})$/.exec(made.location!)![1]!
})

describe('who gets in', () => {
  it('guests are sent to sign in, customers are refused, and neither can post; an unknown booking is not found', async () => {
    const pages = [editor(), '/admin/reference-bands']
    const guest = new Visitor(site.url)
    const customer = family
    for (const page of pages) {
      const asGuest = await guest.get(page)
      expect([asGuest.status, asGuest.location?.startsWith('/login')], page).toEqual([302, true])
      expect((await customer.get(page)).status, page).toBe(403)
      expect((await guest.post(page, { intent: 'start' })).status, page).toBe(302)
      expect((await customer.post(page, { intent: 'start' })).status, page).toBe(403)
    }
    expect(text((await (await site.sharedStaff()).get(editor())).html)).toContain('Not started')
    const admin = await site.sharedStaff()
    expect((await admin.get('/admin/bookings/SWP-0000000000/analysis')).status).toBe(404)
    expect((await admin.post('/admin/bookings/SWP-0000000000/analysis', { intent: 'start' })).status).toBe(404)
  })
})

describe('the editor', () => {
  it('records events, metrics, a CSV import, findings and drills, and publishes, e-mailing the family', async () => {
    const admin = await site.sharedStaff()
    const booking = text((await admin.get(`/admin/bookings/${reference}`)).html)
    expect(booking).toContain('Analysis Not started')
    expect(booking).toContain('Open the analysis')
    // Nothing but starting before the analysis is started.
    expect((await admin.post(editor(), { intent: 'add-event', stroke: 'freestyle', distance: '50' })).status).toBe(404)
    expect((await admin.post(editor(), { intent: 'start' })).status).toBe(302)
    expect(text((await admin.get(editor())).html)).toContain('Draft: the family does not see it yet')

    const badEvent = await admin.post(editor(), { intent: 'add-event', stroke: 'doggy', distance: '60' })
    expect(badEvent.status).toBe(400)
    expect(fieldState(badEvent.html, 'stroke')).toEqual({ invalid: true, message: 'Choose a stroke' })
    expect(fieldState(badEvent.html, 'distance')).toEqual({ invalid: true, message: 'Choose a distance' })
    expect((await admin.post(editor(), { intent: 'add-event', stroke: 'freestyle', distance: '50' })).status).toBe(302)
    const twice = await admin.post(editor(), { intent: 'add-event', stroke: 'freestyle', distance: '50' })
    expect(twice.status).toBe(409)
    expect(fieldState(twice.html, 'distance')).toEqual({ invalid: true, message: 'The 50 m freestyle is already in this analysis.' })

    const page = decodeHtml((await admin.get(editor())).html)
    const eventId = /name="eventId" value="(\d+)"/.exec(page)![1]!
    const badMetrics = await admin.post(editor(), { intent: 'metrics', eventId, value_final_time: 'fast', value_stroke_rate: '52' })
    expect(badMetrics.status).toBe(400)
    expect(fieldState(badMetrics.html, 'value_final_time')).toEqual({ invalid: true, message: 'Enter a number, for example 1.85 or a time as 1:05.32' })
    expect(badMetrics.html).toMatch(/name="value_stroke_rate"[^>]*value="52"|value="52"[^>]*name="value_stroke_rate"/)
    expect((await admin.post(editor(), { intent: 'metrics', eventId, value_final_time: '28.9', value_stroke_rate: '' })).status).toBe(302)
    // Another booking's event, or one that does not exist, is not found.
    expect((await admin.post(editor(), { intent: 'metrics', eventId: '999999', value_final_time: '1' })).status).toBe(404)
    expect((await admin.post(editor(), { intent: 'metrics', eventId: 'x' })).status).toBe(404)

    const upload = (csv: string, name = 'export.csv') => {
      const form = new FormData()
      form.set('intent', 'csv-preview')
      form.set('file', new File([csv], name, { type: 'text/csv' }))
      return admin.upload(editor(), form)
    }
    const bad = await upload('stroke,distance_m,metric,value\nfreestyle,50,final_time,fast\nfly,50,stroke_rate,50\n')
    expect(bad.status).toBe(400)
    expect(text(bad.html)).toContain('Row 2, column value: “fast” is not a number.')
    expect(text(bad.html)).toContain('Row 3, column stroke: “fly” is not a stroke')
    expect(bad.html).not.toContain('name="csv"')
    const good = 'stroke,distance_m,metric,value,unit,better\nfreestyle,50,final_time,28.41,,\nfreestyle,50,Stroke rate,52.3,,\nbackstroke,100,Dolphin kick frequency,2.1,Hz,higher\n'
    const preview = await upload(good)
    expect(preview.status).toBe(200)
    const previewed = text(preview.html)
    expect(previewed).toContain('28.9 s → 28.41 s')
    expect(previewed).toContain('52.3 strokes/min (new)')
    expect(previewed).toContain('adds the 100 m backstroke')
    // Nothing is saved by the preview.
    expect(text((await admin.get(editor())).html)).not.toContain('100 m backstroke')
    const csv = decodeHtml(/name="csv" value="([^"]*)"/.exec(preview.html)![1]!)
    const confirm = new FormData()
    confirm.set('intent', 'csv-import')
    confirm.set('fileName', 'export.csv')
    confirm.set('csv', csv)
    expect((await admin.upload(editor(), confirm)).status).toBe(302)
    const imported = decodeHtml((await admin.get(editor())).html)
    expect(imported).toMatch(/name="value_final_time"[^>]*value="28.41"|value="28.41"[^>]*name="value_final_time"/)
    expect(text(imported)).toContain('100 m backstroke')
    // A confirmation whose file was changed on the way is checked again, and saves nothing.
    confirm.set('csv', 'stroke,distance_m,metric,value\nfreestyle,50,final_time,soon\n')
    const tampered = await admin.upload(editor(), confirm)
    expect(tampered.status).toBe(400)
    expect(text(tampered.html)).toContain('Row 2, column value: “soon” is not a number.')

    const badFinding = await admin.post(editor(), { intent: 'finding', title: '', whyItMatters: '', priority: 'urgent' })
    expect(badFinding.status).toBe(400)
    expect(fieldState(badFinding.html, 'title')).toEqual({ invalid: true, message: 'Enter what you found' })
    expect((await admin.post(editor(), { intent: 'finding', title: 'Early breathing on the turn', whyItMatters: 'It slows the wall.', priority: 'high' })).status).toBe(302)
    const findingId = /name="findingId" value="(\d+)"/.exec((await admin.get(editor())).html)![1]!
    const badDrill = await admin.post(editor(), { intent: 'drill', findingId, name: 'Tumble turns', instructions: '', videoUrl: 'javascript:alert(1)' })
    expect(badDrill.status).toBe(400)
    expect(fieldState(badDrill.html, 'videoUrl')).toEqual({ invalid: true, message: 'Enter a full address starting with https://' })
    expect((await admin.post(editor(), { intent: 'drill', findingId, name: 'Tumble turns', instructions: '10 × 25 m', videoUrl: 'https://video.example/turns' })).status).toBe(302)
    const drillId = /name="drillId" value="(\d+)"/.exec((await admin.get(editor())).html)![1]!
    const badChange = await admin.post(editor(), { intent: 'drill', findingId, drillId, name: '', instructions: '', videoUrl: '' })
    expect(badChange.status).toBe(400)
    expect(fieldState(badChange.html, 'name')).toEqual({ invalid: true, message: 'Name the drill' })
    expect((await admin.post(editor(), { intent: 'drill', findingId, drillId, name: 'Tumble turns without breathing', instructions: '10 × 25 m', videoUrl: 'https://video.example/turns' })).status).toBe(302)
    expect(text((await admin.get(editor())).html)).toContain('Video of Tumble turns without breathing')

    // The session is weeks away: publishing asks first, and publishes nothing until staff confirm.
    const asked = await admin.post(editor(), { intent: 'publish', tellFamily: 'on' })
    expect(asked.status).toBe(200)
    expect(text(asked.html)).toContain(`This session has not happened yet (it starts on ${formatWeekdayDate(sessionDate)}). Publish anyway? Publish anyway Not yet`)
    const confirmForm = decodeHtml(asked.html).split('id="publish-question"')[1]!.split('</form>')[0]!
    expect(confirmForm).toContain('name="intent" value="publish"')
    expect(confirmForm).toContain('name="tellFamily" value="on"')
    expect(confirmForm).toMatch(/<button type="submit"(?=[^>]*name="confirm")(?=[^>]*value="yes")/)
    expect(text((await admin.get(editor())).html)).toContain('Draft: the family does not see it yet')
    expect((await admin.post(editor(), { intent: 'publish', confirm: 'yes' })).status).toBe(302)
    const mail = await site.sink.waitForMailTo('asharao@example.com', /Asha's race analysis is ready/)
    const analysisId = /\/analyses\/(\d+)/.exec(mail.text)![1]!
    expect(text((await admin.get(editor())).html)).toMatch(/Published on \d+/)
    expect(text((await admin.get(`/admin/bookings/${reference}`)).html)).toMatch(/Analysis Published on/)
    const mine = decodeHtml((await family.get('/my-bookings')).html)
    expect(text(mine)).toContain('Report ready')
    expect(mine).toContain(`href="/analyses/${analysisId}"`)
  })

  it("a guest booking's family is e-mailed its private link, whose page says the report is ready and links the analysis", async () => {
    const admin = await site.sharedStaff()
    const made = await admin.post('/admin/bookings/new', { name: 'Ravi Kumar', swimmerName: '', email: 'ravi.kumar@example.com', phone: '9845012345', product: 'single_race', date: sessionDate, time: '11:00', origin: 'complimentary', amount: '', notes: '' })
    const guestEditor = `${made.location}/analysis`
    expect((await admin.post(guestEditor, { intent: 'start' })).status).toBe(302)
    const refused = await admin.post(guestEditor, { intent: 'publish', confirm: 'yes' })
    expect(refused.status).toBe(409)
    expect(text(refused.html)).toContain('There is nothing to publish yet: add an event with at least one metric, or a finding.')
    expect((await admin.post(guestEditor, { intent: 'finding', title: 'Kick from the hips', whyItMatters: '', priority: 'medium' })).status).toBe(302)
    expect((await admin.post(guestEditor, { intent: 'publish', confirm: 'yes' })).status).toBe(302)
    const mail = await site.sink.waitForMailTo('ravi.kumar@example.com', /Ravi's race analysis is ready/)
    const link = /(https?:\/\/\S+\/booking\/view\?[^\s"<]+)/.exec(mail.text)![1]!
    const view = await new Visitor(site.url).get(link)
    expect(view.status).toBe(200)
    expect(text(view.html)).toContain('Report ready')
    expect(view.html).toMatch(/href="\/analyses\/\d+"/)
    // Publishing again without ticking "Tell the family" sends nothing; ticked, the "updated" e-mail.
    expect((await admin.post(guestEditor, { intent: 'publish', confirm: 'yes' })).status).toBe(302)
    expect((await admin.post(guestEditor, { intent: 'publish', tellFamily: 'on', confirm: 'yes' })).status).toBe(302)
    await site.sink.waitForMailTo('ravi.kumar@example.com', /Ravi's race analysis has been updated/)
  })

  it('answers broken and hostile posts with a 4xx, never a 500', async () => {
    const admin = await site.sharedStaff()
    const posts: Array<Record<string, string>> = [
      { intent: 'nonsense' },
      {},
      { intent: 'details', poolLength: '33', summary: 'x'.repeat(5000) },
      { intent: 'remove-event', eventId: '-1' },
      { intent: 'remove-finding', findingId: '99999999999' },
      { intent: 'remove-drill', drillId: '1e3' },
      { intent: 'custom-metric', eventId: '1', label: '', unit: '', better: '', value: '' },
      { intent: 'csv-import', csv: 'nonsense' },
      { intent: 'csv-preview' },
      { intent: 'publish', tellFamily: 'maybe' },
    ]
    for (const form of posts) {
      const response = await admin.post(editor(), form)
      expect(response.status, JSON.stringify(form).slice(0, 80)).toBeGreaterThanOrEqual(400)
      expect(response.status, JSON.stringify(form).slice(0, 80)).toBeLessThan(500)
    }
    const details = await admin.post(editor(), { intent: 'details', poolLength: '33', summary: 'x'.repeat(5000) })
    expect(text(details.html)).toContain('Pool length 25 m 50 m Choose the length of the pool')
    expect(text(details.html)).toContain('Please use at most 4000 characters')
  })
})

describe('hostile submissions', () => {
  it('every form of the editor and of the bands answers with its page and a message, never a 500', async () => {
    const admin = await site.sharedStaff()
    const page = decodeHtml((await admin.get(editor())).html)
    const eventId = /name="eventId" value="(\d+)"/.exec(page)![1]!
    const forms: Array<{ path: string; spec: FormSpec }> = [
      { path: editor(), spec: { valid: { poolLength: '25', summary: 'Fine.' }, strict: { poolLength: 'choice' }, fixed: { intent: 'details' } } },
      { path: editor(), spec: { valid: { stroke: 'backstroke', distance: '100' }, strict: { stroke: 'choice', distance: 'choice' }, fixed: { intent: 'add-event' } } },
      { path: editor(), spec: { valid: { label: 'Glide', unit: 's', better: 'higher', value: '1.2' }, strict: { better: 'choice' }, fixed: { intent: 'custom-metric', eventId } } },
      { path: editor(), spec: { valid: { title: 'Kick', whyItMatters: '', priority: 'low' }, strict: { priority: 'choice' }, fixed: { intent: 'finding' } } },
      { path: editor(), spec: { valid: { tellFamily: 'on' }, strict: { tellFamily: 'choice' }, fixed: { intent: 'publish' } } },
      { path: '/admin/reference-bands', spec: { valid: { stroke: 'freestyle', distance: '50', metric: 'final_time', ageMin: '11', ageMax: '12', gender: 'any', level: 'State finalist', value: '30.5' }, strict: { stroke: 'choice', distance: 'choice', metric: 'choice', ageMin: 'count', ageMax: 'count', gender: 'choice' }, fixed: { intent: 'band' } } },
    ]
    for (const { path, spec } of forms) {
      await fc.assert(
        fc.asyncProperty(invalidSubmission(spec), async (submission) => {
          const label = `${path} ${submission.toString().slice(0, 200)}`
          const response = await admin.post(path, submission)
          expect(response.status, label).toBeLessThan(500)
          if (response.status < 400) return
          // The error page is only for what no page sends (a NUL, a list index far beyond any form).
          if (/<title>Bad request<\/title>/.test(response.html)) expect(`${[...submission].join()}`, label).toMatch(/\u0000|\[\d{4,}\]/)
          else expect(response.html, label).toMatch(/aria-invalid="true"|role="alert"|<p id="[^"]+-error"/)
        }),
        { numRuns: 8 },
      )
    }
  })
})

describe('reference bands', () => {
  it('are added, edited and deleted, with each mistake next to its field', async () => {
    const admin = await site.sharedStaff()
    expect(text((await admin.get('/admin/reference-bands')).html)).toContain('No bands yet')
    const band = { intent: 'band', stroke: 'freestyle', distance: '50', metric: 'final_time', ageMin: '11', ageMax: '12', gender: 'female', level: 'State finalist', value: '30.5' }
    const bad = await admin.post('/admin/reference-bands', { ...band, ageMin: '14', value: 'quick' })
    expect(bad.status).toBe(400)
    expect(fieldState(bad.html, 'ageMax')).toEqual({ invalid: true, message: 'The oldest age must be at least the youngest' })
    expect(fieldState(bad.html, 'value')).toEqual({ invalid: true, message: 'Enter a number, for example 1.85 or a time as 1:05.32' })
    expect((await admin.post('/admin/reference-bands', band)).status).toBe(302)
    const twice = await admin.post('/admin/reference-bands', band)
    expect(twice.status).toBe(409)
    expect(fieldState(twice.html, 'level')).toEqual({ invalid: true, message: 'There is a band of this level for the same event, metric, ages and gender already.' })
    const listed = decodeHtml((await admin.get('/admin/reference-bands')).html)
    const bandId = /href="\/admin\/reference-bands\?edit=(\d+)/.exec(listed)![1]!
    expect(text(listed)).toContain('50 m freestyle Final time 11-12 Female State finalist 30.5 s')
    // A mistake in a band being edited shows in its form, which posts back to the edit address.
    expect(decodeHtml((await admin.get(`/admin/reference-bands?edit=${bandId}`)).html)).toContain(`action="/admin/reference-bands?edit=${bandId}"`)
    const badEdit = await admin.post(`/admin/reference-bands?edit=${bandId}`, { ...band, bandId, level: '' })
    expect(badEdit.status).toBe(400)
    expect(fieldState(badEdit.html, 'level')).toEqual({ invalid: true, message: 'Name the level, for example “State finalist”' })
    expect((await admin.post('/admin/reference-bands', { ...band, bandId: '999999' })).status).toBe(404)
    expect((await admin.post('/admin/reference-bands', { ...band, bandId, value: '30.1' })).status).toBe(302)
    expect(text((await admin.get('/admin/reference-bands')).html)).toContain('State finalist 30.1 s')
    const asked = await admin.post('/admin/reference-bands', { intent: 'delete', bandId })
    expect([asked.status, text(asked.html).includes('Delete this band?')]).toEqual([200, true])
    expect((await admin.post('/admin/reference-bands', { intent: 'delete', bandId, confirm: 'yes' })).status).toBe(302)
    expect(text((await admin.get('/admin/reference-bands')).html)).toContain('No bands yet')
    expect((await admin.post('/admin/reference-bands', { intent: 'delete', bandId: 'x' })).status).toBe(404)
    const audit = text((await admin.get('/admin/audit?type=reference_band')).html)
    expect(audit).toContain('Added the reference band')
    expect(audit).toContain('Deleted the reference band')
  })
})
