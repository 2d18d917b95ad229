/** Bytes `start` to `end` of a file, both included (as HTTP ranges count them). */
export type ByteRange = { start: number; end: number }

export type StoredFile = { size: number; lastModified: Date | null }
