import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'

// What the site sends to browsers holds no secret and no server-only code: the scanner passes on
// the real build (made by the test run's setup) with the test credentials set, and fails when a
// secret or a server module is planted in a copy of a real chunk.

const root = path.resolve(import.meta.dirname, '../..')
const assets = path.join(root, 'build/client/assets')
const SECRETS = {
  PHONEPE_CLIENT_SECRET: 'phonepe-client-secret-for-the-scan-7f3a',
  PHONEPE_WEBHOOK_PASSWORD: 'webhook-password-for-the-scan-19c2',
  ADMIN_PASSWORD: 'admin-password-for-the-scan-88d1',
  DATABASE_URL: 'postgres://swimlab:db-password-for-the-scan-4e0b@db.example.internal:5432/swimlab',
  SMTP_URL: 'smtps://mailer:smtp-password-for-the-scan-5a6c@smtp.example.com:465',
}
const temporary: string[] = []
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
})

function runScan(args: string[] = []) {
  const run = spawnSync(process.execPath, ['scripts/scan-client-bundle.mjs', ...args], { cwd: root, env: { PATH: process.env.PATH, ...SECRETS }, encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

/** A directory with a real chunk (as a control) and one copy of it per planted text. */
function plantedDirectory(plants: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'swimlab-bundle-'))
  temporary.push(dir)
  const chunk = path.join(assets, readdirSync(assets).find((file) => file.endsWith('.js'))!)
  copyFileSync(chunk, path.join(dir, 'control.js'))
  for (const [file, text] of Object.entries(plants)) {
    copyFileSync(chunk, path.join(dir, file))
    writeFileSync(path.join(dir, file), `\n${text}\n`, { flag: 'a' })
  }
  return dir
}

describe('the client bundle', () => {
  it('holds no secret value, key pattern or server-only module', () => {
    const { status, output } = runScan()
    expect(output).toMatch(/^Scanned \d{2,} files \([\d.]+ KiB as stored, [\d.]+ KiB as served\) in build\/client for 10 secret values and \d+ patterns\.$/m)
    expect(output).toContain('No secrets or server-only code found.')
    expect(status).toBe(0)
  })

  it('fails on a planted secret value, in a file or in its precompressed copy', () => {
    const dir = plantedDirectory({ 'secret.js': `const k="${SECRETS.PHONEPE_CLIENT_SECRET}"`, 'password.js': `const p="smtp-password-for-the-scan-5a6c"` })
    writeFileSync(path.join(dir, 'copy.js.br'), brotliCompressSync(`x="${SECRETS.PHONEPE_WEBHOOK_PASSWORD}"`))
    const { status, output } = runScan([dir, '--secret', 'one-more-secret-value'])
    expect(status).toBe(1)
    expect(output).toContain('FOUND the value of PHONEPE_CLIENT_SECRET in secret.js')
    expect(output).toContain('FOUND the value of SMTP_URL (its password) in password.js')
    expect(output).toContain('FOUND the value of PHONEPE_WEBHOOK_PASSWORD in copy.js.br')
    expect(output).not.toContain('control.js')
    expect(output).toContain('3 findings.')
    // The report says where, never the secret.
    for (const value of Object.values(SECRETS)) expect(output).not.toContain(value)
  })

  it('fails on keys, URLs with credentials and server-only modules', () => {
    const dir = plantedDirectory({
      'key.js': '"-----BEGIN RSA PRIVATE KEY-----"',
      'database.js': '"postgresql://app:hunter2-hunter2@10.0.0.5/app"',
      'mail.js': '"smtp://mailer:hunter2-hunter2@smtp.example.com:587"',
      'aws.js': '"AKIAIOSFODNN7EXAMPLE"',
      'hex.js': `"${'9f'.repeat(32)}"`,
      'base64.js': `"${Buffer.from('0123456789abcdef0123456789abcdef0123').toString('base64')}"`,
      'server-module.js': 'import"./auth.server-Bx12ab.js"',
      'mailer.js': 'var n=require("nodemailer")',
      'pdf.js': 'new PDFKit.PDFDocument',
      'database-driver.js': 'import"drizzle-orm"',
    })
    const { status, output } = runScan([dir])
    expect(status).toBe(1)
    for (const [file, what] of [
      ['key.js', 'a private key'],
      ['database.js', 'a PostgreSQL URL'],
      ['mail.js', 'a URL with a user and password'],
      ['aws.js', 'an AWS access key id'],
      ['hex.js', 'a long hex secret'],
      ['base64.js', 'a long base64 secret'],
      ['server-module.js', 'a .server module'],
      ['mailer.js', 'nodemailer'],
      ['pdf.js', 'pdfkit'],
      ['database-driver.js', 'drizzle-orm'],
    ]) {
      expect(output).toContain(`FOUND ${what} in ${file}`)
    }
    expect(output).not.toContain('hunter2-hunter2')
    expect(output).not.toContain('control.js')
  })
})
