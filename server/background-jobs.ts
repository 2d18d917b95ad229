import type pino from 'pino'
import type { Database } from '~/db/client.server'
import { pruneExpiredSessions } from '~/modules/accounts/sessions.server'
import { expireStaleHolds } from '~/modules/booking/holds.server'
import { expireUnconfirmedDayWaitlist, offerFreedDaySlots } from '~/modules/booking/analysis-day-waitlist.server'
import { pruneCampLine } from '~/modules/camps/line.server'
import { pruneDayLine } from '~/modules/booking/analysis-day-line.server'
import { expireStaleCampHolds } from '~/modules/camps/registrations.server'
import { expireUnconfirmedWaitlist, offerFreedSeats } from '~/modules/camps/waitlist.server'
import { onCampSeatFreed } from '~/modules/statuses/camp-seat-freed.server'
import { onMessageQueued, processOutbox, pruneSentEmails, type OutboxSender } from '~/modules/mail/outbox.server'
import type { MailTransport } from '~/modules/mail/transport.server'
import { pruneWhatsAppWebhookEvents } from '~/modules/whatsapp/webhook.server'
import { reconcileDuePayments } from '~/modules/payments/payments.server'
import { onRefundRequested, processDueRefunds } from '~/modules/payments/refunds.server'
import { applyRetention } from '~/modules/privacy/retention.server'
import { releaseLapsedPromoUses } from '~/modules/promotions/uses.server'
import { pruneRateLimitBuckets } from '~/modules/rate-limit/rate-limit.server'
import { sendDueReminders } from '~/modules/reminders/reminders.server'
import { durationMs } from '~/lib/lab-time'
import { ChildImageRenderer } from './image-renderer'
// Analyses: inviting swimmers back for their next analysis.
import { sweepAnalysisFiles } from '~/modules/analyses/files/clips.server'
import { inviteBackForNextAnalysis } from '~/modules/analyses/invitations.server'
import { onMediaQueued, processPendingMedia, sweepMediaFiles } from '~/modules/media/media.server'

type Task = { name: string; everyMs: number; run: () => Promise<unknown> }

/**
 * The in-process workers. Each task runs on its own timer, one run at a time (a request for another
 * run while one is going is remembered), and claims its rows with FOR UPDATE SKIP LOCKED, so any
 * number of instances can run them side by side. Timers are unref'd; `stop()` waits for runs in
 * progress.
 */
export class BackgroundJobs {
  private readonly timers: NodeJS.Timeout[] = []
  private readonly running = new Map<string, Promise<void>>()
  private readonly again = new Set<string>()
  private readonly unsubscribers: Array<() => void> = []
  private readonly tasks: Map<string, Task>
  private stopped = false

  constructor(
    private readonly transport: MailTransport,
    private readonly logger: pino.Logger,
    private readonly database: Database,
    /** The Cloud API sender when WhatsApp is on; without it no WhatsApp message is sent. */
    private readonly whatsapp?: OutboxSender,
    /** The clock the outbox's back-off, holds and housekeeping are read on. */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.tasks = new Map(
      [
        { name: 'outbox', everyMs: durationMs({ seconds: 1 }), run: () => this.deliver(this.transport) },
        // WhatsApp messages have a worker of their own: an outage of one channel never holds up the other.
        ...(whatsapp ? [{ name: 'whatsapp', everyMs: durationMs({ seconds: 1 }), run: () => this.deliver(whatsapp) }] : []),
        { name: 'payments', everyMs: durationMs({ seconds: 2 }), run: () => reconcileDuePayments() },
        { name: 'refunds', everyMs: durationMs({ seconds: 5 }), run: () => processDueRefunds() },
        { name: 'holds', everyMs: durationMs({ seconds: 30 }), run: () => this.releaseHolds() },
        { name: 'reminders', everyMs: durationMs({ minutes: 5 }), run: () => sendDueReminders() },
        { name: 'housekeeping', everyMs: durationMs({ hours: 1 }), run: () => this.housekeeping() },
        { name: 'retention', everyMs: durationMs({ hours: 1 }), run: () => applyRetention() },
        // Analyses: the e-mail that invites a swimmer back once their next analysis is due.
        // Analysis files: expired unfinished uploads, and files no clip refers to (a delete that failed).
        { name: 'analysis-files', everyMs: durationMs({ hours: 1 }), run: () => sweepAnalysisFiles() },
        { name: 'invite-back', everyMs: durationMs({ hours: 1 }), run: () => inviteBackForNextAnalysis() },
        // The media library's pipeline: the public files of each upload, started as soon as one is stored
        // (the poll picks up another instance's uploads and a claim whose worker stopped).
        { name: 'media', everyMs: durationMs({ seconds: 30 }), run: () => this.processMedia() },
        { name: 'media-files', everyMs: durationMs({ hours: 1 }), run: () => sweepMediaFiles(this.now()) },
      ].map((task) => [task.name, task]),
    )
  }

  start() {
    for (const task of this.tasks.values()) {
      const timer = setInterval(() => void this.trigger(task.name), task.everyMs)
      timer.unref()
      this.timers.push(timer)
    }
    this.unsubscribers.push(onMessageQueued((channel) => setImmediate(() => void this.trigger(channel === 'email' ? 'outbox' : 'whatsapp'))))
    this.unsubscribers.push(onRefundRequested(() => void this.trigger('refunds')))
    this.unsubscribers.push(onMediaQueued(() => setImmediate(() => void this.trigger('media'))))
    void onCampSeatFreed(this.database, () => void this.trigger('holds')).then(
      (unlisten) => (this.stopped ? void unlisten() : this.unsubscribers.push(() => void unlisten())),
      // Freed seats are still offered at the task's next round.
      (error: unknown) => this.logger.error({ err: error }, 'could not listen for freed camp seats'),
    )
    void this.trigger('outbox')
    void this.trigger('whatsapp')
    // Invitations that came due while no instance was running (a deploy, a restart) go out now, not an hour later.
    void this.trigger('invite-back')
    void this.trigger('media')
  }

  /** Runs a task now, or right after the run in progress. */
  trigger(name: string): Promise<void> {
    const task = this.tasks.get(name)
    if (!task || this.stopped) return Promise.resolve()
    const current = this.running.get(name)
    if (current) {
      this.again.add(name)
      return current
    }
    const run = (async () => {
      do {
        this.again.delete(name)
        try {
          await task.run()
        } catch (error) {
          this.logger.error({ err: error, task: name }, 'background task failed')
        }
      } while (this.again.has(name) && !this.stopped)
    })().finally(() => this.running.delete(name))
    this.running.set(name, run)
    return run
  }

  private async deliver(sender: OutboxSender) {
    const outcome = await processOutbox(sender, this.now)
    if (outcome.sent || outcome.failed) this.logger.info({ ...outcome, channel: sender.channel, transport: sender.kind }, 'outbox delivery')
  }

  /**
   * Unpaid holds run out (bookings and camp seats), and so do waitlist places nobody confirmed;
   * the promo codes they held are given back; freed camp seats and analysis day slots go to their
   * waitlists (an offer that ran out unpaid passes on to the next in line).
   */
  private async releaseHolds() {
    const now = this.now()
    await expireStaleHolds(now)
    await expireStaleCampHolds(now)
    await expireUnconfirmedWaitlist(now)
    await expireUnconfirmedDayWaitlist(now)
    await releaseLapsedPromoUses(now)
    const offered = await offerFreedSeats(now)
    if (offered) this.logger.info({ offered }, 'camp seats offered to the waitlist')
    const slots = await offerFreedDaySlots(now)
    if (slots) this.logger.info({ offered: slots }, 'analysis day slots offered to the waitlist')
  }

  /**
   * Each photo is made in a child process of its own that ends with it (see image-renderer.ts):
   * what one photo took is given back before the next begins, instead of piling up over a round.
   */
  private async processMedia() {
    const finished = await processPendingMedia(this.now, async (bytes, collection) => {
      const renderer = new ChildImageRenderer(this.logger)
      try {
        return await renderer.render(bytes, collection)
      } finally {
        renderer.close()
      }
    })
    if (finished) this.logger.info({ finished }, 'media uploads processed')
  }

  private async housekeeping() {
    const now = this.now()
    await pruneExpiredSessions(now)
    await pruneRateLimitBuckets(now)
    await pruneSentEmails(now)
    await pruneWhatsAppWebhookEvents(now)
    await pruneCampLine(now)
    await pruneDayLine(now)
  }

  async stop() {
    this.stopped = true
    for (const timer of this.timers) clearInterval(timer)
    for (const unsubscribe of this.unsubscribers) unsubscribe()
    await Promise.all(this.running.values())
    this.transport.close()
    this.whatsapp?.close()
  }
}
