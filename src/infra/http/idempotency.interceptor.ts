import { CallHandler, ExecutionContext, HttpStatus, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { from, lastValueFrom, Observable } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { PG_POOL } from '../database/database.tokens';
import type { TenantRequest } from '../../kernel/http/current-tenant';
import { ApiError, toErrorResponse } from '../../kernel/http/api-error';
import { SECRET_BOX } from '../secret-box.provider';
import type { SecretBox } from '../../kernel/secret-box';
import { withIdempotencyKey } from '../../kernel/idempotency-context';
import { MultipartFingerprint } from './multipart-fingerprint';
import { secretShownOnce, withholdSecrets } from './shown-once';

const WINDOW_HOURS = 24;

interface StoredKey {
  request_hash: string;
  status: 'in_progress' | 'completed';
  response_status: number | null;
  response_sealed: string | null;
  locked_until: Date | null;
  secrets_withheld: string | null;
}

/** The request hash of a multipart request while its route reads the body (the fingerprint comes after). */
const PENDING = 'pending';

/**
 * `Idempotency-Key` on POST (Stripe's semantics): the same key and body within 24 hours returns the
 * first response without doing anything again; the same key with another body is a 422; a request
 * still running under that key is a 409. 5xx and 429 outcomes are not stored, so the client can retry; a
 * command whose effect must not happen twice makes its resource id from the key (a call's session
 * id), so a retry after a 5xx or a crash finds what the first attempt committed instead of
 * repeating it.
 *
 * A multipart body is hashed part by part as the route reads it (`MultipartFingerprint`). A response
 * that carries a secret (`api_key`, `whsec_…`) is stored without it, and its replay is a 409 that
 * says the secret was shown once (decision 63).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly reflector: Reflector,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.lockMs = config.idempotencyLockMs;
  }

  /**
   * How long a key stays locked to its request (IDEMPOTENCY_LOCK_MS): a request whose process died
   * lets another take the key over after this. A request still running renews it every third of it
   * (`holdLock`), however long it runs (a multipart upload may take 10 minutes).
   */
  private readonly lockMs: number;

  private lastSweep = 0;

  /** Keys older than the window are worthless; drop them about once a minute per instance. */
  private sweep(): void {
    if (Date.now() - this.lastSweep < 60_000) return;
    this.lastSweep = Date.now();
    this.pool
      .query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '${WINDOW_HOURS} hours'`)
      .catch(() => undefined);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<TenantRequest>();
    const header = request.headers['idempotency-key'];
    // Keys belong to an authenticated principal: a request no guard has authenticated (the signed
    // media ingest checks its own signature in the handler) claims none, so nobody can pre-claim
    // another principal's key.
    if (request.method !== 'POST' || header === undefined || !request.principal) return next.handle();
    return from(this.run(context, next, request, Array.isArray(header) ? (header[0] ?? '') : header));
  }

  private async run(
    context: ExecutionContext,
    next: CallHandler,
    request: TenantRequest,
    key: string,
  ): Promise<unknown> {
    if (key.length === 0 || key.length > 255)
      throw ApiError.invalid('Idempotency-Key must be 1 to 255 characters.', 'Idempotency-Key');
    const scope = request.principal ?? '';
    const path = request.url.split('?')[0] ?? request.url;
    const multipart = request.isMultipart();
    const prefix = `${request.method} ${path}`;
    const hash = multipart
      ? PENDING
      : createHash('sha256')
          .update(`${prefix}\n${JSON.stringify(request.body ?? null)}`)
          .digest('hex');
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    this.sweep();

    await this.pool.query(
      `DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND created_at < now() - interval '${WINDOW_HOURS} hours'`,
      [scope, key],
    );
    const inserted = await this.pool.query(
      `INSERT INTO idempotency_keys (tenant_id, key, method, path, request_hash, status, locked_until)
       VALUES ($1, $2, $3, $4, $5, 'in_progress', now() + interval '1 millisecond' * $6)
       ON CONFLICT (tenant_id, key) DO NOTHING`,
      [scope, key, request.method, path, hash, this.lockMs],
    );
    if (inserted.rowCount === 0) {
      const { rows } = await this.pool.query<StoredKey>(
        `SELECT request_hash, status, response_status, response_sealed, locked_until, secrets_withheld
         FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`,
        [scope, key],
      );
      const existing = rows[0];
      if (!existing) throw inProgress();
      if (existing.status === 'completed') {
        // A multipart body is read and hashed here only to compare it: the route will not see it.
        const sent = multipart ? await MultipartFingerprint.read(request, prefix) : hash;
        if (existing.request_hash !== sent) throw differentRequest();
        return this.replay(existing, reply);
      }
      if (!multipart && existing.request_hash !== hash) throw differentRequest();
      // A request under this key is running, or its process died: take it over once the lock lapses.
      const taken = await this.pool.query(
        `UPDATE idempotency_keys SET locked_until = now() + interval '1 millisecond' * $3
         WHERE tenant_id = $1 AND key = $2 AND status = 'in_progress' AND locked_until < now()`,
        [scope, key, this.lockMs],
      );
      if (taken.rowCount === 0) {
        throw inProgress();
      }
    }

    const fingerprint = multipart ? MultipartFingerprint.tap(request, prefix) : null;
    const held = this.holdLock(scope, key);
    try {
      const body: unknown = await withIdempotencyKey(`${scope}:${key}`, () =>
        lastValueFrom(next.handle() as Observable<unknown>, { defaultValue: undefined }),
      );
      const status =
        this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
      // A route that answered without reading its whole body: no retry can be told the same, none replays it.
      const sent = fingerprint ? (fingerprint.digest() ?? `unread ${randomUUID()}`) : null;
      await this.complete(scope, key, status, body ?? null, sent);
      return body;
    } catch (err) {
      const response = toErrorResponse(err, String(request.id));
      const sent = fingerprint?.digest() ?? null;
      // A refusal is kept only under a known fingerprint; a multipart body refused half-read is not.
      // A 429 (a rate or a queue cap) is not kept either: it says "later", and the retry under the
      // same key must be able to succeed then (as Stripe does with rate-limited requests).
      if (response.status >= 500 || response.status === 429 || (fingerprint && sent === null)) {
        await this.pool.query('DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2', [scope, key]);
      } else {
        await this.complete(scope, key, response.status, response.body, sent);
      }
      throw err;
    } finally {
      held.stop();
    }
  }

  /**
   * Renews the key's lock every third of IDEMPOTENCY_LOCK_MS while its request runs, so that a retry
   * under the same key gets the in-progress 409 for as long as the first attempt lasts, never a
   * takeover beside it. A lock that already lapsed (this process stalled) is not renewed: another
   * request may have taken the key over.
   */
  private holdLock(scope: string, key: string): { stop: () => void } {
    const timer = setInterval(
      () =>
        void this.pool
          .query(
            `UPDATE idempotency_keys SET locked_until = now() + interval '1 millisecond' * $3
             WHERE tenant_id = $1 AND key = $2 AND status = 'in_progress' AND locked_until > now()`,
            [scope, key, this.lockMs],
          )
          .catch(() => undefined),
      Math.max(100, Math.floor(this.lockMs / 3)),
    );
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  /** The stored answer again; one that carried a secret is a 409 instead (the secret was not kept). */
  private replay(existing: StoredKey, reply: FastifyReply): unknown {
    const status = existing.response_status ?? 200;
    const body: unknown =
      existing.response_sealed === null ? null : JSON.parse(this.box.open(existing.response_sealed));
    void reply.header('idempotent-replayed', 'true');
    if (existing.secrets_withheld !== null) throw secretShownOnce(status, existing.secrets_withheld, body);
    void reply.status(status);
    if (status >= 400) {
      void reply.send(body);
      return undefined;
    }
    return body;
  }

  /** Keeps the answer, sealed and without any secret; `requestHash` replaces a multipart request's pending one. */
  private async complete(
    scope: string,
    key: string,
    status: number,
    body: unknown,
    requestHash: string | null,
  ): Promise<void> {
    const { redacted, withheld } = withholdSecrets(body ?? null);
    await this.pool.query(
      `UPDATE idempotency_keys SET status = 'completed', response_status = $3, response_sealed = $4, locked_until = NULL,
         secrets_withheld = $5, request_hash = COALESCE($6, request_hash)
       WHERE tenant_id = $1 AND key = $2`,
      [
        scope,
        key,
        status,
        this.box.seal(JSON.stringify(redacted)),
        withheld.length > 0 && status < 400 ? withheld.join(', ') : null,
        requestHash,
      ],
    );
  }
}

function differentRequest(): ApiError {
  return new ApiError(
    422,
    'idempotency_error',
    'This Idempotency-Key was already used with a different request body or path.',
    'Idempotency-Key',
  );
}

/**
 * A request under the same key is running: a 409 that names the key and says when to retry, so that
 * a client can tell it from a state conflict and retry with the same key (the Node client does).
 */
function inProgress(): ApiError {
  return new ApiError(
    409,
    'conflict',
    'A request with this Idempotency-Key is in progress; retry shortly.',
    'Idempotency-Key',
    { 'retry-after': '1' },
  );
}
