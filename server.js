// Starts the site, building it first when the build is missing or older than the source, so
// `npm install && npm start` is all a newcomer needs.
import { ensureBuild } from './scripts/ensure-build.mjs'

ensureBuild()
const { start, createAdminCommand } = await import('./build/server/index.js')
if (process.argv[2] === 'admin:create') await createAdminCommand(process.argv.slice(3))
else await start()
