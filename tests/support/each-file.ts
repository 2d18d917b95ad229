import { loadConfig, setConfig } from '~/config.server'

// Test files share a worker's modules (isolation is off, for speed): each file starts from the
// configuration its environment gives, whatever the file before it set.
setConfig(loadConfig())
