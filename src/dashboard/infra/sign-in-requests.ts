import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { DashboardSignIn, SIGN_IN_LINK_TTL_MS } from '../../tenants';
import { signInUrl } from '../api/dashboard-urls';
import { SignInMailer } from './sign-in-mailer';
import { BoundedWork, clientKey, WindowLimit } from './sign-in-limits';

/** Sign-in e-mails made and sent at once per instance; the rest wait (DASHBOARD_LOGIN_QUEUE) or are dropped. */
const CONCURRENCY = 2;

/**
 * The e-mailed sign-in links behind `POST /dashboard/login` (decision 64), bounded so that a flood of
 * unauthenticated requests cannot take the database from the tenants: a limit per client address
 * (beyond it the route answers 429), a limit per e-mail address (beyond it nothing is sent, and the
 * answer is the same 202), and the background work itself (a small queue; more is dropped, logged).
 */
@Injectable()
export class SignInRequests {
  private readonly logger = new Logger('Dashboard');
  private readonly perClient: WindowLimit;
  private readonly perAddress: WindowLimit;
  private readonly work: BoundedWork;
  private lastLimitLog = 0;

  constructor(
    private readonly signIn: DashboardSignIn,
    private readonly mailer: SignInMailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.perClient = new WindowLimit(config.dashboardLoginLimitPerIp, 60_000);
    this.perAddress = new WindowLimit(config.dashboardLoginLimitPerEmail, SIGN_IN_LINK_TTL_MS);
    this.work = new BoundedWork('sign-in e-mails', CONCURRENCY, config.dashboardLoginQueue, this.logger);
  }

  /**
   * Whether a client already asked too often, without counting: checked as a request arrives, before
   * its body is read, so that refusing a flood costs little (0: go on; else the seconds to wait).
   */
  clientRefused(ip: string): number {
    return this.perClient.wait(clientKey(ip));
  }

  /** Counts a valid request of the client: 0 when it may be served, else the seconds it must wait. */
  clientWait(ip: string): number {
    return this.perClient.take(clientKey(ip));
  }

  /**
   * A link for the address, made and sent in the background if a tenant has it, within the limits.
   * Nothing of it shows to the caller: not whether the address has an account, nor a limit reached.
   */
  request(email: string, next: string | null): void {
    if (this.perAddress.take(email.trim().toLowerCase()) > 0) {
      // The address is not logged: the log names no one.
      if (Date.now() - this.lastLimitLog >= 10_000) {
        this.lastLimitLog = Date.now();
        this.logger.warn('sign-in e-mails asked for one address too often: not sent');
      }
      return;
    }
    this.work.offer(() => this.send(email, next));
  }

  private async send(email: string, next: string | null): Promise<void> {
    try {
      const owner = await this.signIn.tenantByEmail(email);
      const link = owner ? await this.signIn.createLink(owner.tenantId, next) : null;
      // To the address as the tenant registered it, never to the one typed; a suspended tenant gets none.
      if (owner && link && link !== 'suspended')
        await this.mailer.send(owner.email, signInUrl(this.config.baseUrl, link.token), link.expiresAt);
    } catch (err) {
      this.logger.warn(`a sign-in e-mail could not be sent: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
