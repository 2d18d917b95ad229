import { readFile } from 'node:fs/promises'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { camps, promoCodes } from '~/db/schema'
import { DESKTOP, expectNoAxeViolations, PHONE, signInWithForm, useBrowser } from '../support/browser'
import { addFamily, FAMILY } from '../support/family-site'
import { pdfText } from '../support/pdf-text'
import { STAFF, useTestSite } from '../support/site'
import { attachedFile } from '../support/smtp-sink'

// The whole checkout in a real browser: a parent registers two children for a camp with its
// sibling price and a promo code, pays, downloads the receipt; staff refund one child, and the
// credit note reaches the parent.

const browser = useBrowser()
const site = useTestSite(
  {},
  {
    async prepare(db) {
      await addFamily(db)
      // Camp 1: each further swimmer of a family 10% off; the code takes another 10% off each swimmer.
      await db.update(camps).set({ siblingDiscountKind: 'percent', siblingDiscountValue: 10_00 }).where(eq(camps.code, 'camp1'))
      await db.insert(promoCodes).values({ code: 'SPLASH10', discountKind: 'percent', discountValue: 10_00, products: ['camp'] })
    },
  },
)

describe('one checkout, from the camp form to the credit note', () => {
  it('sibling price and promo code → one payment → receipt with both discounts → one child refunded → its credit note by e-mail', async () => {
    const { context, page, errors } = await browser.familyOnCampForm(site.url, FAMILY, PHONE)
    await page.getByRole('radio', { name: /^Camp 1/ }).check()
    await page.getByRole('radio', { name: /Batch 1/ }).check()
    await page.getByRole('checkbox', { name: /Meera Iyer/ }).check()
    await page.getByRole('checkbox', { name: /Kavya Iyer/ }).check()
    await expect.poll(() => page.getByTestId('quote').innerText().catch(() => '')).toMatch(/Camp fee for Meera Iyer\s+₹35,000\.00\s+Camp fee for Kavya Iyer\s+₹35,000\.00\s+Sibling price for Kavya Iyer\s+−₹3,500\.00\s+Total\s+₹66,500\.00/)

    // A code that does not exist: said next to the field, nothing held.
    await page.getByLabel(/Promo code/).fill('SPLASH99')
    await page.getByRole('button', { name: /Register and Pay/ }).click()
    await expect.poll(() => page.getByText('This promo code is not valid.').isVisible()).toBe(true)
    expect(await page.getByLabel(/Promo code/).getAttribute('aria-invalid')).toBe('true')
    await expectNoAxeViolations(page)

    await page.getByLabel(/Promo code/).fill('splash10')
    await page.getByRole('button', { name: /Register and Pay/ }).click()
    await page.waitForURL(/\/onboarding\/offer\?registration=CMP-/)
    await expect.poll(() => page.getByTestId('quote').innerText()).toMatch(/Sibling price for Kavya Iyer\s+−₹3,500\.00\s+Promo code SPLASH10\s+−₹6,650\.00\s+Total\s+₹59,850\.00/)
    await page.getByRole('button', { name: 'Pay ₹59,850' }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    // ₹35,000 − 10% and ₹31,500 − 10%: ₹31,500 + ₹28,350.
    expect(await page.getByText('₹59,850.00').first().isVisible()).toBe(true)
    await page.getByRole('button', { name: /test success/ }).click()
    await page.waitForURL(/\/payment-status\?orderId=CAMP_/)
    await expect.poll(() => page.getByRole('heading', { name: 'Registration Complete!' }).isVisible(), { timeout: 20_000 }).toBe(true)
    expect(await page.getByText('Promo code SPLASH10').isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await page.setViewportSize(DESKTOP)
    await expectNoAxeViolations(page)

    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Download Receipt' }).click()
    const receipt = (await pdfText(await readFile((await (await download).path())!))).lines.join('\n')
    expect(receipt).toContain('Sibling price −₹3,500.00')
    expect(receipt).toContain('Promo code SPLASH10 −₹3,500.00')
    expect(receipt).toContain('Promo code SPLASH10 −₹3,150.00')
    expect(receipt).toMatch(/₹59,850\.00/)
    expect(errors).toEqual([])
    await context.close()

    // Staff cancel Kavya's registration with a refund of what was paid for her.
    const staffContext = await browser.context(site.url, DESKTOP)
    const admin = await staffContext.newPage()
    await admin.goto('/login')
    await signInWithForm(admin, STAFF, /\/admin/)
    await admin.goto('/admin/camps/camp1')
    const kavya = admin.getByRole('row').filter({ hasText: 'Kavya Iyer' })
    expect(await kavya.getByText('Sibling price −₹3,500.00').isVisible()).toBe(true)
    expect(await kavya.getByText('Promo code −₹3,150.00').isVisible()).toBe(true)
    await kavya.getByText('Cancel', { exact: false }).filter({ hasText: /^Cancel/ }).first().click()
    await kavya.getByRole('radio', { name: 'Refund ₹28,350.00' }).check()
    await expectNoAxeViolations(admin)
    await kavya.getByRole('button', { name: 'Cancel registration' }).click()

    // The refund completes at the gateway a moment later: the credit note is then e-mailed and listed.
    const told = await site.sink.waitForMailTo(FAMILY.email, /^Subject: Refund completed/m, 30_000)
    await admin.reload()
    expect(await admin.getByRole('row').filter({ hasText: 'Kavya Iyer' }).getByRole('link', { name: /SSL\/CN/ }).isVisible()).toBe(true)
    await staffContext.close()

    const note = (await pdfText(attachedFile(told, /filename="?credit-note-SSL-CN\d\d-\d\d-\d{4}\.pdf"?/))).lines.join('\n')
    expect(note).toContain('Kavya Iyer')
    expect(note).not.toContain('Meera Iyer (')
    expect(note).toContain('Amount refunded ₹28,350.00')
    expect(note).toMatch(/Against receipt SSL\/\d\d-\d\d\/\d{6}/)
  })
})
