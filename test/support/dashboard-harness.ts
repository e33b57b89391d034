import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startCallsService, type CallsService } from './calls-harness';
import { killAllServices } from './process';
import {
  closeAllReceivers,
  createTenant,
  envelopeOf,
  startSmtp,
  verifiesStandard,
  type ApiCall,
  type ApiResponse,
  type Envelope,
  type Receiver,
  type SmtpSink,
  type TenantInfo,
} from './webhooks-harness';
import { CHROMIUM, CHROMIUM_ARGS } from './rooms-harness';
import { REPO_ROOT } from './process';

/**
 * Where the dashboard tests save their screenshots: `test-results/dashboard` (ignored by git), or
 * docs/dashboard when DASHBOARD_SCREENSHOTS=docs (`npm run docs:dashboard` refreshes the docs' pictures).
 */
export const SCREENSHOT_DIR =
  process.env.DASHBOARD_SCREENSHOTS === 'docs'
    ? join(REPO_ROOT, 'docs', 'dashboard')
    : join(REPO_ROOT, 'test-results', 'dashboard');

/** Debian's chromium, headless, reaching nothing outside the machine; a fresh profile per context. */
export async function launchDashboardBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
  });
}

/** What a page did that the dashboard promises it never does: leave the platform, or log an error. */
export interface PageWatch {
  readonly outside: string[];
  readonly errors: string[];
}

/** Records every request that leaves `baseUrl` and every console error or uncaught exception. */
export function watch(page: Page, baseUrl: string): PageWatch {
  const seen: PageWatch = { outside: [], errors: [] };
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(`${baseUrl}/`) && !url.startsWith('data:')) seen.outside.push(url);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (err) => seen.errors.push(`pageerror: ${err.message}`));
  return seen;
}

/** A one-time sign-in link minted by the operator. */
export async function dashboardLink(call: ApiCall, adminToken: string, tenantId: string): Promise<string> {
  const res = await call<{ url: string; expires_at: string }>('POST', `/admin/v1/tenants/${tenantId}/dashboard_links`, {
    token: adminToken,
  });
  if (res.status !== 201) throw new Error(`dashboard link: ${res.status} ${res.text}`);
  return res.body.url;
}

/** Opens a one-time link and presses its "Sign in" button (opening it alone signs nobody in). */
export async function followSignInLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/dashboard/sign_in/'));
}

/** A fresh browser context signed in as the tenant through a one-time link. */
export async function signedIn(
  browser: Browser,
  call: ApiCall,
  adminToken: string,
  tenantId: string,
  options: { viewport?: { width: number; height: number }; timezoneId?: string; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    locale: options.locale ?? 'en-US',
    timezoneId: options.timezoneId ?? 'UTC',
  });
  const page = await context.newPage();
  await followSignInLink(page, await dashboardLink(call, adminToken, tenantId));
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  return { context, page };
}

export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  // The docs keep the first screenful (smaller files) unless told; test results keep the whole page.
  await page.screenshot({ path, fullPage: options.fullPage === true || process.env.DASHBOARD_SCREENSHOTS !== 'docs' });
  return path;
}

/** Form fields without a label and buttons without a name: what a screen reader could not announce. */
export async function unlabelled(page: Page): Promise<string[]> {
  // Evaluated in the page (this tsconfig has no DOM types, so the script is a string).
  return page.evaluate<string[]>(`(() => {
    const missing = [];
    for (const field of document.querySelectorAll('input, select, textarea')) {
      if (field.labels.length === 0 && !field.getAttribute('aria-label')) missing.push(field.outerHTML);
    }
    for (const el of document.querySelectorAll('button, a[href]')) {
      const name = (el.getAttribute('aria-label') || el.textContent || '').trim();
      if (!name) missing.push(el.outerHTML);
    }
    return missing;
  })()`);
}

/** One service, SMTP server, browser and two tenants for a dashboard test file, and its helpers. */
export interface DashboardRig {
  readonly h: CallsService;
  readonly smtp: SmtpSink;
  readonly browser: Browser;
  readonly tenant: TenantInfo;
  readonly other: TenantInfo;
  /** The API as a tenant (`tenant` unless told). */
  api<T = any>(method: string, path: string, body?: unknown, who?: TenantInfo): Promise<ApiResponse<T>>;
  /** A fresh browser context signed in through a one-time link, its page watched. */
  open(
    who?: TenantInfo,
    options?: { viewport?: { width: number; height: number }; timezoneId?: string },
  ): Promise<{ context: BrowserContext; page: Page; seen: PageWatch }>;
  /** A fresh, signed-out context, closed with the rig. */
  blank(options?: { locale?: string; timezoneId?: string }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function startDashboardRig(): Promise<DashboardRig> {
  const smtp = await startSmtp();
  const h = await startCallsService({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SIM_TIME_SCALE: '0.01',
    WEBHOOK_RETRY_SCHEDULE: '100ms',
    WEBHOOK_SUSPEND_AFTER: '2',
    TOPUP_SETTLE_DELAY: '200ms',
    SMTP_URL: smtp.url,
  });
  const tenant = await createTenant(h.call, h.svc.adminToken, 'Dashboard Co');
  const other = await createTenant(h.call, h.svc.adminToken, 'Other Co');
  const browser = await launchDashboardBrowser();
  const contexts: BrowserContext[] = [];
  return {
    h,
    smtp,
    browser,
    tenant,
    other,
    api: (method, path, body, who = tenant) =>
      h.call(method, path, { token: who.api_key, ...(body === undefined ? {} : { body }) }),
    async open(who = tenant, options = {}) {
      const { context, page } = await signedIn(browser, h.call, h.svc.adminToken, who.tenant_id, options);
      contexts.push(context);
      return { context, page, seen: watch(page, h.svc.baseUrl) };
    },
    async blank(options = {}) {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await closeAllReceivers();
      await smtp.close();
      await h.destroy();
      await killAllServices();
    },
  };
}

/** What the dashboard promises of every page: nothing requested outside the platform, no console error. */
export function expectClean(seen: PageWatch): void {
  expect(seen.outside).toEqual([]);
  expect(seen.errors).toEqual([]);
}

/** The deliveries a receiver got, each checked to be signed with the secret. */
export function signedDeliveries(receiver: Receiver, secret: string): Envelope[] {
  return receiver.requests.map((r) => {
    if (!verifiesStandard(secret, r)) throw new Error(`unsigned or wrongly signed delivery: ${r.body}`);
    return envelopeOf(r);
  });
}
