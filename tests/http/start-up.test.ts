import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { siteSettings } from '~/db/schema'
import { startTestServer, type TestServer } from '../support/test-server'
import { registrationForm, Visitor } from '../support/visitor'

// What the person starting the site reads in the terminal: a newcomer's `npm start` on a fresh
// clone, and an operator's start of a public site whose pages still show placeholders.

const PUBLIC = { SITE_URL: 'https://swimlab.example', ALLOW_SANDBOX_PAYMENTS: 'true' }

/** The log's lines that say placeholders show on the public site. */
const placeholderWarnings = (logs: string) =>
  logs
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; placeholders?: string[] })
    .filter((entry) => entry.msg.startsWith('details still to supply before going live'))

describe('a public site started with placeholders on its pages', () => {
  let withPlaceholders: TestServer
  let filledIn: TestServer
  beforeAll(async () => {
    ;[withPlaceholders, filledIn] = await Promise.all([
      startTestServer(PUBLIC),
      startTestServer(PUBLIC, {
        prepare: async (db) => {
          await db.update(siteSettings).set({
            postalAddress: '12 Stadium Road, Bengaluru 560001',
            phone: '+91 80 4123 4567',
            supportEmail: 'support@lab.example',
            infoEmail: 'info@lab.example',
            legalName: 'Swim Science LLP',
            grievanceOfficerName: 'Meera Iyer',
            grievanceOfficerEmail: 'privacy@lab.example',
            coach: { name: 'Arjun Menon', credentials: 'National champion, 200 m butterfly', placeholder: false },
            team: [{ name: 'Meera Iyer', role: 'Sports scientist', bio: 'Biomechanics researcher.', placeholder: false }],
          })
        },
      }),
    ])
  })
  afterAll(async () => {
    await Promise.all([withPlaceholders?.stop(), filledIn?.stop()])
  })

  it('warns once, naming each placeholder', () => {
    const warnings = placeholderWarnings(withPlaceholders.logs())
    expect(warnings).toHaveLength(1)
    const [warning] = warnings
    expect(warning!.level).toBe(40)
    expect(warning!.placeholders).toEqual([
      'Postal address',
      'Phone number',
      'Support e-mail',
      'General e-mail',
      'Registered name of the LLP',
      'Grievance officer (privacy policy)',
      'Camp coach',
      'Team member 1 (about page)',
      'Team member 2 (about page)',
      'Team member 3 (about page)',
      'Team member 4 (about page)',
    ])
    expect(warning!.msg).toContain('Postal address, Phone number, Support e-mail')
    expect(warning!.msg).toContain('https://swimlab.example/admin/settings')
  })

  it('says nothing of placeholders once every detail is the lab’s own', () => {
    expect(filledIn.logs()).toContain('"msg":"listening"')
    expect(placeholderWarnings(filledIn.logs())).toEqual([])
  })
})

const repository = path.resolve(import.meta.dirname, '../..')
const running = /^The site is running at http:\/\/localhost:(\d+)$/m

/** `npm start` as a newcomer runs it: nothing configured but the data directory and a free port. */
async function npmStart(dataDir: string) {
  const child = spawn('npm', ['start'], {
    cwd: repository,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...(process.env.TZ && { TZ: process.env.TZ }), DATA_DIR: dataDir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, as a terminal's command is: npm and the server it starts are stopped together.
    detached: true,
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stopped = () => child.exitCode !== null || child.signalCode !== null
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => running.test(output) && (clearInterval(timer), resolve()), 50)
    void exited.then(() => (clearInterval(timer), reject(new Error(`npm start exited with ${child.exitCode}:\n${output}`))))
  })
  return {
    output: () => output,
    url: `http://localhost:${running.exec(output)![1]}`,
    /** Stops it as Ctrl+C does; then the server has written every line it had. */
    async stop() {
      if (!stopped()) process.kill(-child.pid!, 'SIGINT')
      await exited
    },
    async kill() {
      if (!stopped()) process.kill(-child.pid!, 'SIGKILL')
      await exited
    },
  }
}

describe('`npm start` on a fresh clone (the build made, nothing configured)', { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-npm-start-'))
  let site: Awaited<ReturnType<typeof npmStart>>
  let restarted: Awaited<ReturnType<typeof npmStart>> | undefined

  beforeAll(async () => {
    site = await npmStart(dataDir)
  })
  afterAll(async () => {
    await site?.kill()
    await restarted?.kill()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('says where the site is after at most 10 lines, and no warning about placeholders on this local site', () => {
    const output = site.output()
    const linesBefore = output.slice(0, running.exec(output)!.index).split('\n').length - 1
    expect(linesBefore, output).toBeLessThanOrEqual(10)
    expect(output).not.toContain('details still to supply')
  })

  it('prints each e-mail as a block with the code on its own line, and no request lines', async () => {
    // The address the newcomer was told, as their browser would use it.
    const newcomer = new Visitor(site.url)
    const registered = await newcomer.post('/registration', registrationForm({ email: 'first.parent@example.com' }))
    expect(registered.status).toBe(302)
    await expect.poll(site.output).toMatch(/^To: first\.parent@example\.com\nSubject: Your verification code for .*\nCode: \d{6}$/m)
    await site.stop()
    expect(site.output()).toContain('"msg":"stopped"')
    expect(site.output()).not.toContain('"msg":"request"')
  })

  it('the first admin account: the README’s commands on the stopped site, then signing in lands on /admin', async () => {
    await site.stop()
    const created = spawnSync('npm', ['run', 'admin:create', '--', '--email', 'me@lab.example', '--password', 'a long password 2027', '--name', 'Meera Iyer'], {
      cwd: repository,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir },
      encoding: 'utf8',
    })
    expect([created.status, created.stdout]).toEqual([0, expect.stringContaining('Created the admin account me@lab.example.')])
    restarted = await npmStart(dataDir)
    expect((await new Visitor(restarted.url).post('/login', { email: 'me@lab.example', password: 'a long password 2027', website_url: '' })).location).toBe('/admin')
  })
})
