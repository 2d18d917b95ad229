import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { RendererStoppedError } from '~/modules/media/media.server'
import { ChildImageRenderer } from './image-renderer'

const logger = pino({ level: 'silent' })

/** A stand-in for the site's start script: a child that answers (or dies) as `body` says. */
function childScript(body: string) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'renderer-')), 'child.mjs')
  writeFileSync(file, body)
  return file
}

describe('the image renderer in a child process', () => {
  it('passes the photo over and its files back, and the child ends when closed', async () => {
    const script = childScript(`
      process.on('message', ({ id, bytes, collection }) => process.send({ id, image: { files: [{ format: 'jpeg', width: bytes.length, height: 1, name: collection, bytes: new Uint8Array([1, 2, 3]) }], placeholder: 'data:,' } }))
      process.on('disconnect', () => process.exit(0))`)
    const renderer = new ChildImageRenderer(logger, script)
    const image = await renderer.render(new Uint8Array(7), 'portrait')
    expect(image.files).toEqual([{ format: 'jpeg', width: 7, height: 1, name: 'portrait', bytes: Buffer.from([1, 2, 3]) }])
    expect(Buffer.isBuffer(image.files[0]!.bytes)).toBe(true)
    const child = (renderer as unknown as { child: import('node:child_process').ChildProcess }).child
    const exited = new Promise((resolve) => child.on('exit', resolve))
    renderer.close()
    expect(await exited).toBe(0)
  })

  it("turns a photo the child cannot make into that photo's error", async () => {
    const script = childScript(`
      process.on('message', ({ id }) => process.send({ id, error: 'VipsJpeg: premature end of input file' }))
      process.on('disconnect', () => process.exit(0))`)
    const renderer = new ChildImageRenderer(logger, script)
    await expect(renderer.render(new Uint8Array(1), 'lab')).rejects.toThrow('premature end')
    renderer.close()
  })

  it('fails what a child that dies was making as stopped, so the upload is tried again, and starts a new child for the next', async () => {
    const script = childScript(`
      process.on('message', ({ id, bytes }) => bytes.length === 1 ? process.exit(137) : process.send({ id, image: { files: [], placeholder: 'data:,' } }))
      process.on('disconnect', () => process.exit(0))`)
    const renderer = new ChildImageRenderer(logger, script)
    await expect(renderer.render(new Uint8Array(1), 'lab')).rejects.toBeInstanceOf(RendererStoppedError)
    await expect(renderer.render(new Uint8Array(2), 'lab')).resolves.toEqual({ files: [], placeholder: 'data:,' })
    renderer.close()
  })
})
