import { randomBytes, createHash } from 'node:crypto'
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'

/**
 * The smallest S3-compatible server the analysis files need, on a loopback port, path-style
 * (http://127.0.0.1:<port>/<bucket>/<key>), speaking S3's real HTTP and XML: objects with their
 * x-amz-meta-* metadata (put, get with a Range, head, delete, delete many, list), and multipart
 * uploads (create, upload a part, list parts, complete, abort, list uploads), which @tus/s3-store
 * uses for every upload. Written here because s3rver, the usual fake on npm, has no ListParts,
 * AbortMultipartUpload or ListMultipartUploads, without which @tus/s3-store cannot resume or
 * expire an upload. Bodies go to files on disk as they arrive, as S3 would keep them; signatures
 * are not checked.
 */
export async function startFakeS3(bucket = 'analysis-files') {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-s3-'))
  type StoredObject = { file: string; size: number; etag: string; metadata: Record<string, string>; contentType: string; lastModified: Date }
  const objects = new Map<string, StoredObject>()
  type Part = { file: string; size: number; etag: string }
  const uploads = new Map<string, { key: string; initiated: Date; metadata: Record<string, string>; contentType: string; parts: Map<number, Part> }>()
  const requests: string[] = []

  const newFile = () => path.join(dir, randomBytes(12).toString('hex'))
  const xml = (response: ServerResponse, status: number, body: string) => {
    response.writeHead(status, { 'Content-Type': 'application/xml' })
    response.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`)
  }
  const error = (response: ServerResponse, status: number, code: string) => xml(response, status, `<Error><Code>${code}</Code><Message>${code}</Message></Error>`)
  const metadataOf = (request: IncomingMessage) => Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.startsWith('x-amz-meta-')).map(([name, value]) => [name, String(value)]))
  async function receive(request: IncomingMessage) {
    const file = newFile()
    const hash = createHash('md5')
    let size = 0
    request.on('data', (chunk: Buffer) => {
      hash.update(chunk)
      size += chunk.length
    })
    await pipeline(request, createWriteStream(file))
    return { file, size, etag: `"${hash.digest('hex')}"` }
  }
  async function readBody(request: IncomingMessage) {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString()
  }
  async function drop(key: string) {
    const object = objects.get(key)
    objects.delete(key)
    if (object) await rm(object.file, { force: true })
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://s3.invalid')
    const [, bucketName, ...rest] = url.pathname.split('/')
    const key = decodeURIComponent(rest.join('/'))
    const query = url.searchParams
    const method = request.method ?? 'GET'
    requests.push(`${method} ${key ? 'object' : 'bucket'}${[...query.keys()].filter((name) => name !== 'x-id').map((name) => ` ${name}`).join('')}`)
    if (bucketName !== bucket) return error(response, 404, 'NoSuchBucket')

    if (!key) {
      if (method === 'GET' && query.has('uploads')) {
        const entries = [...uploads].map(([id, upload]) => `<Upload><Key>${upload.key}</Key><UploadId>${id}</UploadId><Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`)
        return xml(response, 200, `<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${entries.join('')}</ListMultipartUploadsResult>`)
      }
      if (method === 'GET') {
        const prefix = query.get('prefix') ?? ''
        const entries = [...objects].filter(([name]) => name.startsWith(prefix)).map(([name, object]) => `<Contents><Key>${name}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>${object.etag}</ETag><Size>${object.size}</Size></Contents>`)
        return xml(response, 200, `<ListBucketResult><Name>${bucket}</Name><KeyCount>${entries.length}</KeyCount><IsTruncated>false</IsTruncated>${entries.join('')}</ListBucketResult>`)
      }
      if (method === 'POST' && query.has('delete')) {
        const keys = [...(await readBody(request)).matchAll(/<Key>([^<]+)<\/Key>/g)].map((match) => match[1]!)
        for (const name of keys) await drop(name)
        return xml(response, 200, `<DeleteResult>${keys.map((name) => `<Deleted><Key>${name}</Key></Deleted>`).join('')}</DeleteResult>`)
      }
      return error(response, 501, 'NotImplemented')
    }

    const uploadId = query.get('uploadId')
    if (method === 'POST' && query.has('uploads')) {
      const id = randomBytes(16).toString('hex')
      uploads.set(id, { key, initiated: new Date(), metadata: metadataOf(request), contentType: request.headers['content-type'] ?? 'application/octet-stream', parts: new Map() })
      return xml(response, 200, `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`)
    }
    if (uploadId) {
      const upload = uploads.get(uploadId)
      if (!upload || upload.key !== key) return error(response, 404, 'NoSuchUpload')
      if (method === 'PUT') {
        const part = await receive(request)
        const number = Number(query.get('partNumber'))
        const previous = upload.parts.get(number)
        if (previous) await rm(previous.file, { force: true })
        upload.parts.set(number, part)
        response.writeHead(200, { ETag: part.etag })
        return response.end()
      }
      if (method === 'GET') {
        const parts = [...upload.parts].sort(([a], [b]) => a - b).map(([number, part]) => `<Part><PartNumber>${number}</PartNumber><ETag>${part.etag}</ETag><Size>${part.size}</Size></Part>`)
        return xml(response, 200, `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`)
      }
      if (method === 'POST') {
        const numbers = [...(await readBody(request)).matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((match) => Number(match[1]))
        const file = newFile()
        const out = createWriteStream(file)
        let size = 0
        for (const number of numbers) {
          const part = upload.parts.get(number)
          if (!part) return error(response, 400, 'InvalidPart')
          await pipeline(createReadStream(part.file), out, { end: false })
          size += part.size
        }
        await new Promise<void>((resolve, reject) => out.end((failure?: Error | null) => (failure ? reject(failure) : resolve())))
        for (const part of upload.parts.values()) await rm(part.file, { force: true })
        uploads.delete(uploadId)
        await drop(key)
        const etag = `"${createHash('md5').update(numbers.join(',')).digest('hex')}-${numbers.length}"`
        objects.set(key, { file, size, etag, metadata: upload.metadata, contentType: upload.contentType, lastModified: new Date() })
        return xml(response, 200, `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>${etag}</ETag></CompleteMultipartUploadResult>`)
      }
      if (method === 'DELETE') {
        for (const part of upload.parts.values()) await rm(part.file, { force: true })
        uploads.delete(uploadId)
        response.writeHead(204)
        return response.end()
      }
    }
    if (method === 'PUT') {
      const body = await receive(request)
      await drop(key)
      objects.set(key, { ...body, metadata: metadataOf(request), contentType: request.headers['content-type'] ?? 'application/octet-stream', lastModified: new Date() })
      response.writeHead(200, { ETag: body.etag })
      return response.end()
    }
    if (method === 'DELETE') {
      await drop(key)
      response.writeHead(204)
      return response.end()
    }
    if (method === 'GET' || method === 'HEAD') {
      const object = objects.get(key)
      if (!object) {
        if (method === 'HEAD') {
          response.writeHead(404)
          return response.end()
        }
        return error(response, 404, 'NoSuchKey')
      }
      const headers = { ...object.metadata, ETag: object.etag, 'Last-Modified': object.lastModified.toUTCString(), 'Content-Type': object.contentType, 'Accept-Ranges': 'bytes' }
      const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '')
      if (range && method === 'GET') {
        const start = range[1] ? Number(range[1]) : Math.max(0, object.size - Number(range[2]))
        const end = range[1] && range[2] ? Math.min(Number(range[2]), object.size - 1) : object.size - 1
        if (start >= object.size) return error(response, 416, 'InvalidRange')
        response.writeHead(206, { ...headers, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${object.size}` })
        return void (await pipeline(createReadStream(object.file, { start, end }), response))
      }
      response.writeHead(200, { ...headers, 'Content-Length': object.size })
      if (method === 'HEAD') return response.end()
      return void (await pipeline(createReadStream(object.file), response))
    }
    return error(response, 501, 'NotImplemented')
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((failure: unknown) => {
      if (!response.headersSent) error(response, 500, 'InternalError')
      else response.destroy(failure as Error)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    /** What the site asked, in order ("PUT object partNumber uploadId"), to show which calls were made. */
    requests,
    /** The server settings that put a site's analysis files here. */
    env: { S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY_ID: 'test-key', S3_SECRET_ACCESS_KEY: 'test-secret', S3_FORCE_PATH_STYLE: 'true' },
    keys: () => [...objects.keys()],
    unfinishedUploads: () => uploads.size,
    /** The stored bytes of an object, as a stream of its file (for a hash). */
    file: (key: string) => objects.get(key)?.file,
    size: async (key: string) => {
      const object = objects.get(key)
      return object ? (await stat(object.file)).size : null
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
