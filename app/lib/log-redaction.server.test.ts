import { describe, expect, it } from 'vitest'
import { redactSecrets, redactSecretsIn } from './log-redaction.server'

describe('secrets kept out of the log', () => {
  it('redacts the keys and codes of private links, and nothing else', () => {
    expect(redactSecrets('/booking?step=3&orderId=ord_1&key=AbC-123_x')).toBe('/booking?step=3&orderId=ord_1&key=[redacted]')
    expect(redactSecrets('/receipts/ord_1?key=AbC')).toBe('/receipts/ord_1?key=[redacted]')
    expect(redactSecrets('/onboarding/offer?registration=CMP-1&key=AbC&x=1')).toBe('/onboarding/offer?registration=CMP-1&key=[redacted]&x=1')
    expect(redactSecrets('/verify-email?email=a%40b.example&code=123456')).toBe('/verify-email?email=a%40b.example&code=[redacted]')
    expect(redactSecrets('/x?token=t0k3n&KEY=upper')).toBe('/x?token=[redacted]&KEY=[redacted]')
    expect(redactSecrets('/pricing?monkey=1&keys=2&postcode=3')).toBe('/pricing?monkey=1&keys=2&postcode=3')
    expect(redactSecrets('/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=s3cret-t0ken&hub.challenge=42')).toBe('/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=42')
  })

  it('redacts the key of an e-mailed confirmation to cancel or move a booking', () => {
    expect(redactSecrets('/bookings/SWP-1/reschedule?key=AbC&date=2030-03-05&time=10%3A00&until=1900000000&confirm=XyZ-1_')).toBe('/bookings/SWP-1/reschedule?key=[redacted]&date=2030-03-05&time=10%3A00&until=1900000000&confirm=[redacted]')
    expect(redactSecrets('/bookings/SWP-1/cancel?key=AbC&until=1900000000&confirm=XyZ')).toBe('/bookings/SWP-1/cancel?key=[redacted]&until=1900000000&confirm=[redacted]')
  })

  it('redacts the host club’s key of an analysis day, which books the seats kept for it', () => {
    expect(redactSecrets('/analysis-days/7?host=AbC-123_x')).toBe('/analysis-days/7?host=[redacted]')
    expect(redactSecrets('/analysis-days/7.data?host=AbC&_routes=x')).toBe('/analysis-days/7.data?host=[redacted]&_routes=x')
    expect(redactSecrets('/x?hosts=1&ghost=2')).toBe('/x?hosts=1&ghost=2')
  })

  it("redacts the key of a parent's consent link, which is its path", () => {
    expect(redactSecrets('/consent/AbCdEf_-123')).toBe('/consent/[redacted]')
    expect(redactSecrets('/consent/AbC.data?_routes=x')).toBe('/consent/[redacted]?_routes=x')
    expect(redactSecrets('GET http://lab.example/consent/AbC failed')).toBe('GET http://lab.example/consent/[redacted] failed')
    expect(redactSecrets('/login?redirectTo=%2Fconsent%2FAbC123%3Fx%3D1')).toBe('/login?redirectTo=%2Fconsent%2F[redacted]%3Fx%3D1')
    expect(redactSecrets('/swimmers/4/consent')).toBe('/swimmers/4/consent')
  })

  it("redacts a coach's link to a swimmer's results: the token in its path, and as `share` on the files it loads", () => {
    expect(redactSecrets('/shared/AbCdEf_-123/analyses/4')).toBe('/shared/[redacted]/analyses/4')
    expect(redactSecrets('/shared/AbC.data')).toBe('/shared/[redacted]')
    expect(redactSecrets('/analyses/clips/3/video?share=AbC-1_x')).toBe('/analyses/clips/3/video?share=[redacted]')
    expect(redactSecrets('/login?redirectTo=%2Fanalyses%2F4%3Fshare%3DAbC')).toBe('/login?redirectTo=%2Fanalyses%2F4%3Fshare%3D[redacted]')
    expect(redactSecrets('/swimmers/4/progress?shared=1')).toBe('/swimmers/4/progress?shared=1')
  })

  it('redacts a private link carried, encoded, inside another address', () => {
    const login = `/login?${new URLSearchParams({ redirectTo: '/booking/view?ref=BK-1&key=AbC123' })}`
    expect(redactSecrets(login)).toBe('/login?redirectTo=%2Fbooking%2Fview%3Fref%3DBK-1%26key%3D[redacted]')
    expect(redactSecrets('/login?redirectTo=%2Fx%3Fcode%3D123456%26next%3D1')).toBe('/login?redirectTo=%2Fx%3Fcode%3D[redacted]%26next%3D1')
  })

  it('redacts every text inside an error about to be logged, leaving its shape', () => {
    const logged = redactSecretsIn({ type: 'TypeError', message: 'Invalid URL', input: 'http://a b/receipts/1?key=AbC', stack: 'TypeError: Invalid URL\n at /receipts/1?key=AbC\n', code: 'ERR_INVALID_URL', nested: [{ url: '/r?code=1' }], when: new Date(0) })
    expect(logged).toEqual({ type: 'TypeError', message: 'Invalid URL', input: 'http://a b/receipts/1?key=[redacted]', stack: 'TypeError: Invalid URL\n at /receipts/1?key=[redacted]\n', code: 'ERR_INVALID_URL', nested: [{ url: '/r?code=[redacted]' }], when: new Date(0) })
    const circular: Record<string, unknown> = { message: '/a?key=1' }
    circular.self = circular
    expect(redactSecretsIn(circular).message).toBe('/a?key=[redacted]')
  })
})
