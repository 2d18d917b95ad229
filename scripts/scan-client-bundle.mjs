// Scans what the site sends to browsers (build/client, or the directory given) for secrets and for
// server-only code: the value of every secret setting named in .env.example that is set in this
// environment, values given with --secret, known test credentials, and patterns of keys, database
// and mail URLs with credentials, and server-only modules. Exits 1 on a finding.
//
//   node scripts/scan-client-bundle.mjs [directory] [--secret VALUE]...
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Settings in .env.example whose values are secret: credentials, keys, and URLs that carry them. */
const SECRET_NAME = /PASSWORD|SECRET|TOKEN|KEY|CLIENT_ID|WEBHOOK_USERNAME|DATABASE_URL|SMTP_URL/

/** Credentials the tests and examples use; none may ever reach a browser. */
const KNOWN_TEST_SECRETS = ['fake-client-secret-0123456789', 'hook-password-1', 'staff-password-1']

const PATTERNS = [
  { name: 'a private key', pattern: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/ },
  { name: 'a PostgreSQL URL', pattern: /postgres(?:ql)?:\/\/[^\s"'`<>]+/i },
  { name: 'a URL with a user and password', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/"'`<>]+:[^\s@/"'`<>]+@[^\s"'`<>]+/i },
  { name: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { name: 'an AWS secret key setting', pattern: /aws_secret_access_key/i },
  { name: 'a JSON Web Token', pattern: /\beyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]{10,}/ },
  { name: 'a long hex secret', pattern: /(?<![\w-])[a-f0-9]{40,}(?![\w-])/i },
  // Base64 of 32+ bytes; data: URIs (inlined images, fonts) are content, not secrets, and neither is
  // base64's own alphabet, which an encoder in the bundle (tus-js-client's, for upload metadata) spells out.
  { name: 'a long base64 secret', pattern: /(?<!base64,[A-Za-z0-9+/]*)(?<![\w+/])[A-Za-z0-9+/]{43,}={0,2}(?![\w+/=])/, test: (match) => /[0-9]/.test(match) && /[A-Z]/.test(match) && /[a-z]/.test(match) && !match.includes('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789') },
  { name: 'a secret assigned in code', pattern: /\b(?:client_?secret|api_?key|secret_?key|access_?token|private_?key)["']?\s*[:=]\s*["'`][^"'`\s]{8,}["'`]/i },
]

/** Traces of modules that must stay on the server: our *.server files and the server's libraries. */
const SERVER_ONLY = [
  { name: 'a .server module', pattern: /[\w-]+\.server(?:-[\w-]+)?\.(?:js|ts|tsx)\b/ },
  { name: 'a Node built-in', pattern: /["'`]node:(?:fs|crypto|child_process|net|tls|os|worker_threads|zlib)["'`]/ },
  { name: 'pg (the PostgreSQL driver)', pattern: /\bpg-(?:protocol|pool|connection-string)\b|PGPASSWORD|PGSSLMODE/ },
  { name: 'PGlite', pattern: /@electric-sql\/pglite/ },
  { name: 'drizzle-orm', pattern: /drizzle-orm/ },
  { name: 'argon2', pattern: /@node-rs\/argon2|argon2-(?:linux|darwin|win32)/ },
  { name: 'nodemailer', pattern: /\bnodemailer\b/i },
  { name: 'pdfkit', pattern: /\bpdfkit\b/i },
  { name: 'pino', pattern: /\bpino-std-serializers\b|pino\.symbols/ },
]

const TEXT_FILES = /\.(?:js|mjs|cjs|css|html|map|json|txt|svg|xml|webmanifest)$/

function parseArguments(argv) {
  const secrets = []
  let directory = path.join(root, 'build/client')
  for (let index = 0; index < argv.length; index += 1) {
    if (argv[index] === '--secret') secrets.push(argv[++index] ?? '')
    else directory = path.resolve(argv[index])
  }
  return { directory, secrets }
}

/** Secret values to look for, each with where it came from (the value itself is never printed). */
function secretValues(extra) {
  const names = [...readFileSync(path.join(root, '.env.example'), 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]).filter((name) => SECRET_NAME.test(name))
  const values = []
  for (const name of new Set(names)) {
    const value = process.env[name]
    if (!value) continue
    values.push({ source: name, value })
    // A password inside a URL (DATABASE_URL, SMTP_URL) is a secret on its own.
    try {
      const password = decodeURIComponent(new URL(value).password)
      if (password) values.push({ source: `${name} (its password)`, value: password })
    } catch {
      // Not a URL.
    }
  }
  for (const value of KNOWN_TEST_SECRETS) values.push({ source: 'a known test credential', value })
  for (const value of extra) values.push({ source: '--secret', value })
  return values.filter((secret) => secret.value.length >= 6)
}

function filesUnder(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name)
    return entry.isDirectory() ? filesUnder(full) : [full]
  })
}

/** The text a browser gets from a file: precompressed copies are what is actually sent. */
function served(file) {
  const bytes = readFileSync(file)
  if (file.endsWith('.br')) return { text: brotliDecompressSync(bytes).toString('utf8'), bytes: bytes.length, scanned: true }
  if (file.endsWith('.gz')) return { text: gunzipSync(bytes).toString('utf8'), bytes: bytes.length, scanned: true }
  // Images and fonts are still searched for secret values, byte for byte.
  return { text: bytes.toString(TEXT_FILES.test(file) ? 'utf8' : 'latin1'), bytes: bytes.length, scanned: TEXT_FILES.test(file) }
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`

function excerpt(text, index, length) {
  // Show where, not the password itself.
  return text
    .slice(Math.max(0, index - 30), index + Math.min(length, 60) + 30)
    .replace(/\s+/g, ' ')
    .replace(/(:\/\/[^\s:@/"'`<>]+:)[^\s@/"'`<>]+@/g, '$1[secret]@')
}

export function scan(directory, extraSecrets = []) {
  const secrets = secretValues(extraSecrets)
  const findings = []
  let files = 0
  let bytes = 0
  let textBytes = 0
  for (const file of filesUnder(directory)) {
    const relative = path.relative(directory, file)
    const content = served(file)
    files += 1
    bytes += content.bytes
    textBytes += Buffer.byteLength(content.text)
    for (const secret of secrets) {
      const at = content.text.indexOf(secret.value)
      if (at !== -1) findings.push({ file: relative, what: `the value of ${secret.source}`, near: excerpt(content.text, at, 0).replaceAll(secret.value, '[secret]') })
    }
    if (!content.scanned) continue
    if (/\.server\b/.test(relative)) findings.push({ file: relative, what: 'a .server module as a file', near: relative })
    for (const rule of [...PATTERNS, ...SERVER_ONLY]) {
      for (const match of content.text.matchAll(new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('g', '')}g`))) {
        if (rule.test && !rule.test(match[0])) continue
        findings.push({ file: relative, what: rule.name, near: excerpt(content.text, match.index, match[0].length) })
        break
      }
    }
  }
  return { files, bytes, textBytes, secrets: secrets.length, patterns: PATTERNS.length + SERVER_ONLY.length, findings }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { directory, secrets } = parseArguments(process.argv.slice(2))
  try {
    if (!statSync(directory).isDirectory()) throw new Error('not a directory')
  } catch {
    console.error(`No client build at ${directory}: run npm run build first.`)
    process.exit(2)
  }
  const result = scan(directory, secrets)
  console.log(`Scanned ${result.files} files (${kib(result.bytes)} as stored, ${kib(result.textBytes)} as served) in ${path.relative(process.cwd(), directory) || '.'} for ${result.secrets} secret values and ${result.patterns} patterns.`)
  if (result.findings.length === 0) {
    console.log('No secrets or server-only code found.')
  } else {
    for (const finding of result.findings) console.log(`FOUND ${finding.what} in ${finding.file}: …${finding.near}…`)
    console.log(`${result.findings.length} finding${result.findings.length === 1 ? '' : 's'}.`)
    process.exit(1)
  }
}
