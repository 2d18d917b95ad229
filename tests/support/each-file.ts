import { loadConfig, setConfig } from '~/config.server'
import { registerPayables } from '~/modules/payables/payables.server'

// Test files share a worker's modules (isolation is off, for speed): each file starts from the
// configuration its environment gives, whatever the file before it set.
setConfig(loadConfig())

// What the server registers at start-up: the kinds of thing paid for, which payments and receipts call.
registerPayables()
