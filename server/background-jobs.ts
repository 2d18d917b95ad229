import type pino from 'pino'
import { pruneExpiredSessions } from '~/modules/accounts/sessions.server'
import { onEmailQueued, processOutbox, pruneSentEmails } from '~/modules/mail/outbox.server'
import type { MailTransport } from '~/modules/mail/transport.server'
import { pruneRateLimitBuckets } from '~/modules/rate-limit/rate-limit.server'

/**
 * The in-process workers: the e-mail outbox (every second, and at once when a message is queued)
 * and an hourly clean-up of expired rows. Timers are unref'd so they never keep the process alive;
 * `stop()` waits for the run in progress.
 */
export class BackgroundJobs {
  private outboxTimer: NodeJS.Timeout | undefined
  private housekeepingTimer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private again = false
  private stopped = false
  private unsubscribe: (() => void) | undefined

  constructor(
    private readonly transport: MailTransport,
    private readonly logger: pino.Logger,
    private readonly options = { outboxIntervalMs: 1_000, housekeepingIntervalMs: 60 * 60_000 },
  ) {}

  start() {
    this.outboxTimer = setInterval(() => this.deliverMail(), this.options.outboxIntervalMs)
    this.outboxTimer.unref()
    this.housekeepingTimer = setInterval(() => this.housekeeping(), this.options.housekeepingIntervalMs)
    this.housekeepingTimer.unref()
    this.unsubscribe = onEmailQueued(() => setImmediate(() => this.deliverMail()))
    this.deliverMail()
  }

  /** One delivery run at a time; a request for another while one runs is remembered. */
  deliverMail(): Promise<void> {
    if (this.stopped) return Promise.resolve()
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      do {
        this.again = false
        try {
          const outcome = await processOutbox(this.transport)
          if (outcome.sent || outcome.failed) this.logger.info({ ...outcome, transport: this.transport.kind }, 'outbox delivery')
        } catch (error) {
          this.logger.error({ err: error }, 'outbox delivery failed')
        }
      } while (this.again && !this.stopped)
    })().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  private async housekeeping() {
    try {
      const now = new Date()
      await pruneExpiredSessions(now)
      await pruneRateLimitBuckets(now)
      await pruneSentEmails(now)
    } catch (error) {
      this.logger.error({ err: error }, 'housekeeping failed')
    }
  }

  async stop() {
    this.stopped = true
    clearInterval(this.outboxTimer)
    clearInterval(this.housekeepingTimer)
    this.unsubscribe?.()
    await this.running
    this.transport.close()
  }
}
