import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { AUTHENTICATION_FOOTER, footerOf, placeholderCount, renderTemplate, templateParameter, templatesForReadme, WHATSAPP_CODE_MINUTES, WHATSAPP_FOOTER, WHATSAPP_TEMPLATES, type WhatsAppTemplate } from './templates'
import { CODE_TTL_MINUTES } from '~/modules/accounts/codes.server'

const templates = Object.entries(WHATSAPP_TEMPLATES) as Array<[string, WhatsAppTemplate]>

describe('WhatsApp templates', () => {
  it.each(templates)('%s is one Meta accepts', (name, template) => {
    expect(name).toMatch(/^[a-z][a-z0-9_]*$/)
    expect(template.title.trim()).not.toBe('')
    // Placeholders numbered 1..n, each once, one per parameter.
    const numbers = (template.body.match(/\{\{(\d+)\}\}/g) ?? []).map((placeholder) => Number(placeholder.slice(2, -2)))
    expect(numbers).toEqual(template.parameters.map((_, index) => index + 1))
    expect(placeholderCount(template.body)).toBe(template.parameters.length)
    // No stray braces around them, nothing at the very start or end, one paragraph, within Meta's limit.
    expect(template.body.replace(/\{\{\d+\}\}/g, '')).not.toMatch(/[{}]/)
    expect(template.body).not.toMatch(/^\s*\{\{/)
    expect(template.body).not.toMatch(/\}\}[\s.!?]*$/)
    expect(template.body).not.toMatch(/[\r\n\t]/)
    expect(template.body.length).toBeLessThanOrEqual(1024)
    for (const parameter of template.parameters) {
      expect(parameter.meaning.trim()).not.toBe('')
      expect(templateParameter(parameter.sample)).toBe(parameter.sample)
    }
  })

  it.each(templates)('%s renders with its samples and the footer', (name, template) => {
    const text = renderTemplate(name as keyof typeof WHATSAPP_TEMPLATES, template.parameters.map((parameter) => parameter.sample))
    expect(text).not.toMatch(/\{\{/)
    for (const parameter of template.parameters) expect(text).toContain(parameter.sample)
    expect(text.endsWith(`\n\n${footerOf(template)}`)).toBe(true)
  })

  it('every Utility template ends with how to stop; the code template has the wording, footer and button Meta gives Authentication templates', () => {
    const [authentication, ...others] = [...templates].sort(([, a], [, b]) => Number(b.category === 'Authentication') - Number(a.category === 'Authentication'))
    expect(authentication).toEqual(['verification_code', expect.objectContaining({ category: 'Authentication', body: '*{{1}}* is your verification code. For your security, do not share this code.' })])
    expect(footerOf(authentication![1])).toBe(AUTHENTICATION_FOOTER)
    // The footer tells how long the code works: as long as the site takes it.
    expect(WHATSAPP_CODE_MINUTES).toBe(CODE_TTL_MINUTES)
    for (const [, template] of others) expect(footerOf(template)).toBe(WHATSAPP_FOOTER)
  })

  it('makes each parameter one line, never empty', () => {
    expect(templateParameter('  Aarav\nSharma\t ')).toBe('Aarav Sharma')
    expect(templateParameter('a      b')).toBe('a   b')
    expect(templateParameter('   ')).toBe('-')
  })
})

const README = new URL('../../../README.md', import.meta.url)
const START = '<!-- whatsapp-templates:start (written from app/modules/whatsapp/templates.ts: UPDATE_README=1 npx vitest run app/modules/whatsapp/templates.test.ts) -->'
const END = '<!-- whatsapp-templates:end -->'

describe('the README', () => {
  it('lists exactly the templates the site sends', () => {
    const readme = readFileSync(README, 'utf8')
    const start = readme.indexOf(START)
    const end = readme.indexOf(END)
    expect(start, 'the README has the WhatsApp templates markers').toBeGreaterThanOrEqual(0)
    expect(end).toBeGreaterThan(start)
    const listed = readme.slice(start + START.length, end).trim()
    if (process.env.UPDATE_README === '1' && listed !== templatesForReadme()) {
      writeFileSync(README, `${readme.slice(0, start + START.length)}\n\n${templatesForReadme()}\n\n${readme.slice(end)}`)
      return
    }
    expect(listed).toBe(templatesForReadme())
  })
})
