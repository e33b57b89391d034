/** Times in the viewer's own zone and language, as the browser reports them. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function formatTime(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}

export const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function formatCents(cents: unknown, currency = 'usd'): string {
  if (typeof cents !== 'number') return '—';
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return formatTime(value);
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? '';
}

/** `failure_streak` → "Failure streak". */
export function humanize(key: string): string {
  const text = key.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
