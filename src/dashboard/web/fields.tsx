import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { formatCents, formatDuration, formatTime, formatValue, label, words } from './format';

/** The page of the resource an id names, by the id's field. */
const ID_PAGES: Record<string, string> = {
  session_id: 'sessions',
  campaign_id: 'campaigns',
  voice_id: 'voice_clones',
  room_id: 'rooms',
  phone_number_id: 'phone_numbers',
  topup_id: 'topups',
  endpoint_id: 'webhook_endpoints',
};

/** Ids the API made (`ses_…`, `cmp_…`), linked to their page when they have one. */
export function idHref(field: string, value: string): string | null {
  const collection = ID_PAGES[field];
  // voice_default and other built-in voices have no page.
  if (!collection || (field === 'voice_id' && !value.startsWith('vc_'))) return null;
  return `/dashboard/${collection}/${value}`;
}

/**
 * An id: monospace on one line, cut with an ellipsis when the column is narrow (the whole id is its
 * title and is what "Copy" copies), never broken in the middle.
 */
export function Id({ value, href }: { value: string; href?: string | null }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => undefined,
    );
  };
  const text = (
    <code class="id" title={value}>
      {value}
    </code>
  );
  return (
    <span class="id-wrap">
      {href ? <a href={href}>{text}</a> : text}
      <button type="button" class="copy" onClick={copy} aria-label={`Copy ${value}`} title="Copy">
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
          {copied ? (
            <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" stroke-width="2" />
          ) : (
            <path
              d="M5 5V2.5h8.5V11H11M2.5 5H11v8.5H2.5z"
              fill="none"
              stroke="currentColor"
              stroke-width="1.4"
              stroke-linejoin="round"
            />
          )}
        </svg>
      </button>
    </span>
  );
}

/** Fields whose values are the API's words (`phone_call`, `no_answer`): shown as words. */
const ENUM_FIELDS = new Set(['channel', 'session_type', 'direction', 'source', 'role', 'language']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** One field's value as a person reads it: money, durations, times, ids, nested settings. */
export function Value({ field, value }: { field: string; value: unknown }): ComponentChildren {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'status' && typeof value === 'string') return <Status value={value} />;
  if (field.endsWith('_cents') && typeof value === 'number') return formatCents(value);
  if (field.endsWith('_seconds') && typeof value === 'number') return formatDuration(value);
  if (field.endsWith('_ms') && typeof value === 'number') return `${value} ms`;
  if (field.endsWith('_url') && typeof value === 'string' && /^https?:/.test(value))
    return (
      <a href={value} class="url">
        {field === 'url' ? value : (new URL(value).pathname.split('/').pop() ?? value)}
      </a>
    );
  if (ENUM_FIELDS.has(field) && typeof value === 'string') return words(value);
  if (field === 'events' && Array.isArray(value) && value.length === 1 && value[0] === '*') return 'All events';
  if ((field === 'id' || field.endsWith('_id')) && typeof value === 'string' && /^[a-z]+_[A-Za-z0-9]+$/.test(value))
    return <Id value={value} href={idHref(field, value)} />;
  if (field.endsWith('_reason') && typeof value === 'string') return words(value);
  if ((field === 'prompt' || field === 'first_message' || field === 'content') && typeof value === 'string')
    return <span class="prose">{value}</span>;
  if (isPlainObject(value)) {
    // Quiet hours and the like: "start–end".
    if (typeof value.start === 'string' && typeof value.end === 'string' && Object.keys(value).length === 2)
      return `${value.start}–${value.end}`;
    return <Fields data={value} nested />;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    if (value.every((v) => !isPlainObject(v))) return formatValue(value);
    return (
      <ol class="records">
        {value.map((v, i) => (
          <li key={i}>{isPlainObject(v) ? <Fields data={v} nested /> : formatValue(v)}</li>
        ))}
      </ol>
    );
  }
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return formatTime(value);
  return formatValue(value);
}

export function Status({ value }: { value: unknown }) {
  const text = typeof value === 'string' ? value : formatValue(value);
  return <span class={`status status-${text.replace(/[^a-z_]/g, '')}`}>{words(text)}</span>;
}

/**
 * A resource's fields as a definition list with human labels: objects (an agent's configuration, a
 * campaign's settings) as nested lists, lists of records (functions called) as numbered records.
 */
export function Fields({
  data,
  omit = [],
  nested = false,
  labels = {},
}: {
  data: object;
  omit?: string[];
  nested?: boolean;
  /** This page's own words for some fields (a session's `started_at` is when it was answered). */
  labels?: Record<string, string>;
}) {
  const all: [string, unknown][] = Object.entries(data);
  const entries = all.filter(([key]) => !omit.includes(key));
  if (entries.length === 0) return <span>—</span>;
  return (
    <dl class={nested ? 'fields nested' : 'fields'}>
      {entries.map(([key, value]) => (
        <div
          key={key}
          data-field={key}
          class={isPlainObject(value) || (Array.isArray(value) && value.some(isPlainObject)) ? 'wide' : undefined}
        >
          <dt>{labels[key] ?? label(key)}</dt>
          <dd>
            <Value field={key} value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
