// Starts the site, building it first when the build is missing or older than the source, so
// `npm install && npm start` is all a newcomer needs.
import { ensureBuild } from './scripts/ensure-build.mjs'

// React and React Router pick their production code from NODE_ENV at run time.
process.env.NODE_ENV ??= 'production'

ensureBuild()
const { start, createAdminCommand } = await import('./build/server/index.js')
if (process.argv[2] === 'admin:create') await createAdminCommand(process.argv.slice(3))
else await start()
