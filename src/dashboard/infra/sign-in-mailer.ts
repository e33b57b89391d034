import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { SmtpTransport } from '../../infra/mail/smtp-transport';

/**
 * Sends a sign-in link by e-mail through nodemailer to SMTP_URL, while the visitor waits (decision 47):
 * the link is a credential that lives 15 minutes, so it is neither queued nor stored, and a failure
 * is shown at once for the visitor to try again. Without SMTP_URL nothing is sent and the log says
 * that a link was asked for (never the link itself).
 */
@Injectable()
export class SignInMailer {
  private readonly logger = new Logger('Dashboard');
  private readonly transport: SmtpTransport | null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.transport = config.smtpUrl ? new SmtpTransport(config.smtpUrl) : null;
  }

  get configured(): boolean {
    return this.transport !== null;
  }

  async send(to: string, url: string, expiresAt: Date): Promise<void> {
    if (!this.transport) {
      this.logger.warn('a sign-in link was asked for, but SMTP_URL is not set: no e-mail sent');
      return;
    }
    await this.transport.sendMail({
      from: this.config.mailFrom,
      to,
      subject: 'Your sign-in link for the Voice Agent Platform dashboard',
      text: [
        'Open this link to sign in to your dashboard:',
        '',
        url,
        '',
        `It works once, until ${expiresAt.toISOString()} (15 minutes).`,
        'If you did not ask for it, ignore this e-mail: nobody can sign in without it.',
      ].join('\n'),
    });
  }
}
