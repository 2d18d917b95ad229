// Preloaded with `--require` to write a CPU profile of a process when it exits, where NODE_OPTIONS
// may not carry --cpu-prof (the benches start the site with their own environment). Writes
// CPU.<pid>.cpuprofile into CPU_PROF_DIR; read it with Chrome's DevTools or a summariser.
const fs = require('node:fs')
const inspector = require('node:inspector')
const path = require('node:path')

const session = new inspector.Session()
session.connect()
session.post('Profiler.enable')
session.post('Profiler.setSamplingInterval', { interval: 1000 })
session.post('Profiler.start')

let written = false
function writeProfile() {
  if (written) return
  written = true
  // An in-process inspector session answers synchronously, so this completes even on exit.
  session.post('Profiler.stop', (error, result) => {
    if (error) return
    // The wall clock at the profile's monotonic clock's reading now, to find a moment in it.
    const profile = { ...result.profile, wallClock: { epochMs: Date.now(), monotonicUs: Number(process.hrtime.bigint() / 1000n) } }
    fs.writeFileSync(path.join(process.env.CPU_PROF_DIR ?? '.', `CPU.${process.pid}.cpuprofile`), JSON.stringify(profile))
  })
}
process.on('exit', writeProfile)
process.prependListener('SIGTERM', writeProfile)
