import { labInstant } from '~/lib/lab-time'
import type { MailAttachment } from '~/db/schema'

type CalendarEvent = {
  /** Stable per event, so an update or cancellation replaces the event the customer already has. */
  uid: string
  /** Wall-clock date and times in Asia/Kolkata. */
  date: string
  start: string
  end: string
  summary: string
  location: string
  /** A web page for the event (a venue's map): http or https only. */
  url?: string | null
  description: string
  /** The event happens on this many consecutive days from `date` (a camp's daily session). */
  dailyFor?: number
}

/**
 * An iCalendar file (RFC 5545). Times are written in UTC, which every calendar converts to the
 * reader's zone without needing a time-zone definition. A cancellation (METHOD:CANCEL) carries a
 * higher SEQUENCE so calendars replace the earlier copy.
 */
export function calendarFile(events: CalendarEvent[], { method = 'PUBLISH', sequence = 0, now = new Date() }: { method?: 'PUBLISH' | 'CANCEL'; sequence?: number; now?: Date } = {}) {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Swimming Sport Science Lab//Bookings//EN', 'CALSCALE:GREGORIAN', `METHOD:${method}`]
  for (const event of events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      `DTSTAMP:${utc(now)}`,
      `DTSTART:${utc(labInstant(event.date, event.start))}`,
      `DTEND:${utc(labInstant(event.date, event.end))}`,
      ...(event.dailyFor && event.dailyFor > 1 ? [`RRULE:FREQ=DAILY;COUNT=${event.dailyFor}`] : []),
      `SEQUENCE:${sequence}`,
      `STATUS:${method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED'}`,
      `SUMMARY:${escapeText(event.summary)}`,
      `LOCATION:${escapeText(event.location)}`,
      ...(event.url && /^https?:\/\/[^\s"]+$/i.test(event.url) ? [`URL:${event.url}`] : []),
      `DESCRIPTION:${escapeText(event.description)}`,
      'END:VEVENT',
    )
  }
  lines.push('END:VCALENDAR')
  return lines.map(fold).join('\r\n') + '\r\n'
}

export function calendarAttachment(content: string, filename = 'session.ics'): MailAttachment {
  return { filename, contentType: 'text/calendar; charset=utf-8', contentBase64: Buffer.from(content, 'utf8').toString('base64') }
}

function utc(at: Date) {
  return at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

function escapeText(value: string) {
  return value.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n').replace(/[,;]/g, (char) => `\\${char}`)
}

/** Lines longer than 75 octets continue on the next line after a space (RFC 5545 §3.1). */
function fold(line: string) {
  const bytes = Buffer.from(line, 'utf8')
  if (bytes.length <= 75) return line
  const parts: string[] = []
  let current = ''
  for (const char of line) {
    if (Buffer.byteLength(current + char, 'utf8') > (parts.length === 0 ? 75 : 74)) {
      parts.push(current)
      current = ''
    }
    current += char
  }
  parts.push(current)
  return parts.join('\r\n ')
}
