import { createReadStream } from 'node:fs'
import { open, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import type { ByteRange, StoredFile } from './stored-file'

// What the stores on disk (the analysis files', the media library's) do alike: a file's size, a
// stream of its bytes or some of them, and the files of a directory the store recognises as its own.

/** The file's size and when it was last written, or null when there is none. */
export async function statFile(file: string): Promise<StoredFile | null> {
  try {
    const info = await stat(file)
    return info.isFile() ? { size: info.size, lastModified: info.mtime } : null
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** A stream of the file (or of `range`), opened before it is handed over: a missing file is an error here, not mid-answer. */
export async function readFileRange(file: string, range?: ByteRange): Promise<Readable> {
  const handle = await open(file, 'r')
  return createReadStream(file, { fd: handle, autoClose: true, ...(range && { start: range.start, end: range.end }) })
}

/** Every file of `directory` whose name `isOwn` accepts, with when it was last written; none for a directory not made yet. */
export async function* listFiles(directory: string, isOwn: (name: string) => boolean): AsyncIterable<{ key: string; lastModified: Date }> {
  let names: string[]
  try {
    names = await readdir(directory)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  for (const name of names) {
    if (!isOwn(name)) continue
    const info = await stat(path.join(directory, name)).catch(() => null)
    if (info?.isFile()) yield { key: name, lastModified: info.mtime }
  }
}
