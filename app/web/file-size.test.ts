import { describe, expect, it } from 'vitest'
import { formatFileSize } from './file-size'

describe('a file size', () => {
  it('under 1 MB is in whole KB, at least 1 KB for a file with any bytes', () => {
    expect(formatFileSize(0)).toBe('0 KB')
    expect(formatFileSize(1)).toBe('1 KB')
    expect(formatFileSize(48_000)).toBe('47 KB')
    expect(formatFileSize(300 * 1024)).toBe('300 KB')
    expect(formatFileSize(1023 * 1024)).toBe('1023 KB')
  })

  it('from 1 MB is in MB, then GB: one decimal below 10, whole above, never "1024 KB"', () => {
    expect(formatFileSize(1024 * 1024 - 100)).toBe('1.0 MB')
    expect(formatFileSize(2_411_724)).toBe('2.3 MB')
    expect(formatFileSize(9.99 * 1024 * 1024)).toBe('10 MB')
    expect(formatFileSize(50 * 1024 * 1024)).toBe('50 MB')
    expect(formatFileSize(1023 * 1024 * 1024)).toBe('1023 MB')
    expect(formatFileSize(1.5 * 1024 * 1024 * 1024)).toBe('1.5 GB')
  })
})
