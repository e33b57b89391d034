import { useState } from 'preact/hooks';
import { api, ApiFailure, session } from '../api';
import { FormError, formText, StatusMessage, useFormSubmit } from '../ui';

/** Signed out: the tenant's e-mail address gets a one-time link (POST /dashboard/login). */
export function LoginPage({ refused = false }: { refused?: boolean }) {
  const [sent, setSent] = useState<string | null>(null);
  const next = new URLSearchParams(window.location.search).get('next') ?? undefined;
  const { busy, error, onSubmit } = useFormSubmit(async (form) => {
    const email = formText(form, 'email');
    const answer = await api<{ message: string }>('POST', '/dashboard/login', { email, ...(next ? { next } : {}) });
    setSent(answer.message);
  });
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
        <form onSubmit={onSubmit}>
          <label for="email">E-mail address of your account</label>
          <input id="email" name="email" type="email" autoComplete="email" required />
          <button type="submit" disabled={busy}>
            E-mail me a sign-in link
          </button>
          <FormError error={error} />
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

/**
 * A one-time link opened: it says which account it signs in to, and signs in only when its button
 * is pressed (POST /dashboard/sign_in with the link's token). Opening the link uses nothing.
 */
export function SignInWithLink() {
  const [refused, setRefused] = useState(false);
  const token = window.location.pathname.split('/').pop() ?? '';
  const { busy, error, onSubmit } = useFormSubmit(async () => {
    try {
      const answer = await api<{ next: string }>('POST', '/dashboard/sign_in', { token });
      // The link's address leaves the history: Back does not return to a used link.
      window.location.replace(answer.next);
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 410) setRefused(true);
      else throw err;
    }
  });
  if (refused) return <LinkRefused />;
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to your dashboard</h1>
      <p>
        This one-time link signs you in to the dashboard of <strong>{session.account}</strong>.
      </p>
      <form onSubmit={onSubmit}>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <FormError error={error} />
      </form>
      <p class="muted small">If you did not ask for this link, close this page: nothing happens until you sign in.</p>
    </main>
  );
}
