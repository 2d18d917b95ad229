import { describe, expect, it } from 'vitest'
import { acceptsAvif } from './accepts-avif'

describe('whether a browser takes AVIF', () => {
  it('takes it when the Accept header names image/avif, unless with a quality of 0', () => {
    expect(acceptsAvif('image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8')).toBe(true)
    expect(acceptsAvif('image/webp, IMAGE/AVIF;q=0.9')).toBe(true)
    expect(acceptsAvif('image/avif;q=0, image/webp')).toBe(false)
    expect(acceptsAvif('image/webp,*/*')).toBe(false)
    expect(acceptsAvif('image/*')).toBe(false)
    expect(acceptsAvif(null)).toBe(false)
  })
})
