import fc from 'fast-check'

// What attackers, broken clients and careless pastes send to forms: the values the hostile-input
// tests throw at every form and JSON endpoint.

const HUGE = 'x'.repeat(100_000)

/**
 * Real dates outside what any form or address takes (2000 to 2100): year 0, which PostgreSQL does
 * not have, and the last days before year 10000, after which a day's arithmetic leaves yyyy-mm-dd.
 */
export const OUT_OF_RANGE_DATES = ['0000-01-01', '0001-01-01', '1999-12-31', '2101-01-01', '9999-11-30', '9999-12-31', '10000-01-01']

/** Months no calendar page shows, for the same reasons. */
export const OUT_OF_RANGE_MONTHS = ['0000-01', '0001-01', '1999-12', '2101-01', '9999-12', '10000-01']

/** Values no typed field (a date, a time, an e-mail, a number, a choice) may accept. */
const NEVER_VALID = ['', ' ', '\t\n', '\u0000', 'NaN', 'Infinity', '-Infinity', "' OR 1=1 --", "'; DROP TABLE users; --", '<script>alert(1)</script>', '\u202egnp.exe', '🏊‍♀️', '%zz', '%E0%A4', 'null', 'undefined', '[object Object]', '{"$gt":""}', HUGE]

/** Invalid values per kind of field; each list holds only what that kind must refuse. */
export const INVALID = {
  email: [...NEVER_VALID, 'asha', 'asha@', '@example.com', 'asha@@example.com', 'asha@example', `${'a'.repeat(300)}@example.com`, 'asha@example.com\u0000x'],
  date: [...NEVER_VALID, '2026-02-30', '2027-02-29', '0000-00-00', '99999-01-01', '2026-13-01', '2026-1-1', '2026-01-32', 'tomorrow', '1e9', '-2026-01-01', '2026-01-01T00:00:00Z', '٢٠٢٦-٠١-٠١', ...OUT_OF_RANGE_DATES],
  /** A month in an address (the calendar pages' ?month=). */
  month: [...NEVER_VALID, '2026-13', '2026-00', '2026-1', '202611', ...OUT_OF_RANGE_MONTHS],
  /** A person's name: missing, or carrying a line break, a bidi mark, a link or digits into the messages it is put in. */
  name: ['', ' ', '\u0000', 'R', 'x'.repeat(101), HUGE, 'Ravi\nClick http://evil.example', 'Ravi\tKumar', '\u202egnp.exe', 'https://pay-here.com', 'www.evil.example', 'pay-here.com', 'evil.example/x', 'ravi@evil.example', 'pay\u200d-here.com', 'Pay Rs 500 By GPay To 9812345678', 'Pay Rs ५०० to ९८१२३४५६७८', 'Ravi (₹500)'],
  /** A required mobile number: too short, a landline, the wrong shape, or digits no mobile has. */
  phone: ['\u0000', '98450', '044 2345 6789', '9845012345#1', '++919845012345', '٩٨٤٥٠١٢٣٤٥', '+999999999999999', '+44 7700 900123', "' OR 1=1 --", HUGE],
  time: [...NEVER_VALID, '25:61', '24:00', '9:00', '09:60', '-1', 'noon', '09:00:00', '09:00 PM', '١٠:٠٠'],
  count: [...NEVER_VALID, '-1', '1.5', '1e309', '99999999999999999999', 'abc', '١٢', '0x10', '+-3'],
  rupees: [...NEVER_VALID, '-1', '-100', '1e309', '99999999999999999999', 'abc', '₹', '0x10', '١٢٣'],
  choice: [...NEVER_VALID, 'not-an-option', '__proto__', 'constructor', 'prototype', 'YES', 'Other '],
  percent: [...NEVER_VALID, '-1', '-0.5', '100.01', '101', '1.234', 'abc', '1e2', '١٨'],
  code6: [...NEVER_VALID, '12345', '1234567', 'abcdef', '١٢٣٤٥٦', '12 345'],
  password: ['', '\u0000', 'short', 'x'.repeat(129), HUGE],
  /** A required line of free text (3 to 200 characters). */
  note: ['', ' ', '\t\n', '\u0000', 'ab', ' ab ', 'x'.repeat(201), HUGE],
  /** The lab's contact e-mails also take a bracketed placeholder ('[Support e-mail — to be supplied]'). */
  contactEmail: [...NEVER_VALID, 'asha', 'asha@', '@example.com', 'asha@@example.com', 'asha@example', `${'a'.repeat(300)}@example.com`].filter((value) => !/^\[[^\]]*\]$/.test(value)),
} as const
export type FieldKind = keyof typeof INVALID

/** Anything at all: the invalid values of every kind, random unicode (control, RTL, lone surrogates) and long text. */
export const anyValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...new Set(Object.values(INVALID).flat())) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
)

/** Field names a hostile client adds: prototype keys, framework-looking names, odd characters. */
export const oddFieldName = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'intent', '_action', 'index', 'website_url', '$where', 'a[b]', 'batches[0].code', 'batches[99999999].code', 'x.y.z', '', ' '), fc.string({ maxLength: 20 }))

export type FormSpec = {
  /** A submission the form accepts, as its page would send it. */
  valid: Record<string, string>
  /** Fields whose kind says what they must refuse; corrupting any one makes the submission invalid. */
  strict: Partial<Record<string, FieldKind>>
  /** Fields that are sent as they are in every case (the form's intent, say). */
  fixed?: Record<string, string>
}

/**
 * A submission of `spec`'s form with at least one typed field made invalid, others dropped, mangled,
 * repeated, and fields added that the form does not have.
 */
export function invalidSubmission(spec: FormSpec) {
  const strictFields = Object.keys(spec.strict)
  const otherFields = Object.keys(spec.valid).filter((field) => !(field in spec.strict))
  return fc
    .record({
      broken: fc.uniqueArray(fc.constantFrom(...strictFields), { minLength: 1, maxLength: strictFields.length }).chain((fields) =>
        fc.tuple(...fields.map((field) => fc.tuple(fc.constant(field), fc.constantFrom(...INVALID[spec.strict[field]!]))))),
      dropped: otherFields.length ? fc.subarray(otherFields) : fc.constant([] as string[]),
      mangled: otherFields.length ? fc.array(fc.tuple(fc.constantFrom(...otherFields), anyValue), { maxLength: 3 }) : fc.constant([] as Array<[string, string]>),
      repeated: fc.array(fc.tuple(fc.constantFrom(...Object.keys(spec.valid)), anyValue), { maxLength: 2 }),
      extra: fc.array(fc.tuple(oddFieldName, anyValue), { maxLength: 3 }),
    })
    .map(({ broken, dropped, mangled, repeated, extra }) => {
      const values = new Map(Object.entries(spec.valid))
      for (const field of dropped) values.delete(field)
      for (const [field, value] of mangled) values.set(field, value)
      for (const [field, value] of broken) values.set(field, value)
      const form = new URLSearchParams([...values])
      // A repeated field arrives after the real one; broken fields are also sent twice in some cases.
      for (const [field, value] of [...repeated, ...extra]) form.append(field, value)
      for (const [field, value] of Object.entries(spec.fixed ?? {})) form.set(field, value)
      return form
    })
}

/** A submission of random fields: any names, any values, any number of them. */
export const randomSubmission = fc.array(fc.tuple(fc.oneof(oddFieldName, fc.constantFrom('email', 'password', 'date', 'time', 'name', 'code', 'intent')), anyValue), { maxLength: 8 }).map((entries) => new URLSearchParams(entries))

/** Bodies that are not a readable form (or an empty one), each with the Content-Type it claims. */
export const MALFORMED_BODIES: Array<{ label: string; contentType: string | null; body: string | null }> = [
  { label: 'JSON', contentType: 'application/json', body: '{"email":"asha@example.com","__proto__":{"isAdmin":true}}' },
  { label: 'plain text', contentType: 'text/plain', body: 'email=asha@example.com' },
  { label: 'no Content-Type', contentType: null, body: 'email=asha@example.com' },
  { label: 'multipart without a boundary', contentType: 'multipart/form-data', body: 'garbage' },
  { label: 'multipart cut short', contentType: 'multipart/form-data; boundary=XYZ', body: '--XYZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nasha' },
  { label: 'XML', contentType: 'application/xml', body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>' },
  { label: 'an empty form', contentType: 'application/x-www-form-urlencoded', body: '' },
  { label: 'a form with broken percent-encoding', contentType: 'application/x-www-form-urlencoded', body: 'email=%zz&password=%E0%A4&%=%%&date=%00' },
]

/** Query strings: repeated parameters, array syntax, odd names, broken percent-encoding, huge values. */
export const hostileQuery = (names: string[]) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...names, ...names.map((name) => `${name}[]`), ...names.map((name) => `${name}[0]`)), oddFieldName), anyValue), { maxLength: 5 })
    .chain((entries) => fc.tuple(fc.constant(new URLSearchParams(entries).toString()), fc.constantFrom('', '&date=%zz', '&orderId=%E0%A4', '&%=%', '&email=%00', `&x=${'y'.repeat(6000)}`)))
    .map(([query, raw]) => `${query}${raw}`)

/** A path segment (an id, a reference, a code) as an attacker types it. */
export const hostileSegment = fc.oneof(anyValue, fc.constantFrom('99999999999', '2147483648', '-1', '1e3', '0x10', '1.5', 'SWP-0000000000', 'CMP-0000000001', '..', '%2e%2e'))
