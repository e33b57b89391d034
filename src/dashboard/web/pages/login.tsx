import { useState } from 'preact/hooks';
import { api, ApiFailure } from '../api';
import { formText, StatusMessage } from '../ui';

/** Signed out: the tenant's e-mail address gets a one-time link (POST /dashboard/login). */
export function LoginPage({ refused = false }: { refused?: boolean }) {
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = new URLSearchParams(window.location.search).get('next') ?? undefined;
  const submit = async (event: Event) => {
    event.preventDefault();
    const email = formText(event.currentTarget, 'email');
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ message: string }>('POST', '/dashboard/login', { email, ...(next ? { next } : {}) });
      setSent(answer.message);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : 'The request failed; try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>{refused ? 'This sign-in link cannot be used' : 'Sign in to your dashboard'}</h1>
      {refused ? (
        <p role="alert" class="error">
          The link was already used, has expired (links work once, for 15 minutes), or is not a link we sent. Ask for a
          new one below.
        </p>
      ) : null}
      <StatusMessage text={sent} />
      {sent ? null : (
        <form onSubmit={(e) => void submit(e)}>
          <label for="email">E-mail address of your account</label>
          <input id="email" name="email" type="email" autoComplete="email" required />
          <button type="submit" disabled={busy}>
            E-mail me a sign-in link
          </button>
          {error ? (
            <p role="alert" class="error">
              {error}
            </p>
          ) : null}
        </form>
      )}
      <p class="muted small">
        Your operator can also give you a one-time link (
        <code>POST /admin/v1/tenants/&#123;id&#125;/dashboard_links</code>
        ).
      </p>
    </main>
  );
}

export function LinkRefused() {
  return <LoginPage refused />;
}
