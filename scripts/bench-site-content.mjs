// The site as the lab will run it, filled through its own pages as staff fill it: phone photos of
// 12 megapixels uploaded to the media library and chosen for the coach, the team, two testimonials
// (agreed by their people through the e-mailed links), a venue and two partners' logos; a customer's
// analysis recorded with its figures, reference bands, a finding, a clip and its poster, published
// to the family and copied as the public sample. Used by bench:lighthouse to measure the pages with
// the bytes they will carry, not the empty site a fresh start shows.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import sharp from 'sharp'
import { cameraPhoto, labDate, libraryIds, libraryStatuses, mailedTo, mediaUploadForm, request, signInStaff, signUpThroughPages } from './bench-support.mjs'

/** The staff account the site is started with (ADMIN_EMAIL, ADMIN_PASSWORD). */
export const STAFF = { email: 'bench.staff@lab.example', password: 'bench-staff-password-1' }

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** A short clip of a swimmer (the browser tests' own): the page loads only its metadata before it is played. */
const CLIP = path.join(root, 'tests/fixtures/swim-clip.webm')

const LANDSCAPE = { width: 4032, height: 3024 }
const UPRIGHT = { width: 3024, height: 4032 }

const COACH = { name: 'Vikram Nair', credentials: 'ASCA Level 3 coach, former national finalist', photo: 'Vikram on deck' }
const TEAM = [
  { name: 'Dr Meera Iyer', role: 'Founder and sports biomechanist', bio: 'Fifteen years of stroke analysis for state and national squads; reads every report before it goes out.', photo: 'Meera at the lab' },
  { name: 'Arjun Menon', role: 'Performance analyst', bio: 'Turns the underwater footage into the figures families see, and checks them against the reference bands.', photo: 'Arjun at the cameras' },
  { name: 'Kavya Reddy', role: 'Swimming coach', bio: 'Former national-level backstroker who turns each finding into drills a young swimmer can do at their own pool.', photo: 'Kavya at the poolside' },
  { name: 'Rohan Das', role: 'Sports physiotherapist', bio: 'Looks after shoulders and knees: mobility screening before the session, and what to work on after it.', photo: 'Rohan with a swimmer' },
]
const TESTIMONIALS = [
  { quote: 'The lab showed me exactly where my catch slipped. Two months of the drills later I was 0.8 seconds faster over 100 m.', name: 'Nila Rao', role: 'national-level swimmer', email: 'nila.rao@example.com', photo: 'Nila at the pool' },
  { quote: 'Seeing the underwater footage next to the numbers made the feedback click for my daughter, and for her coach.', name: 'Suresh Kumar', role: 'parent of a 13-year-old', email: 'suresh.kumar@example.com', photo: 'Suresh at the stands' },
]
const PARTNERS = [
  { kind: 'Partner (logo from the Partner logos)', name: 'Aquatic Sports Academy', link: 'https://aquatic.example.com', logo: 'Aquatic Sports Academy logo', collection: 'partner' },
  { kind: 'Partner (logo from the Partner logos)', name: 'Bengaluru Swim Club', link: 'https://swimclub.example.com', logo: 'Bengaluru Swim Club logo', collection: 'partner' },
  { kind: 'Venue (photo from the Venue photos)', name: 'Basavanagudi Aquatic Centre', link: null, logo: 'Basavanagudi Aquatic Centre pool', collection: 'venue' },
]
/** The hero's photos: a landscape one for wide screens and an upright one for phones. */
const HERO = { landscape: 'Hero: the pool from the blocks', portrait: 'Hero: a swimmer on the blocks' }

/**
 * What goes into the media library, in the order it is uploaded: each photo's name there, its
 * collection, its alt text, and how it is made (a camera photo of `size`, or a logo).
 */
function libraryPlan() {
  const portrait = (title, alt, index) => ({ title, collection: 'portrait', altText: alt, camera: { index, size: { ...LANDSCAPE, sideways: index % 2 === 0 } } })
  return [
    portrait(COACH.photo, `${COACH.name} on the pool deck with a stopwatch`, 0),
    ...TEAM.map((member, index) => portrait(member.photo, `${member.name} smiling at the lab`, index + 1)),
    ...TESTIMONIALS.map((person, index) => portrait(person.photo, `${person.name} at the pool`, index + 5)),
    ...PARTNERS.filter((partner) => partner.collection === 'partner').map((partner) => ({ title: partner.logo, collection: 'partner', altText: partner.name, logo: partner.name })),
    { title: PARTNERS[2].logo, collection: 'venue', altText: 'The 50 m pool of the Basavanagudi Aquatic Centre from the stands', camera: { index: 7, size: { ...LANDSCAPE, sideways: false } } },
    { title: HERO.landscape, collection: 'pool', altText: 'The lab’s pool seen from the starting blocks, lane ropes out', camera: { index: 8, size: { ...LANDSCAPE, sideways: false } } },
    { title: HERO.portrait, collection: 'pool', altText: 'A swimmer crouched on the blocks, ready to start', camera: { index: 9, size: { ...UPRIGHT, sideways: false } } },
  ]
}

/** A partner's logo as a designer hands it over: a 1200 × 600 PNG of flat colours and its name. */
function logoPng(name, index) {
  const hue = 200 + index * 70
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="600"><rect width="1200" height="600" fill="white"/><circle cx="220" cy="300" r="170" fill="hsl(${hue},70%,40%)"/><path d="M120 330 q50 -60 100 0 t100 0" stroke="white" stroke-width="24" fill="none"/><text x="430" y="330" font-family="DejaVu Sans" font-weight="bold" font-size="64" fill="hsl(${hue},60%,25%)">${name}</text></svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

/**
 * Uploads the library's photos through /admin/media as staff do, one after another (each is made
 * while the site processes the one before), and waits until the site has made their files.
 * Returns their ids by name.
 */
async function fillLibrary(base, headers) {
  const plan = libraryPlan()
  for (const [index, item] of plan.entries()) {
    const bytes = item.camera ? await cameraPhoto(item.camera.index, item.camera.size) : await logoPng(item.logo, index)
    const form = await mediaUploadForm({ bytes, type: item.camera ? 'image/jpeg' : 'image/png', fileName: item.camera ? `IMG_${5100 + index}.jpg` : `logo-${index}.png`, ...item })
    const answer = await request(`${base}/admin/media`, { method: 'POST', headers: { ...headers, Origin: base, 'Content-Type': form.contentType, 'Content-Length': String(form.body.length) }, body: form.body })
    if (answer.status !== 302) throw new Error(`Uploading ${item.title} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`)
  }
  const deadline = Date.now() + 10 * 60_000
  for (;;) {
    const statuses = await libraryStatuses(base, headers)
    if (statuses.failed) throw new Error(`${statuses.failed} of the photos could not be processed`)
    if (statuses.ready === plan.length) break
    if (Date.now() > deadline) throw new Error(`The library made ${statuses.ready} of ${plan.length} photos ready in 10 minutes`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return libraryIds(base, headers)
}

/** Waits for the toast a saved form shows. */
const toast = (page, title) => page.getByText(title, { exact: true }).first().waitFor()

/** The coach and the team in /admin/settings, each with their details and portrait. */
async function chooseTeamPhotos(page) {
  await page.goto('/admin/settings')
  const coach = page.locator('form#coach')
  await coach.getByLabel('Name').fill(COACH.name)
  await coach.getByLabel('Credentials').fill(COACH.credentials)
  await coach.getByLabel('Photo').selectOption({ label: COACH.photo })
  await coach.getByRole('button', { name: 'Save the coach' }).click()
  await toast(page, 'Coach saved')
  for (const [index, member] of TEAM.entries()) {
    await page.goto('/admin/settings')
    const form = page.locator('form', { has: page.getByRole('button', { name: `Save team member ${index + 1}` }) })
    await form.getByLabel('Name').fill(member.name)
    await form.getByLabel('Role').fill(member.role)
    await form.getByLabel('Short bio').fill(member.bio)
    await form.getByLabel('Photo').selectOption({ label: member.photo })
    await form.getByRole('button', { name: `Save team member ${index + 1}` }).click()
    await toast(page, 'Team member saved')
  }
}

/**
 * Testimonials asked for at /admin/testimonials by staff (`page`), and agreed by each person through
 * the link mailed to them, in a browser of their own (`visitor`): the agreement lands on the home
 * page, which sends a signed-in visitor on.
 */
async function addTestimonials(page, visitor, readLog) {
  for (const person of TESTIMONIALS) {
    await page.goto('/admin/testimonials')
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Save and e-mail the request' }) })
    await form.getByLabel('Their words').fill(person.quote)
    await form.getByLabel('Name to show').fill(person.name)
    await form.getByLabel('Role').fill(person.role)
    await form.getByLabel('Photo (optional)').selectOption({ label: person.photo })
    await form.getByLabel('E-mail address to ask').fill(person.email)
    await form.getByRole('button', { name: 'Save and e-mail the request' }).click()
    await page.getByText('Waiting for an answer').first().waitFor()
    const [link] = await mailedTo(readLog, person.email, /\/testimonials\/[A-Za-z0-9_-]{43}/)
    await visitor.goto(link)
    await visitor.getByRole('button', { name: 'Yes, show it' }).click()
    await visitor.waitForURL((url) => url.pathname === '/')
  }
}

/** The partners and the venue at /admin/partners, each with its logo or photo. */
async function addPartners(page) {
  for (const partner of PARTNERS) {
    await page.goto('/admin/partners')
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Add it' }) })
    await form.getByLabel('Kind').selectOption({ label: partner.kind })
    await form.getByLabel('Name').fill(partner.name)
    if (partner.link) await form.getByLabel('Website').fill(partner.link)
    await form.getByLabel('Logo').selectOption({ label: partner.logo })
    await form.getByRole('button', { name: 'Add it' }).click()
    await toast(page, 'Added')
  }
}

/**
 * The home page's pictures in Catalogue & settings: the landscape photo for wider screens, the
 * upright one for phones (both media ids), and the services' photos beside them.
 */
async function chooseHeroPhotos(page, { landscape, portrait }) {
  await page.goto('/admin/settings#pictures')
  const form = page.locator('form', { has: page.locator('input[name="intent"][value="pictures"]') })
  await form.locator('select[name="heroWide"]').selectOption(String(landscape))
  await form.locator('select[name="heroPhone"]').selectOption(String(portrait))
  await form.locator('select[name="raceAnalysis"]').selectOption(String(portrait))
  await form.locator('select[name="cameras"]').selectOption(String(landscape))
  await form.getByRole('button', { name: 'Save the pictures' }).click()
  await page.getByText('Pictures saved').first().waitFor()
}

/** Reference bands at /admin/reference-bands for the figures the analysis shows, for women of 18 to 35. */
async function addReferenceBands(page) {
  const bands = [
    { metric: 'Final time (s)', value: '28.40', level: 'State finalist' },
    { metric: 'Final time (s)', value: '26.90', level: 'National finalist' },
    { metric: 'Stroke rate (strokes/min)', value: '48', level: 'State finalist' },
    { metric: 'Stroke rate (strokes/min)', value: '54', level: 'National finalist' },
  ]
  for (const band of bands) {
    await page.goto('/admin/reference-bands')
    const form = page.locator('form', { has: page.getByLabel('Youngest age') })
    await form.getByLabel('Stroke').selectOption({ label: 'Freestyle' })
    await form.getByLabel('Distance').selectOption('50')
    await form.getByLabel('Metric').selectOption({ label: band.metric })
    await form.getByLabel('Youngest age').fill('18')
    await form.getByLabel('Oldest age').fill('35')
    await form.getByLabel('Value').fill(band.value)
    await form.getByRole('radio', { name: 'Female' }).check()
    await form.getByLabel('Level').fill(band.level)
    const saved = page.waitForResponse((response) => response.request().method() === 'POST')
    await form.locator('button[type=submit]').click()
    await saved
    await page.waitForLoadState('networkidle')
  }
}

/**
 * A session booked by staff for the customer of `email`, its analysis recorded (an event with its
 * figures, a summary, a finding with a drill, a clip with a poster) and published; then copied as
 * the public sample and published there. Returns the path of the family's page of it.
 */
async function recordAnalysis(page, readLog, email) {
  await page.goto('/admin/bookings/new')
  await page.getByLabel("Customer's name").fill('Asha Pillai')
  await page.getByLabel("Customer's e-mail").fill(email)
  await page.getByLabel('Booking', { exact: true }).selectOption('single_both')
  await page.getByLabel('Date (Day 1)').fill(labDate(3))
  await page.getByLabel('Start time').fill('10:00')
  await page.getByRole('button', { name: 'Make the booking' }).click()
  await page.waitForURL((url) => /^\/admin\/bookings\/(?!new$)[^/]+$/.test(url.pathname))
  const reference = new URL(page.url()).pathname.split('/').at(-1)

  await page.goto(`/admin/bookings/${reference}/analysis`)
  await page.getByRole('button', { name: 'Start the analysis' }).first().click()
  await toast(page, 'Analysis started')
  const details = page.locator('form#details-form')
  await details.getByLabel('Summary for the family').fill('A strong start and a fast kick. Most of the time to find is in the catch and in the breathing on the last fifteen metres, where the stroke shortens.')
  await details.getByRole('button', { name: 'Save the pool and summary' }).click()
  await toast(page, 'Pool and summary saved')
  const events = page.locator('#events')
  await events.getByLabel('Stroke').selectOption('freestyle')
  await events.getByLabel('Distance').selectOption('50')
  await events.getByRole('button', { name: 'Add the event' }).click()
  await events.getByRole('heading', { name: /50 m freestyle/ }).waitFor()
  const figures = { 'Final time \\(s\\)': '28.12', 'Stroke rate': '51', 'Stroke length': '1.86', 'Reaction time': '0.71', '15 m time': '6.92', 'Breakout distance': '9.5' }
  for (const [label, value] of Object.entries(figures)) await events.getByLabel(new RegExp(`^${label}`)).first().fill(value)
  await events.getByRole('button', { name: 'Save the metrics of the 50 m freestyle' }).click()
  await toast(page, 'Metrics saved')
  const findings = page.locator('#findings')
  await findings.getByLabel('What you found').fill('Late breathing on the last 15 m')
  await findings.getByLabel('Why it matters').fill('Lifting the head to breathe drops the hips, and the stroke shortens just when the race is decided.')
  await findings.getByRole('radio', { name: 'High' }).check()
  await findings.getByRole('button', { name: 'Add the finding' }).click()
  await toast(page, 'Finding added')
  await findings.getByText('Add a drill').click()
  await findings.getByLabel('Drill', { exact: true }).fill('Breathe-out turns')
  await findings.getByLabel('How to do it').fill('8 × 25 m, breathing out fully before the wall and taking the first breath after the third stroke.')
  await findings.getByRole('button', { name: 'Add the drill' }).click()
  await toast(page, 'Drill added')

  await page.goto(`/admin/bookings/${reference}/analysis/clips`)
  const upload = page.getByRole('form', { name: 'Upload a clip' })
  await upload.getByLabel('Video file').setInputFiles(CLIP)
  await upload.getByLabel('Title').fill('Underwater, the turn')
  await upload.getByLabel('Camera angle').selectOption({ label: 'Underwater, side' })
  await upload.getByRole('button', { name: 'Upload clip' }).click()
  await page.getByRole('heading', { name: 'Underwater, the turn' }).waitFor({ timeout: 60_000 })
  // A poster as staff take it from the camera's footage: a full-HD frame.
  const poster = await sharp(await cameraPhoto(11, { width: 1920, height: 1080, sideways: false }))
    .jpeg({ quality: 85 })
    .toBuffer()
  const posterForm = page.getByRole('form', { name: 'Poster of Underwater, the turn' })
  await posterForm.getByLabel('Poster image').setInputFiles({ name: 'frame.jpg', mimeType: 'image/jpeg', buffer: poster })
  const posted = page.waitForResponse((response) => response.request().method() === 'POST')
  await posterForm.getByRole('button', { name: 'Upload poster' }).click()
  await posted
  await page.waitForLoadState('networkidle')

  await page.goto(`/admin/bookings/${reference}/analysis`)
  await page.locator('#publish').getByRole('button', { name: 'Publish', exact: true }).click()
  // The session is still to come: the page asks first.
  await page.getByRole('button', { name: 'Publish anyway' }).click()
  await toast(page, 'Analysis published')
  const [analysisPath] = await mailedTo(readLog, email, /\/analyses\/\d+/)

  await page.getByText('Copy as a public sample…').click()
  await page.getByRole('radio', { name: /The lab’s own recording/ }).check()
  await page.getByRole('button', { name: 'Copy as a draft sample' }).click()
  await page.waitForURL(/\/admin\/sample-analysis/)
  await page.getByRole('button', { name: 'Publish on the public page' }).first().click()
  await toast(page, 'Sample published')
  return analysisPath
}

/**
 * Fills the running site at `base` (started with the staff account STAFF and the local mailbox;
 * `readLog` returns what it has printed so far). Returns the path of the family's analysis, the
 * session cookie of the family that sees it, and the media ids of the hero's photos.
 */
export async function fillSite(base, readLog) {
  const headers = { Cookie: await signInStaff(base, STAFF) }
  const ids = await fillLibrary(base, headers)
  const family = { email: `family.${Date.now()}@example.com` }
  family.cookie = await signUpThroughPages(base, readLog, family.email)
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] })
  try {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 }, locale: 'en-IN', timezoneId: 'Asia/Kolkata' })
    const page = await context.newPage()
    await page.goto('/login')
    await page.getByLabel('Email').fill(STAFF.email)
    await page.getByLabel('Password', { exact: true }).fill(STAFF.password)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/admin')
    await chooseTeamPhotos(page)
    await addPartners(page)
    const hero = { landscape: ids.get(HERO.landscape), portrait: ids.get(HERO.portrait) }
    await chooseHeroPhotos(page, hero)
    await addReferenceBands(page)
    const analysisPath = await recordAnalysis(page, readLog, family.email)
    await addTestimonials(page, await (await browser.newContext({ baseURL: base })).newPage(), readLog)
    return { analysisPath, familyCookie: family.cookie, hero }
  } finally {
    await browser.close()
  }
}
