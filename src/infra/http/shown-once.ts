import { ApiError } from '../../kernel/http/api-error';

/**
 * Fields whose value is a secret shown once: a new API key, a webhook endpoint's signing secret (an
 * operator's one-time sign-in link is caught by its value, below).
 */
const SECRET_FIELDS: ReadonlySet<string> = new Set(['api_key', 'secret']);
/** Values that are secrets whatever their field: `whsec_…` signing secrets and `vap_…_…` API keys. */
const SECRET_VALUE = /^(whsec_[A-Za-z0-9+/=_-]+|vap_[0-9a-z]{12}_[A-Za-z0-9_-]{43})$/;
/** Values that carry a one-time dashboard credential: a sign-in link's URL (`…/dl_…`), a `ds_…` session. */
const CARRIES_CREDENTIAL = /(?:^|[/=])d[ls]_[A-Za-z0-9_-]{43}(?:$|[?#&])/;

/**
 * A response body with every secret replaced by null, and the paths of what was withheld
 * (`api_key`, `data[0].secret`), so that an Idempotency-Key never keeps a secret (decision 63).
 */
export function withholdSecrets(body: unknown): { redacted: unknown; withheld: string[] } {
  const withheld: string[] = [];
  const walk = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${path}[${i}]`));
    if (typeof value === 'string') {
      if (!SECRET_VALUE.test(value) && !CARRIES_CREDENTIAL.test(value)) return value;
      withheld.push(path || '(body)');
      return null;
    }
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (SECRET_FIELDS.has(key) && typeof item === 'string') {
        withheld.push(at);
        out[key] = null;
      } else out[key] = walk(item, at);
    }
    return out;
  };
  const redacted = walk(body, '');
  return { redacted, withheld };
}

/**
 * The answer to a replayed Idempotency-Key whose first answer carried a secret: a 409 that says the
 * secret was shown once, and what the first request made or changed (its ids), never the secret.
 * Neither its param nor its message marks it as "in progress": a client must not retry it.
 */
export function secretShownOnce(status: number, withheld: string, redacted: unknown): ApiError {
  const ids =
    typeof redacted === 'object' && redacted !== null && !Array.isArray(redacted)
      ? Object.entries(redacted)
          .filter(([k, v]) => (k === 'id' || k.endsWith('_id') || k === 'key_prefix') && typeof v === 'string')
          .map(([k, v]) => `${k} ${String(v)}`)
      : [];
  return new ApiError(
    409,
    'conflict',
    `The first request with this Idempotency-Key succeeded (${status}${ids.length ? `: ${ids.join(', ')}` : ''}). ` +
      `Its answer carried a secret (${withheld}), which is shown once and not kept, so it cannot be shown again. ` +
      'Issue a new API key, rotate the secret or make a new sign-in link to get a new one.',
  );
}
