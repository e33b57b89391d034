import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { dashboardSettings } from '../dashboard.config';
import { DashboardSignIn, SIGN_IN_LINK_TTL_MS } from '../../tenants';
import { signInUrl } from '../api/dashboard-urls';
import { SignInMailer } from './sign-in-mailer';
import { BoundedWork, clientKey, WindowLimit } from './sign-in-limits';

/** Sign-in e-mails made and sent at once per instance; the rest wait (DASHBOARD_LOGIN_QUEUE) or are dropped. */
const CONCURRENCY = 2;
/** Addresses waiting to be looked up, per instance (one entry per address); more are dropped. */
const LOOKUP_QUEUE = 1_000;
/** Addresses looked up in one query (by the `lower(email)` index). */
const LOOKUP_BATCH = 100;

/**
 * The e-mailed sign-in links behind `POST /dashboard/login` (decisions 64, 68), bounded so that a
 * flood of unauthenticated requests cannot take the database from the tenants, nor keep a tenant's
 * own links from it:
 * - a limit per client address (beyond it the route answers 429);
 * - a limit per e-mail address and client (3 per 15 minutes), and a higher one per e-mail address
 *   whoever asks (10): beyond them nothing is sent, and the answer is the same 202. Another client's
 *   requests for an address do not use up its owner's;
 * - the work, in two stages, each holding an address at most once: addresses wait to be looked up
 *   (1000, in batches of 100 per query), and only those a tenant has wait for their link to be made
 *   and e-mailed (DASHBOARD_LOGIN_QUEUE). A flood of made-up addresses costs one cheap query per 100
 *   and never takes the place of a tenant's own request in the second stage.
 */
@Injectable()
export class SignInRequests {
  private readonly logger = new Logger('Dashboard');
  private readonly perClient: WindowLimit;
  private readonly perAddressOfClient: WindowLimit;
  private readonly perAddress: WindowLimit;
  private readonly work: BoundedWork;
  /** Addresses (lower case) waiting for their lookup, with the page to open after sign-in. */
  private readonly lookups = new Map<string, string | null>();
  /** Addresses whose link is waiting to be made or being sent. */
  private readonly mailing = new Set<string>();
  private lookingUp = false;
  private lastLimitLog = 0;
  private lastDropLog = 0;
  private dropped = 0;

  constructor(
    private readonly signIn: DashboardSignIn,
    private readonly mailer: SignInMailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const limits = settingsOf(config, dashboardSettings);
    this.perClient = new WindowLimit(limits.loginLimitPerIp, 60_000);
    this.perAddressOfClient = new WindowLimit(limits.loginLimitPerEmail, SIGN_IN_LINK_TTL_MS);
    this.perAddress = new WindowLimit(limits.loginLimitPerEmailTotal, SIGN_IN_LINK_TTL_MS);
    this.work = new BoundedWork('sign-in e-mails', CONCURRENCY, limits.loginQueue, this.logger);
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
   * Nothing of it shows to the caller: not whether the address has an account, nor a limit reached
   * (the answer is sent before the lookup).
   */
  request(email: string, next: string | null, ip: string): void {
    const address = email.trim().toLowerCase();
    if (this.perAddressOfClient.take(`${address} ${clientKey(ip)}`) > 0 || this.perAddress.take(address) > 0) {
      // The address is not logged: the log names no one.
      if (Date.now() - this.lastLimitLog >= 10_000) {
        this.lastLimitLog = Date.now();
        this.logger.warn('sign-in e-mails asked for one address too often: not sent');
      }
      return;
    }
    if (this.lookups.has(address)) return; // one waits already: its link is the one sent
    if (this.lookups.size >= LOOKUP_QUEUE) return this.drop();
    this.lookups.set(address, next);
    if (!this.lookingUp) void this.lookUp();
  }

  /** Looks the waiting addresses up, a batch per query, and queues a link for each a tenant has. */
  private async lookUp(): Promise<void> {
    this.lookingUp = true;
    try {
      while (this.lookups.size > 0) {
        const batch: [string, string | null][] = [];
        for (const entry of this.lookups) {
          batch.push(entry);
          this.lookups.delete(entry[0]);
          if (batch.length === LOOKUP_BATCH) break;
        }
        let owners: Map<string, { tenantId: string; email: string }>;
        try {
          owners = await this.signIn.tenantsByEmails(batch.map(([address]) => address));
        } catch (err) {
          this.logger.warn(
            `sign-in addresses could not be looked up: ${err instanceof Error ? err.message : String(err)}`,
          );
          continue;
        }
        for (const [address, next] of batch) {
          const owner = owners.get(address);
          if (!owner || this.mailing.has(address)) continue;
          this.mailing.add(address);
          const offered = this.work.offer(() => this.send(owner, next).finally(() => this.mailing.delete(address)));
          if (!offered) this.mailing.delete(address);
        }
      }
    } finally {
      this.lookingUp = false;
    }
  }

  private drop(): void {
    this.dropped++;
    if (Date.now() - this.lastDropLog < 10_000) return;
    this.lastDropLog = Date.now();
    this.logger.warn(`${this.dropped} sign-in requests dropped: ${LOOKUP_QUEUE} addresses wait for their lookup`);
    this.dropped = 0;
  }

  private async send(owner: { tenantId: string; email: string }, next: string | null): Promise<void> {
    try {
      const link = await this.signIn.createLink(owner.tenantId, next);
      // To the address as the tenant registered it, never to the one typed; a suspended tenant gets none.
      if (link && link !== 'suspended')
        await this.mailer.send(owner.email, signInUrl(this.config.baseUrl, link.token), link.expiresAt);
    } catch (err) {
      this.logger.warn(`a sign-in e-mail could not be sent: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
