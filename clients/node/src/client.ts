import { VoiceAgentBrowserError } from './errors.js';
import { Events } from './events.js';
import { Transport } from './http.js';
import { PhoneNumbers, Rooms, VoiceClones } from './rooms-voices-numbers.js';
import { Calls, Campaigns, Credits, Dnc, Sessions, WebhookEndpoints } from './resources.js';
import { webhooks, type Webhooks } from './webhooks.js';

export interface VoiceAgentOptions {
  /** The API key (`vap_…`). Default: `VOICE_AGENT_API_KEY`, read when the client is constructed. */
  apiKey?: string;
  /** Default: `VOICE_AGENT_BASE_URL`, else `http://127.0.0.1:3000`. */
  baseUrl?: string;
  /** Retries of a failed request (network error, timeout, 409 in progress, 429, 5xx). Default 2. */
  maxRetries?: number;
  /** Timeout of one attempt, in milliseconds. Default 60,000. */
  timeoutMs?: number;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
  /**
   * The client refuses to run in a browser, where the key would be exposed to anyone using the page.
   * `true` lifts that (an internal tool whose users may see the key). Default false.
   */
  dangerouslyAllowBrowser?: boolean;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

/**
 * The Voice Agent Platform API. Every method resolves to the response body itself and rejects with a
 * `VoiceAgentError` (`status`, `type`, `message`, `param`, `request_id`).
 *
 * ```ts
 * const client = new VoiceAgent(); // VOICE_AGENT_API_KEY, VOICE_AGENT_BASE_URL
 * const session = await client.calls.create({ to: '+14155550100', from: '+14155550199', agent_config: { prompt: 'Hi' } });
 * ```
 */
export class VoiceAgent {
  readonly calls: Calls;
  readonly sessions: Sessions;
  readonly campaigns: Campaigns;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly events: Events;
  readonly credits: Credits;
  readonly rooms: Rooms;
  readonly voiceClones: VoiceClones;
  readonly dnc: Dnc;
  readonly phoneNumbers: PhoneNumbers;
  /** Signature verification of webhook deliveries (the same as the named export `webhooks`). */
  readonly webhooks: Webhooks = webhooks;
  readonly baseUrl: string;

  constructor(options: VoiceAgentOptions = {}) {
    if (isBrowser() && options.dangerouslyAllowBrowser !== true) throw new VoiceAgentBrowserError();
    const env = typeof process === 'undefined' ? {} : process.env;
    const apiKey = options.apiKey ?? env.VOICE_AGENT_API_KEY;
    if (!apiKey)
      throw new Error('No API key: pass { apiKey } to new VoiceAgent() or set VOICE_AGENT_API_KEY in the environment.');
    this.baseUrl = (options.baseUrl ?? env.VOICE_AGENT_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const transport = new Transport({
      apiKey,
      baseUrl: this.baseUrl,
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 60_000,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    });
    this.calls = new Calls(transport);
    this.sessions = new Sessions(transport);
    this.campaigns = new Campaigns(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.events = new Events(transport);
    this.credits = new Credits(transport);
    this.rooms = new Rooms(transport);
    this.voiceClones = new VoiceClones(transport);
    this.dnc = new Dnc(transport);
    this.phoneNumbers = new PhoneNumbers(transport);
  }
}

/** A page's main thread or a web worker (not Node, Deno, Bun, nor a server-side renderer without `document`). */
function isBrowser(): boolean {
  const g = globalThis as {
    window?: { document?: unknown };
    importScripts?: unknown;
    process?: { versions?: { node?: string } };
  };
  if (g.process?.versions?.node) return false;
  return (
    (typeof g.window === 'object' && typeof g.window.document === 'object') || typeof g.importScripts === 'function'
  );
}
