// Starts the site, building it first when the build is missing or older than the source, so
// `npm install && npm start` is all a newcomer needs.
import { ensureBuild } from './scripts/ensure-build.mjs'

// React and React Router pick their production code from NODE_ENV at run time.
process.env.NODE_ENV ??= 'production'

// The media pipeline's image renderer is a child of a running site, which has its build already.
const command = process.argv[2]
if (command !== 'media:render') ensureBuild()
const { start, createAdminCommand, runImageRenderer } = await import('./build/server/index.js')
if (command === 'admin:create') await createAdminCommand(process.argv.slice(3))
else if (command === 'media:render') runImageRenderer()
else await start()
