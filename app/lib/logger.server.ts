import pino from 'pino'
import { config } from '~/config.server'
import { redactSecretsIn } from './log-redaction.server'

let current: pino.Logger | undefined

/**
 * Starts the site's one logger: JSON lines, written to `destination` (stdout by default). Server
 * code logs through `logger()` with structured fields; code that also runs in the browser does not
 * import this module.
 */
export function startLogger(level: pino.LevelWithSilent, destination?: pino.DestinationStream): pino.Logger {
  current = pino(
    {
      level,
      base: undefined,
      // An error may carry the address it failed on, with a private link's key in it.
      serializers: { err: (error) => redactSecretsIn(pino.stdSerializers.err(error)) },
    },
    destination,
  )
  return current
}

/** The logger the server started, or one on stdout at LOG_LEVEL (scripts, tests). */
export function logger(): pino.Logger {
  return current ?? startLogger(config().LOG_LEVEL)
}
