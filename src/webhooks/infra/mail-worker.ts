import { Inject, Injectable, Logger } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { SmtpTransport } from '../../infra/mail/smtp-transport';
import { PG_POOL } from '../../infra/database/database.tokens';
import { PollingWorker } from '../../runtime/workers/polling-worker';
import { GetTenant } from '../../tenants';

interface Mail {
  mail_id: string;
  tenant_id: string;
  to_address: string | null;
  subject: string;
  body: string;
  attempts: number;
}

/**
 * Sends the durable mail outbox (endpoint suspension notices) through nodemailer to SMTP_URL.
 * Without SMTP_URL the notice is written to the log instead. Failed sends retry with backoff.
 * A round sends one batch, then the worker waits for a poke (the outbox queues notices and pokes
 * it) or, at most, the next poll (5 s: retries and notices queued by another instance).
 */
@Injectable()
export class MailWorker extends PollingWorker {
  private readonly logger = new Logger('Mail');
  private readonly transport: SmtpTransport | null;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: QueryBus,
  ) {
    super('mail', {
      onError: (err) => new Logger('Mail').error(`mail loop: ${err instanceof Error ? err.message : String(err)}`),
      backoffMs: () => 1000,
    });
    this.transport = config.smtpUrl ? new SmtpTransport(config.smtpUrl) : null;
  }

  protected async tick(): Promise<boolean> {
    await this.sendDue();
    return false;
  }

  protected override idleMs(): number {
    return 5000;
  }

  async sendDue(): Promise<number> {
    const { rows } = await this.pool.query<Mail>(
      `UPDATE mail_outbox SET locked_until = now() + interval '2 minutes', attempts = attempts + 1
       WHERE mail_id IN (SELECT mail_id FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= now()
                         AND (locked_until IS NULL OR locked_until < now()) ORDER BY next_attempt_at LIMIT 20
                         FOR UPDATE SKIP LOCKED)
       RETURNING mail_id, tenant_id, to_address, subject, body, attempts`,
    );
    for (const mail of rows) {
      try {
        // The address is the tenant's at sending time, asked of the tenants context.
        const to = mail.to_address ?? (await this.queries.execute(new GetTenant(mail.tenant_id)))?.email ?? null;
        if (!to) {
          this.logger.warn(`no e-mail address for the tenant; notice not mailed: ${mail.subject}`);
        } else if (!this.transport) {
          this.logger.log(`SMTP_URL is not set; notice for ${to}: ${mail.subject}`);
        } else {
          await this.transport.sendMail({
            from: this.config.mailFrom,
            to,
            subject: mail.subject,
            text: mail.body,
          });
        }
        await this.pool.query(
          `UPDATE mail_outbox SET status = 'sent', sent_at = now(), locked_until = NULL WHERE mail_id = $1`,
          [mail.mail_id],
        );
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const giveUp = mail.attempts >= 10;
        await this.pool.query(
          `UPDATE mail_outbox SET status = $2, last_error = $3, locked_until = NULL,
             next_attempt_at = now() + make_interval(secs => $4) WHERE mail_id = $1`,
          [mail.mail_id, giveUp ? 'failed' : 'pending', message.slice(0, 500), Math.min(3600, 5 * 2 ** mail.attempts)],
        );
      }
    }
    return rows.length;
  }
}
