import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiFailure } from './api';
import { formatValue, humanize } from './format';

export interface Loaded<T> {
  data: T | null;
  error: ApiFailure | Error | null;
  reload: () => void;
}

/**
 * Loads once per change of `key`, then again `pollMs` after each answer (never two at once), and not
 * while the tab is hidden.
 */
export function useLoad<T>(load: () => Promise<T>, key: string, pollMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: Error | null; key: string }>({
    data: null,
    error: null,
    key,
  });
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        const data = await loadRef.current();
        if (live) setState({ data, error: null, key });
      } catch (error) {
        if (live) setState((s) => ({ data: s.key === key ? s.data : null, error: error as Error, key }));
      }
      if (live && pollMs) timer = setTimeout(next, pollMs);
    };
    const next = () => {
      if (!live || !pollMs) return;
      if (document.hidden) timer = setTimeout(next, pollMs);
      else void run();
    };
    void run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, nonce, pollMs]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { data: state.key === key ? state.data : null, error: state.key === key ? state.error : null, reload };
}

/** Set on every in-app navigation: the next page's heading takes the focus once it is shown. */
export const focusOnNextTitle = { pending: false };

export function PageTitle({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${ref.current?.textContent ?? 'Dashboard'} · Voice Agent Platform`;
  });
  // After a navigation the heading is announced, also when the page shows it only once loaded.
  useEffect(() => {
    if (!focusOnNextTitle.pending) return;
    focusOnNextTitle.pending = false;
    ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} id="page-title">
      {children}
    </h1>
  );
}

export function Loading() {
  return (
    <p role="status" class="muted">
      Loading…
    </p>
  );
}

export function ErrorNotice({ error }: { error: Error }) {
  return (
    <p role="alert" class="error">
      {error instanceof ApiFailure ? `${error.message} (${error.status})` : error.message}
    </p>
  );
}

/** What a page shows for an unknown id or another tenant's: nothing of the resource. */
export function NotFound() {
  return (
    <section aria-labelledby="page-title">
      <PageTitle>Not found</PageTitle>
      <p>There is nothing here: the address is wrong, or it belongs to another account.</p>
      <p>
        <a href="/dashboard">Back to the overview</a>
      </p>
    </section>
  );
}

/** A resource's loading, refusal and 404 states around its view. */
export function Resource<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (loaded.error instanceof ApiFailure && loaded.error.status === 404) return <NotFound />;
  if (loaded.data === null) return loaded.error ? <ErrorNotice error={loaded.error} /> : <Loading />;
  return (
    <>
      {loaded.error ? <ErrorNotice error={loaded.error} /> : null}
      {children(loaded.data)}
    </>
  );
}

export function Status({ value }: { value: unknown }) {
  const text = typeof value === 'string' ? value : formatValue(value);
  return <span class={`status status-${text.replace(/[^a-z_]/g, '')}`}>{text.replace(/_/g, ' ')}</span>;
}

/** Every scalar field of a resource as a definition list (objects and arrays are shown as JSON). */
export function Fields<T extends object>({ data, omit = [] }: { data: T; omit?: (keyof T & string)[] }) {
  const entries: [string, unknown][] = Object.entries(data);
  const omitted: readonly string[] = omit;
  return (
    <dl class="fields">
      {entries
        .filter(([key]) => !omitted.includes(key))
        .map(([key, value]) => (
          <div key={key}>
            <dt>{humanize(key)}</dt>
            <dd>
              {key === 'status' ? (
                <Status value={value} />
              ) : value !== null && typeof value === 'object' ? (
                <code class="json">{JSON.stringify(value)}</code>
              ) : (
                formatValue(value)
              )}
            </dd>
          </div>
        ))}
    </dl>
  );
}

export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
}

export function Table<T>({
  caption,
  rows,
  columns,
  empty,
  rowKey,
}: {
  caption: string;
  rows: T[];
  columns: Column<T>[];
  empty?: string;
  /** A row's identity, so that a row's button keeps its state when the list is refreshed. */
  rowKey: (row: T) => string;
}) {
  if (rows.length === 0) return <p class="muted">{empty ?? `No ${caption.toLowerCase()} yet.`}</p>;
  return (
    <div class="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c.label}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.label} data-label={c.label}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Next and first page of a list, kept in the address so that a page can be linked to. */
export function Pager({ hasMore, lastId }: { hasMore: boolean; lastId: string | undefined }) {
  const { url, query, route } = useLocation();
  const path = url.split('?')[0] ?? url;
  const go = (after: string | null) => {
    const params = new URLSearchParams(query);
    if (after) params.set('starting_after', after);
    else params.delete('starting_after');
    const text = params.toString();
    route(text ? `${path}?${text}` : path);
  };
  return (
    <nav class="pager" aria-label="Pages">
      {query.starting_after ? (
        <button type="button" onClick={() => go(null)}>
          First page
        </button>
      ) : null}
      {hasMore && lastId ? (
        <button type="button" onClick={() => go(lastId)}>
          Next page
        </button>
      ) : null}
    </nav>
  );
}

/** A button that runs an API action once at a time and says how it went. */
export function Action({
  label,
  name,
  run,
  done,
  confirm,
  disabled = false,
}: {
  label: string;
  /** Shown but not usable (the resource is not in a state that allows it): the focus stays in place. */
  disabled?: boolean;
  /** The accessible name when the label alone is ambiguous (one "Retry" per row). */
  name?: string;
  run: () => Promise<unknown>;
  done?: (result: unknown) => void;
  confirm?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const click = async () => {
    if (confirm && !window.confirm(confirm)) return;
    setBusy(true);
    setError(null);
    try {
      const result = await run();
      done?.(result);
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="action">
      <button type="button" onClick={() => void click()} disabled={busy || disabled} aria-busy={busy} aria-label={name}>
        {label}
      </button>
      {error ? <ErrorNotice error={error} /> : null}
    </span>
  );
}

/** A filter form whose fields go into the address (and so into the API query). */
export function Filters({ fields }: { fields: { name: string; label: string; options?: readonly string[] }[] }) {
  const { url, query, route } = useLocation();
  const path = url.split('?')[0] ?? url;
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const params = new URLSearchParams();
    for (const f of fields) {
      const value = form.get(f.name);
      if (typeof value === 'string' && value !== '') params.set(f.name, value);
    }
    const text = params.toString();
    route(text ? `${path}?${text}` : path);
  };
  return (
    <form class="filters" onSubmit={submit} role="search" aria-label="Filters" key={url}>
      {fields.map((f) => (
        <div class="field" key={f.name}>
          <label for={`filter-${f.name}`}>{f.label}</label>
          {f.options ? (
            <select id={`filter-${f.name}`} name={f.name} defaultValue={query[f.name] ?? ''}>
              <option value="">Any</option>
              {f.options.map((o) => (
                <option value={o} key={o}>
                  {o.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          ) : (
            <input id={`filter-${f.name}`} name={f.name} defaultValue={query[f.name] ?? ''} />
          )}
        </div>
      ))}
      <button type="submit">Filter</button>
    </form>
  );
}

/** A text field's value from a submitted form ('' when absent). */
export function formText(form: EventTarget | null, name: string): string {
  const value = new FormData(form as HTMLFormElement).get(name);
  return typeof value === 'string' ? value : '';
}

/** A polite live region that is always in the page, so that what is put in it is announced. */
export function StatusMessage({ text }: { text: string | null }) {
  return (
    <p role="status" class={text ? 'notice' : 'visually-hidden'}>
      {text ?? ''}
    </p>
  );
}

/** What a form refuses before asking the API (shown as it is, like the API's own refusals). */
export class FormRefusal extends Error {}

/**
 * A form that runs one request at a time: `busy` while it runs, and the reason when it fails (the
 * API's message, the form's own refusal, or a plain "try again" for a network failure).
 */
export function useFormSubmit(run: (form: HTMLFormElement) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await run(event.currentTarget as HTMLFormElement);
    } catch (err) {
      setError(
        err instanceof ApiFailure || err instanceof FormRefusal ? err.message : 'The request failed; try again.',
      );
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, onSubmit: (event: Event) => void onSubmit(event) };
}

export function FormError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" class="error">
      {error}
    </p>
  ) : null;
}
