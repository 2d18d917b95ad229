import { browserFingerprint, type Holder } from '~/modules/holders/holders.server'

let visitors = 0

/** A visitor of their own: a fresh browser on a network of its own, unless told otherwise. */
export function visitor(overrides: Partial<Holder> = {}): Holder {
  visitors += 1
  return {
    userId: null,
    email: `visitor${visitors}@example.com`,
    network: `198.18.${(visitors >> 8) & 255}.${visitors & 255}`,
    browser: browserFingerprint(`browser-${process.pid}-${visitors}`),
    ...overrides,
  }
}
