import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { ROOM_ASSETS_DIR, WEB_SDK_FILE } from '../infra/room-assets';

const read = (name: string): string => readFileSync(join(ROOM_ASSETS_DIR, name), 'utf8');

/**
 * The web SDK (clients/web, built by `npm run build`), which room.js imports. Without its build the
 * page cannot join: its script says why in the browser's console, and the service says so once.
 */
function webSdk(): string {
  try {
    return readFileSync(WEB_SDK_FILE, 'utf8');
  } catch {
    new Logger('Rooms').warn(`The web SDK is not built (${WEB_SDK_FILE}): run npm run build; room pages cannot join.`);
    return "throw new Error('The web SDK is not built: run npm run build.');\nexport {};\n";
  }
}
const LAYOUT = read('room.html');
const LANDING = read('room-landing.html');

/** The landing page's static files, served at {rooms_url}/assets/<name>. */
export const PAGE_ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  'room.js': { type: 'text/javascript; charset=utf-8', body: read('room.js') },
  'voice-agent.js': { type: 'text/javascript; charset=utf-8', body: webSdk() },
  'room.css': { type: 'text/css; charset=utf-8', body: read('room.css') },
};

/**
 * The page's headers: nothing outside the platform may load (no CDN, no font, no analytics), the
 * token in the address never leaves in a Referer, and nobody caches a page that holds a credential.
 * Framing stays allowed: a customer may embed the room (`<iframe allow="microphone">`).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "media-src 'self' blob: mediastream:; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** The answer to a CORS preflight of WHIP's POST (application/sdp) and DELETE. */
export const PREFLIGHT: Readonly<Record<string, string>> = {
  'access-control-allow-methods': 'POST, DELETE, PATCH',
  'access-control-allow-headers': 'Content-Type',
  'access-control-max-age': '600',
};

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return LAYOUT.replaceAll('{{title}}', escape(title)).replace('{{body}}', body);
}

/** The landing page of a room: who it is for, "Join", then the call view with "Hang up". */
export function landingPage(room: { clientReferenceId: string | null }): string {
  const who = room.clientReferenceId ?? 'the person this link was sent to';
  return page('Voice call', LANDING.replace('{{for}}', escape(who)));
}

/** A page saying why the link cannot be used (403, 404, 410). */
export function errorPage(message: string): string {
  return page('This call is not available', `<p role="alert">${escape(message)}</p>`);
}
