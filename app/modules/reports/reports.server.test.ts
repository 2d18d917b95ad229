import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings, outboxMessages, siteSettings } from '~/db/schema'
import { holdSession } from '~/modules/booking/holds.server'
import { createCustomers, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { deliverReport, ReportInputError, reportDueHours, reportFile, reportsOf } from './reports.server'
import { diskStorage, useReportStorage } from './storage.server'
import { overdueAnalyses } from '~/modules/analyses/publishing.server'

useTestDatabase()
const directory = mkdtempSync(path.join(tmpdir(), 'swimlab-reports-'))
beforeEach(() => useReportStorage(diskStorage(directory)))
afterAll(() => {
  useReportStorage(undefined)
  rmSync(directory, { recursive: true, force: true })
})

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n')
const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']

async function confirmedBooking(status: 'confirmed' | 'pending' = 'confirmed') {
  await setWindows(DATES.map((date) => ({ date })))
  const [customer] = await createCustomers(1)
  const held = await holdSession({ customer: customer!, productCode: 'biomechanical_package', date: DATES[0]!, start: '09:00', days: 3, now: new Date('2030-02-01T00:00:00Z') })
  await db().update(bookings).set({ status, holdExpiresAt: status === 'pending' ? new Date('2030-02-02T00:00:00Z') : null }).where(eq(bookings.id, held.bookingId))
  return { customer: customer!, bookingId: held.bookingId, reference: held.reference }
}

const storedFiles = () => readdirSync(directory, { recursive: true }).filter((name) => String(name).endsWith('.pdf'))

describe('delivering a report', () => {
  it('stores the PDFs, records the links and note, and e-mails the customer once', async () => {
    const { customer, bookingId, reference } = await confirmedBooking()
    await deliverReport({ bookingId, note: 'Great streamline; work on your catch.', videoLinks: [{ label: 'Underwater, Day 1', url: 'https://video.example/abc' }], files: [{ filename: 'Analysis report.pdf', bytes: PDF }], staffId: null })
    const report = (await reportsOf([bookingId])).get(bookingId)!
    expect(report).toMatchObject({ note: 'Great streamline; work on your catch.', videoLinks: [{ label: 'Underwater, Day 1', url: 'https://video.example/abc' }] })
    expect(report.files).toEqual([{ id: expect.any(Number), filename: 'Analysis report.pdf', sizeBytes: PDF.length }])
    const file = await reportFile(report.files[0]!.id)
    expect(Buffer.from(file!.bytes).equals(Buffer.from(PDF))).toBe(true)
    expect(file).toMatchObject({ contentType: 'application/pdf', userId: customer.userId, reference })
    const mails = await db().select().from(outboxMessages).where(eq(outboxMessages.to, customer.email))
    expect(mails.map((mail) => mail.subject)).toEqual([`Your personalised report is ready (${reference})`])
    expect(mails[0]!.text).toContain('Great streamline; work on your catch.')

    // Adding to it tells the customer again, and keeps the first delivery time.
    await deliverReport({ bookingId, note: 'Added the Day 3 video.', videoLinks: [{ label: '', url: 'https://video.example/def' }], files: [], staffId: null })
    const updated = (await reportsOf([bookingId])).get(bookingId)!
    expect(updated.deliveredAt).toEqual(report.deliveredAt)
    expect(updated.files).toHaveLength(1)
    expect((await db().select().from(outboxMessages).where(eq(outboxMessages.to, customer.email))).map((mail) => mail.subject)).toContain(`Your report has been updated (${reference})`)
  })

  it('accepts only PDFs (by their content), at most 6 files of 20 MB, and web links', async () => {
    const { bookingId } = await confirmedBooking()
    const before = storedFiles().length
    const deliver = (files: Array<{ filename: string; bytes: Uint8Array }>, videoLinks: Array<{ label: string; url: string }> = []) => deliverReport({ bookingId, note: '', videoLinks, files, staffId: null })
    await expect(deliver([{ filename: 'report.pdf', bytes: new TextEncoder().encode('<html>not a pdf</html>') }])).rejects.toThrow('report.pdf is not a PDF file.')
    await expect(deliver([{ filename: 'huge.pdf', bytes: new Uint8Array(21 * 1024 * 1024).fill(37) }])).rejects.toThrow('huge.pdf is larger than 20 MB.')
    await expect(deliver(Array.from({ length: 7 }, (_, index) => ({ filename: `${index}.pdf`, bytes: PDF })))).rejects.toThrow(ReportInputError)
    await expect(deliver([], [{ label: 'x', url: 'javascript:alert(1)' }])).rejects.toThrow('"javascript:alert(1)" is not a web address.')
    expect(storedFiles()).toHaveLength(before)
  })

  it('refuses a booking that is not confirmed, and leaves no file behind', async () => {
    const { bookingId } = await confirmedBooking('pending')
    const before = storedFiles().length
    await expect(deliverReport({ bookingId, note: '', videoLinks: [], files: [{ filename: 'r.pdf', bytes: PDF }], staffId: null })).rejects.toThrow('A report can only be delivered for a confirmed booking.')
    expect(storedFiles()).toHaveLength(before)
  })
})

describe('the report delivery promise', () => {
  it('reads the hours from the setting', () => {
    expect(reportDueHours('within 48 hours')).toBe(48)
    // A range promises its upper end.
    expect(reportDueHours('within 5-7 business days')).toBe(168)
    expect(reportDueHours('soon')).toBe(48)
  })

  it('marks a report overdue 48 hours after the last session ends, in Bangalore time, until it is delivered', async () => {
    const { bookingId, reference } = await confirmedBooking()
    // The last session ends at 10:00 IST on 6 March 2030 (04:30 UTC): due by 04:30 UTC on 8 March.
    expect(await overdueAnalyses(new Date('2030-03-08T04:29:00Z'))).toEqual([])
    expect((await overdueAnalyses(new Date('2030-03-08T04:30:00Z'))).map((row) => row.reference)).toEqual([reference])
    await db().update(siteSettings).set({ reportDelivery: 'within 72 hours' }).where(eq(siteSettings.id, 1))
    expect(await overdueAnalyses(new Date('2030-03-08T04:30:00Z'))).toEqual([])
    await deliverReport({ bookingId, note: 'Here it is.', videoLinks: [], files: [], staffId: null })
    expect(await overdueAnalyses(new Date('2030-04-01T00:00:00Z'))).toEqual([])
  })
})
