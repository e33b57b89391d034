import { Inject, Injectable } from '@nestjs/common';
import { Agent, Dispatcher, request } from 'undici';
import { APP_CONFIG, AppConfig, settingsOf } from '../../config/config';
import { webhooksSettings } from '../webhooks.config';
import { SECRET_BOX } from '../../infra/secret-box.provider';
import { CLOCK, Clock } from '../../kernel/clock';
import { SecretBox } from '../../kernel/secret-box';
import { signDelivery } from '../../kernel/signing/signing';
import type { AttemptOutcome } from '../domain/delivery-policy';
import { createPinnedDispatcher, resolvePublicAddress, validateWebhookUrl } from './address-policy';
import type { ClaimedDelivery } from './delivery-claims';
import { MAX_IN_FLIGHT } from './delivery-limits';

export interface AttemptResult {
  delivery: ClaimedDelivery;
  at: Date;
  outcome: AttemptOutcome;
  error: string | null;
  durationMs: number;
  /** The response body, capped; null when there was no response. */
  responseBody: string | null;
}

/**
 * Concurrent connections to one receiver (host and port): as many as the worker may have attempts
 * in flight, so that no attempt ever waits here for a connection (its timeout would run while it
 * waits). The worker's bounds (per endpoint and per instance) are what spare receivers.
 */
const CONNECTIONS_PER_ORIGIN = MAX_IN_FLIGHT;
const RESPONSE_CAPTURE_BYTES = 4096;
const MAX_PINNED_DISPATCHERS = 500;
const MAX_OPENED_SECRETS = 10_000;

/**
 * Makes one attempt at a delivery: checks the address, signs and POSTs the stored envelope, and
 * classifies what happened as an {@link AttemptOutcome}. The body is the stored envelope, byte for
 * byte, on every attempt; only the timestamp and signatures are new. The delivery worker closes
 * the sender's connections when it stops.
 */
@Injectable()
export class DeliverySender {
  private readonly dispatchers = new Map<string, { dispatcher: Dispatcher; at: number }>();
  private readonly secrets = new Map<string, string>();
  private readonly plainAgent: Agent;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {
    const { timeoutMs } = settingsOf(config, webhooksSettings);
    this.plainAgent = new Agent({
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: timeoutMs },
      connections: CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: 4_000,
    });
  }

  async send(delivery: ClaimedDelivery): Promise<AttemptResult> {
    const at = this.clock.now();
    const started = performance.now();
    const finish = (
      outcome: AttemptOutcome,
      error: string | null,
      responseBody: string | null = null,
    ): AttemptResult => ({
      delivery,
      at,
      outcome,
      error,
      durationMs: Math.round(performance.now() - started),
      responseBody,
    });
    // One deadline for the whole attempt, address resolution included: an attempt never outlives
    // WEBHOOK_TIMEOUT_MS, so the claim's lease (WEBHOOK_TIMEOUT_MS + 30 s) covers it and its recording.
    const deadline = AbortSignal.timeout(settingsOf(this.config, webhooksSettings).timeoutMs);
    let dispatcher: Dispatcher;
    try {
      dispatcher = await withDeadline(this.dispatcherFor(delivery.url), deadline);
    } catch (err) {
      if (deadline.aborted)
        return finish({ kind: 'timeout' }, `timeout after ${settingsOf(this.config, webhooksSettings).timeoutMs} ms`);
      return finish(
        { kind: 'network_error', code: 'address_rejected' },
        err instanceof Error ? err.message : String(err),
      );
    }
    let secret: string;
    try {
      secret = this.secretOf(delivery.secret_sealed);
    } catch {
      // Only this endpoint's deliveries fail, each with an attempt that says why; never the process.
      return finish(
        { kind: 'network_error', code: 'secret_unreadable' },
        'The endpoint signing secret could not be opened: WEBHOOK_SECRET_KEY is not the key it was sealed with.',
      );
    }
    const headers = signDelivery({
      secret,
      eventId: delivery.event_id,
      eventType: delivery.event_type,
      timestampSeconds: Math.floor(at.getTime() / 1000),
      body: delivery.payload,
    });
    try {
      const response = await request(delivery.url, {
        method: 'POST',
        headers: { ...headers, 'user-agent': 'VoiceAgentPlatform-Webhooks/1' },
        body: delivery.payload,
        dispatcher,
        signal: deadline,
      });
      const empty = response.statusCode === 204 || response.headers['content-length'] === '0';
      const body = empty ? (await response.body.dump(), '') : await readCapped(response.body, RESPONSE_CAPTURE_BYTES);
      const retryAfter = response.headers['retry-after'];
      return finish(
        {
          kind: 'response',
          status: response.statusCode,
          retryAfterHeader: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        },
        null,
        body,
      );
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      const timedOut =
        e.name === 'TimeoutError' ||
        e.name === 'AbortError' ||
        e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
        e.code === 'UND_ERR_BODY_TIMEOUT' ||
        e.code === 'UND_ERR_CONNECT_TIMEOUT';
      return timedOut
        ? finish({ kind: 'timeout' }, `timeout after ${settingsOf(this.config, webhooksSettings).timeoutMs} ms`)
        : finish(
            { kind: 'network_error', code: e.code },
            storableText(`${e.code ?? e.name ?? 'error'}: ${e.message ?? ''}`).slice(0, 500),
          );
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([
      this.plainAgent.close(),
      ...[...this.dispatchers.values()].map((d) => d.dispatcher.close()),
    ]);
    this.dispatchers.clear();
  }

  /** Public-address check at every delivery, with the connection pinned to the checked address. */
  private async dispatcherFor(rawUrl: string): Promise<Dispatcher> {
    if (settingsOf(this.config, webhooksSettings).allowPrivateUrls) return this.plainAgent;
    const valid = validateWebhookUrl(rawUrl, { allowPrivate: false });
    if (!valid.ok) throw new Error(valid.message);
    const resolved = await resolvePublicAddress(valid.url.hostname, { allowPrivate: false });
    if (!resolved.ok) throw new Error(resolved.message);
    const key = `${valid.url.host}|${resolved.address}`;
    const cached = this.dispatchers.get(key);
    if (cached) return cached.dispatcher;
    const dispatcher = createPinnedDispatcher(resolved.address, resolved.family, {
      timeoutMs: settingsOf(this.config, webhooksSettings).timeoutMs,
      connections: CONNECTIONS_PER_ORIGIN,
    });
    this.dispatchers.set(key, { dispatcher, at: Date.now() });
    if (this.dispatchers.size > MAX_PINNED_DISPATCHERS) {
      const oldest = [...this.dispatchers.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (oldest) {
        this.dispatchers.delete(oldest[0]);
        void oldest[1].dispatcher.close().catch(() => undefined);
      }
    }
    return dispatcher;
  }

  private secretOf(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      secret = this.box.open(sealed);
      if (this.secrets.size > MAX_OPENED_SECRETS) this.secrets.clear();
      this.secrets.set(sealed, secret);
    }
    return secret;
  }
}

/** `promise`, or a rejection once `signal` aborts, whichever comes first. */
function withDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * Reads at most `limit` bytes of an answer, then drops the connection: a huge, trickled or
 * never-ending body costs no more than its first bytes, and the attempt ends with its status.
 */
async function readCapped(body: AsyncIterable<Buffer> & { destroy?: () => void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy?.();
      break;
    }
  }
  return storableText(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
}

/**
 * A receiver's bytes as text PostgreSQL can store: invalid UTF-8 is already replaced by U+FFFD when
 * decoded; NUL, which a text column refuses, is replaced the same way.
 */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\ufffd');
}
