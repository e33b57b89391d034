import type { SendMailOptions, Transporter } from 'nodemailer';

/**
 * A nodemailer transport to an SMTP URL, made on the first message: nodemailer is loaded then, not
 * when the service starts (decision 176), so a service that sends no mail does not carry it.
 */
export class SmtpTransport {
  private transport: Promise<Transporter> | null = null;

  constructor(private readonly url: string) {}

  async sendMail(message: SendMailOptions): Promise<void> {
    this.transport ??= import('nodemailer').then(({ createTransport }) => createTransport(this.url));
    await (await this.transport).sendMail(message);
  }
}
