// Preloaded into a server under test (NODE_OPTIONS=--import=<this file>): appends the file of every
// module the process loads, ES module or CommonJS, to the file LOADED_MODULES_FILE names, one a line.
// Plain JavaScript: Node loads it before anything that could read TypeScript.
import { appendFileSync } from 'node:fs'
import Module, { register } from 'node:module'
import { fileURLToPath } from 'node:url'
import { isMainThread } from 'node:worker_threads'

const record = (file) => appendFileSync(process.env.LOADED_MODULES_FILE, `${file}\n`)

/** The hook of `import` (and of an import's CommonJS target), run on the loader's own thread. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context)
  if (resolved.url.startsWith('file:')) record(fileURLToPath(resolved.url))
  return resolved
}

if (isMainThread) {
  register(import.meta.url)
  // `require` inside CommonJS modules does not pass through the hooks above.
  const resolveFilename = Module._resolveFilename
  Module._resolveFilename = function (...args) {
    const file = resolveFilename.apply(this, args)
    if (file.startsWith('/')) record(file)
    return file
  }
}
