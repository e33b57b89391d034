import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ApiError } from '../../kernel/http/api-error';
import { DashboardSignIn, SIGN_IN_LINK_TTL_MS, csrfMatches, csrfTokenOf, safeDashboardPath } from '../../tenants';
import { SignInRequests } from '../infra/sign-in-requests';
import { pageHeaders, readAsset, renderShell, type ShellContext } from './dashboard-shell';
import { RESOURCE_PAGES, SECTIONS } from './dashboard-urls';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The dashboard's pages, sign-in and sign-out (docs/dashboard.md). The
 * pages are one Preact application; what they show and change goes through the /v1 API with the
 * session cookie, so the dashboard has no path to the data of its own.
 */
@ApiExcludeController()
@Controller('dashboard')
export class DashboardController {
  constructor(
    private readonly signIn: DashboardSignIn,
    private readonly requests: SignInRequests,
    private readonly http: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('assets/:file')
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const asset = readAsset(file);
    if (!asset) throw ApiError.notFound('file');
    await reply
      .header('content-type', asset.type)
      // Vite names files by their content hash: a file never changes under its name.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(asset.body);
  }

  /** The sign-in page: asks for the tenant's e-mail address. */
  @Get('login')
  async loginPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const next = safeDashboardPath((request.query as Record<string, unknown>).next) ?? '/dashboard';
    if (await this.signIn.sessionTenant(request.cookies[this.signIn.cookieName])) return this.redirect(reply, next);
    await this.page(reply, 200, { csrf: null, tenantId: null });
  }

  /**
   * E-mails a one-time link to the address if a tenant has it; the answer is the same either way.
   * A client asking too often gets a 429 with Retry-After (decision 64).
   */
  @Post('login')
  @HttpCode(202)
  emailLink(@Body() body: unknown, @Req() request: FastifyRequest) {
    const fields = (body ?? {}) as { email?: unknown; next?: unknown };
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ApiError.invalid('Send {"email"}.');
    const unknown = Object.keys(fields).find((k) => k !== 'email' && k !== 'next');
    if (unknown) throw ApiError.invalid(`Unknown field ${unknown}.`, unknown);
    if (typeof fields.email !== 'string' || fields.email.length > 254 || !EMAIL.test(fields.email))
      throw ApiError.invalid('email must be an e-mail address.', 'email');
    const wait = this.requests.clientWait(request.ip);
    if (wait > 0) throw tooManySignIns(wait);
    // Answered at once, the same for every address: whether it has an account shows neither in the
    // answer nor in its timing. The link is made and sent in the background (decision 47).
    this.requests.request(fields.email, safeDashboardPath(fields.next), request.ip);
    return {
      sent: true,
      message: `If an account uses ${fields.email}, a sign-in link is on its way; it works once, for ${SIGN_IN_LINK_TTL_MS / 60_000} minutes.`,
    };
  }

  /**
   * A one-time link opened: a page naming the account, whose button POSTs the link's token to sign in.
   * Opening it uses nothing and signs nobody in: a mail scanner following links burns none, and
   * another site sending a browser there signs it into nothing (decision 64). A link that cannot be
   * used shows so at once (410).
   */
  @Get('sign_in/:token')
  async signInPage(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const link = await this.signIn.peek(token);
    if (!link) return this.page(reply, 410, { csrf: null, tenantId: null, notice: 'link_refused' });
    await this.page(reply, 200, { csrf: null, tenantId: null, notice: 'sign_in', account: link.tenantName });
  }

  /**
   * The sign-in page's button: `{"token"}` of the link, from this site only (JSON, which another site
   * cannot send without a preflight, and its Origin and Sec-Fetch-Site checked). Uses the link once
   * and answers where to go; a link that cannot be used is a 410.
   */
  @Post('sign_in')
  @HttpCode(200)
  async redeem(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ signed_in: true; next: string }> {
    if (!fromThisSite(request, this.config.baseUrl))
      throw new ApiError(403, 'forbidden', 'Sign-in is accepted only from the sign-in page of this site.');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ApiError.invalid('Send {"token"}.');
    const unknown = Object.keys(body).find((k) => k !== 'token');
    if (unknown) throw ApiError.invalid(`Unknown field ${unknown}.`, unknown);
    const token = (body as { token?: unknown }).token;
    if (typeof token !== 'string' || token.length > 100)
      throw ApiError.invalid('token must be the token of a sign-in link.', 'token');
    const session = await this.signIn.redeem(token);
    if (!session)
      throw new ApiError(
        410,
        'gone',
        'This sign-in link cannot be used: it was already used, has expired, or was never issued.',
        'token',
      );
    // A session this browser had before ends: one browser, one session.
    await this.signIn.end(request.cookies[this.signIn.cookieName]);
    void reply.setCookie(this.signIn.cookieName, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.signIn.secure,
      path: '/',
      expires: session.expiresAt,
    });
    return { signed_in: true, next: session.next ?? '/dashboard' };
  }

  /** Sign-out ends the session everywhere and clears the cookie. */
  @Post('sign_out')
  @HttpCode(200)
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const session = request.cookies[this.signIn.cookieName];
    if (session === undefined) throw ApiError.unauthenticated('You are not signed in.');
    // The token is derived from the session, so it is checked even for a session that already ended.
    if (!csrfMatches(session, request.headers['x-csrf-token']))
      throw new ApiError(403, 'forbidden', 'Missing or invalid CSRF token: send the X-CSRF-Token header of the page.');
    await this.signIn.end(session);
    void reply.clearCookie(this.signIn.cookieName, { path: '/' });
    return { signed_out: true };
  }

  @Get()
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signedInPage(request, reply);
  }

  @Get('*')
  async any(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signedInPage(request, reply);
  }

  private async signedInPage(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const session = request.cookies[this.signIn.cookieName];
    const tenantId = await this.signIn.sessionTenant(session);
    const path = request.url.split('?')[0] ?? '/dashboard';
    if (!tenantId || session === undefined) {
      const next = safeDashboardPath(request.url) ?? '/dashboard';
      return this.redirect(reply, `/dashboard/login?next=${encodeURIComponent(next)}`);
    }
    const found = await this.resourceExists(request, path);
    await this.page(reply, found ? 200 : 404, {
      csrf: csrfTokenOf(session),
      tenantId,
      ...(found ? {} : { notice: 'not_found' as const }),
    });
  }

  /**
   * A section (`/dashboard/<section>`) exists when it is one of the menu's; a resource page
   * (`/dashboard/<collection>/<id>`) exists when the API shows that resource to this
   * session: asked in process, through the same guard and route as any client.
   */
  private async resourceExists(request: FastifyRequest, path: string): Promise<boolean> {
    const [, collection, id, ...rest] = path.split('/').filter(Boolean);
    if (collection === undefined) return true;
    if (id === undefined) return SECTIONS.has(collection);
    const route =
      rest.length === 0 && Object.hasOwn(RESOURCE_PAGES, collection) ? RESOURCE_PAGES[collection] : undefined;
    if (!route) return false;
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    let decoded: string;
    try {
      decoded = decodeURIComponent(id);
    } catch {
      return false;
    }
    const answer = await fastify.inject({
      method: 'GET',
      url: route(decoded),
      headers: { cookie: request.headers.cookie ?? '' },
    });
    // Only a 404 is "not found": a passing failure (503) is left to the page, which shows the error.
    return answer.statusCode !== 404;
  }

  private async page(reply: FastifyReply, status: number, context: ShellContext): Promise<void> {
    const html = renderShell(context);
    if (html === null) {
      await reply
        .status(503)
        .header('content-type', 'text/plain; charset=utf-8')
        .send('The dashboard is not built: run `npm run build`.');
      return;
    }
    await reply
      .status(status)
      .headers(pageHeaders(this.config.recordingsUrl))
      .header('content-type', 'text/html; charset=utf-8')
      .send(html);
  }

  private async redirect(reply: FastifyReply, to: string): Promise<void> {
    await reply.status(303).header('location', to).header('cache-control', 'no-store').send();
  }
}

/**
 * Whether a request comes from a page of this site: a browser says so in `Sec-Fetch-Site` and
 * `Origin` (it sends both on a cross-site POST); a client that is no browser sends neither.
 */
function fromThisSite(request: FastifyRequest, baseUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return origin === new URL(baseUrl).origin || origin === `${request.protocol}://${request.headers.host ?? ''}`;
}

/** A client beyond its limit of sign-in e-mails: 429 with Retry-After. */
export function tooManySignIns(wait: number): ApiError {
  return new ApiError(
    429,
    'rate_limited',
    `Too many sign-in links asked for from this address; try again in ${wait} s.`,
    undefined,
    { 'retry-after': String(wait) },
  );
}
