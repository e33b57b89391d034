import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { PROJECT_ROOT } from '../../infra/project-root';

/**
 * The built dashboard (`npm run build` runs Vite on src/dashboard/web into dist/dashboard-web). The
 * path is found from the project's root, so it is the same from the sources (tests) and any build.
 */
export const WEB_DIR = join(PROJECT_ROOT, 'dist', 'dashboard-web');

/**
 * Everything the page loads comes from this origin (no CDN, no inline script: docs/dashboard.md), except
 * recordings, played from `RECORDINGS_URL`'s origin when it is another.
 */
export function pageHeaders(recordingsUrl: string): Record<string, string> {
  const media = new URL(recordingsUrl).origin;
  return {
    'content-security-policy':
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' ${media}; ` +
      "connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export interface ShellContext {
  /** The signed-in session's CSRF token, or null on the sign-in pages. */
  readonly csrf: string | null;
  readonly tenantId: string | null;
  /** A page the server already knows about: not_found, link_refused, sign_in (a link opened). */
  readonly notice?: 'not_found' | 'link_refused' | 'sign_in';
  /** On the sign_in page: the name of the account the link signs in to. */
  readonly account?: string;
}

let template: string | null = null;

/** The page: Vite's index.html with what the script needs to know in meta tags (no inline script). */
export function renderShell(context: ShellContext): string | null {
  if (template === null) {
    const file = join(WEB_DIR, 'index.html');
    if (!existsSync(file)) return null;
    template = readFileSync(file, 'utf8');
  }
  const meta = [
    context.csrf ? `<meta name="csrf-token" content="${escapeAttribute(context.csrf)}">` : '',
    context.tenantId ? `<meta name="tenant-id" content="${escapeAttribute(context.tenantId)}">` : '',
    context.notice ? `<meta name="dashboard-notice" content="${context.notice}">` : '',
    context.account ? `<meta name="sign-in-account" content="${escapeAttribute(context.account)}">` : '',
  ].join('');
  return template.replace('<!--dashboard-meta-->', () => meta);
}

/** A built asset by its file name under assets/, or null. */
export function readAsset(file: string): { body: Buffer; type: string } | null {
  const type = TYPES[extname(file)];
  if (!type || !/^[A-Za-z0-9_.-]+$/.test(file)) return null;
  const dir = join(WEB_DIR, 'assets');
  const path = normalize(join(dir, file));
  if (!path.startsWith(dir + sep) || !existsSync(path) || !statSync(path).isFile()) return null;
  return { body: readFileSync(path), type };
}

function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}
