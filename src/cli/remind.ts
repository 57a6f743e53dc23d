import type { Command } from 'commander';
import { InvalidInputError } from '../errors.js';
import { callbackNotifier, type Reminder } from '../notify/notifier.js';
import { webhookNotifier } from '../notify/webhook-notifier.js';
import { deliverReminders } from '../pipelines/deliver-reminders.js';
import { whenIn } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

interface RemindOptions {
  webhook?: string;
  secret?: string;
}

/**
 * `engram remind`: delivers every due reminder once (all users), then exits: to a webhook
 * (`--webhook` / ENGRAM_WEBHOOK_URL, signed with `--secret` / ENGRAM_WEBHOOK_SECRET), or printed
 * here. Each reminder is recorded as delivered, so running it again (cron) never repeats one.
 */
export function registerRemind(program: Command, io: CliIo): void {
  program
    .command('remind')
    .description('deliver due reminders once (to --webhook, or printed here); safe to run from cron')
    .option('--webhook <url>', 'POST each reminder here (ENGRAM_WEBHOOK_URL)')
    .option('--secret <secret>', 'HMAC secret for the webhook signature (ENGRAM_WEBHOOK_SECRET)')
    .action((options: RemindOptions, command: Command) =>
      withEngine(io, command, async ({ engine, json }) => {
        const url = options.webhook ?? io.env.ENGRAM_WEBHOOK_URL;
        const secret = options.secret ?? io.env.ENGRAM_WEBHOOK_SECRET;
        const printed: Reminder[] = [];
        if (url && !secret) throw new InvalidInputError('remind: a webhook needs --secret (or ENGRAM_WEBHOOK_SECRET) to sign its requests');
        const notifier = url && secret ? webhookNotifier({ url, secret }) : callbackNotifier((r) => void printed.push(r));
        const report = await deliverReminders(engine.deps, notifier);
        // Each reminder on its own user's wall clock.
        const zones = new Map<string, string>();
        for (const r of printed) if (!zones.has(r.userId)) zones.set(r.userId, (await engine.getSettings(r.userId)).timeZone);
        emit(io, json, { ...report, ...(url ? {} : { reminders: printed }) }, () => {
          const lines = printed.map((r) => `⏰ ${r.userId}: ${r.content}${r.dueAt ? ` (${whenIn(r.dueAt, zones.get(r.userId)!)} ${zones.get(r.userId)})` : ''}`);
          lines.push(`Delivered ${report.delivered.length}${report.failed.length > 0 ? `, failed ${report.failed.length} (retried later)` : ''}${report.skipped.length > 0 ? `, skipped ${report.skipped.length} stale occurrence(s) of repeating todos` : ''}.`);
          return lines.join('\n');
        });
      }),
    );
}
