/** Times in the viewer's own zone and language, as the browser reports them. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function formatTime(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}

export const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The API's currency (GET /v1/credits says USD). */
export const CURRENCY = 'USD';

export function formatCents(cents: unknown, currency = CURRENCY): string {
  if (typeof cents !== 'number') return '—';
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

/** 75 → "1 min 15 s"; 3725 → "1 h 2 min". */
export function formatDuration(seconds: unknown): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
}

export function formatPercent(fraction: number | null | undefined): string {
  if (typeof fraction !== 'number') return '—';
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(fraction);
}

/** A value of the API's vocabulary (`no_answer`, `quiet_hours`) as words ("no answer"). */
export function words(value: string): string {
  return value.replace(/_/g, ' ');
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return formatTime(value);
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map((v) => formatValue(v)).join(', ');
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * What a person calls each field the API returns. A field not named here is shown as its words
 * ("failure_streak" → "Failure streak"), without its unit suffix.
 */
const LABELS: Record<string, string> = {
  id: 'Id',
  session_id: 'Session',
  campaign_id: 'Campaign',
  contact_id: 'Contact',
  voice_id: 'Voice',
  room_id: 'Room',
  phone_number_id: 'Phone number id',
  topup_id: 'Top-up',
  endpoint_id: 'Endpoint',
  delivery_id: 'Delivery',
  event_id: 'Event id',
  recording_id: 'Recording',
  url: 'URL',
  to_number: 'To',
  from_number: 'From',
  phone_number: 'Phone number',
  test_mode: 'Test mode',
  end_reason: 'Why it ended',
  hold_reason: 'Held because',
  created_at: 'Created',
  started_at: 'Started',
  ended_at: 'Ended',
  paused_at: 'Paused',
  completed_at: 'Completed',
  updated_at: 'Updated',
  expires_at: 'Expires',
  next_open_at: 'Next opens',
  dispatched_at: 'Dialled',
  finished_at: 'Finished',
  duration_seconds: 'Duration',
  actual_cost_cents: 'Cost',
  amount_cents: 'Amount',
  balance_cents: 'Balance',
  threshold_cents: 'Low-balance threshold',
  transcript_url: 'Transcript (JSON)',
  room_url: 'Room link',
  function_invocations: 'Functions called',
  transfer_number: 'Transferred to',
  agent_disposition: 'Outcome',
  agent_config: 'Agent',
  settings: 'Settings',
  total_contacts: 'Contacts',
  completed_sessions: 'Completed calls',
  failed_sessions: 'Failed calls',
  pause_reason: 'Paused because',
  session_type: 'Session type',
  client_reference_id: 'Your reference',
  first_name: 'First name',
  last_name: 'Last name',
  max_concurrency: 'Calls at once',
  max_attempts: 'Attempts per contact',
  quiet_hours: 'Quiet hours',
  prompt: 'Prompt',
  first_message: 'First message',
  language: 'Language',
  functions: 'Functions',
  arguments: 'Arguments',
  result: 'Result',
  processor_payment_intent_id: 'Payment reference',
  failure_streak: 'Failures in a row',
  skip_reason: 'Skip reason',
};

/** `failure_streak` → "Failures in a row"; `foo_bar_cents` → "Foo bar". */
export function label(key: string): string {
  const known = LABELS[key];
  if (known) return known;
  const text = key
    .replace(/_(cents|seconds|ms)$/, '')
    .replace(/_at$/, '')
    .replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
