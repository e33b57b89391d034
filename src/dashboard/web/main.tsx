import { render } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, session } from './api';
import { CampaignPage, CampaignsPage } from './pages/campaigns';
import { CreditsPage, TopupPage } from './pages/credits';
import { DncPage } from './pages/dnc';
import { EndpointPage, EndpointsPage } from './pages/endpoints';
import { EventsPage } from './pages/events';
import { LinkRefused, LoginPage, SignInWithLink } from './pages/login';
import { Overview } from './pages/overview';
import { NumberPage, NumbersPage, RoomPage, RoomsPage, VoicePage, VoicesPage } from './pages/resources';
import { SessionPage, SessionsPage } from './pages/sessions';
import { viewerZone } from './format';
import { Action, focusOnNextTitle, NotFound } from './ui';
import './styles.css';

const SECTIONS: [string, string][] = [
  ['/dashboard', 'Overview'],
  ['/dashboard/sessions', 'Sessions'],
  ['/dashboard/campaigns', 'Campaigns'],
  ['/dashboard/webhook_endpoints', 'Webhook endpoints'],
  ['/dashboard/events', 'Events'],
  ['/dashboard/dnc', 'Do-not-call list'],
  ['/dashboard/credits', 'Credits'],
  ['/dashboard/voice_clones', 'Voice clones'],
  ['/dashboard/rooms', 'Rooms'],
  ['/dashboard/phone_numbers', 'Phone numbers'],
];

function Navigation() {
  const { path } = useLocation();
  const current = (href: string) =>
    href === '/dashboard' ? path === href : path === href || path.startsWith(`${href}/`);
  return (
    <nav aria-label="Main" class="main-nav">
      <ul>
        {SECTIONS.map(([href, label]) => (
          <li key={href}>
            <a href={href} aria-current={current(href) ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The path the server answered 404 for (it said so in the page); only that path is not found. */
const LOADED_PATH = window.location.pathname;

function Shell() {
  const { url, path } = useLocation();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  // After a navigation, focus moves to the new page's heading (screen readers announce it).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // The new page's heading takes the focus, now or once its data has arrived (PageTitle).
    const heading = main.current?.querySelector<HTMLElement>('h1');
    if (heading) heading.focus();
    else focusOnNextTitle.pending = true;
  }, [url]);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/dashboard">
          Voice Agent Platform
        </a>
        <span class="muted small" title="Times are shown in this zone">
          {viewerZone}
        </span>
        <Action
          label="Sign out"
          run={() => api('POST', '/dashboard/sign_out')}
          done={() => window.location.assign('/dashboard/login')}
        />
      </header>
      <Navigation />
      <main id="main" ref={main}>
        {session.notice === 'not_found' && path === LOADED_PATH ? (
          <NotFound />
        ) : (
          <Router>
            <Route path="/dashboard" component={Overview} />
            <Route path="/dashboard/sessions" component={SessionsPage} />
            <Route path="/dashboard/sessions/:id" component={SessionPage} />
            <Route path="/dashboard/campaigns" component={CampaignsPage} />
            <Route path="/dashboard/campaigns/:id" component={CampaignPage} />
            <Route path="/dashboard/webhook_endpoints" component={EndpointsPage} />
            <Route path="/dashboard/webhook_endpoints/:id" component={EndpointPage} />
            <Route path="/dashboard/events" component={EventsPage} />
            <Route path="/dashboard/dnc" component={DncPage} />
            <Route path="/dashboard/credits" component={CreditsPage} />
            <Route path="/dashboard/topups/:id" component={TopupPage} />
            <Route path="/dashboard/voice_clones" component={VoicesPage} />
            <Route path="/dashboard/voice_clones/:id" component={VoicePage} />
            <Route path="/dashboard/rooms" component={RoomsPage} />
            <Route path="/dashboard/rooms/:id" component={RoomPage} />
            <Route path="/dashboard/phone_numbers" component={NumbersPage} />
            <Route path="/dashboard/phone_numbers/:id" component={NumberPage} />
            <Route default component={NotFound} />
          </Router>
        )}
      </main>
    </>
  );
}

function App() {
  if (session.notice === 'link_refused') return <LinkRefused />;
  if (session.notice === 'sign_in') return <SignInWithLink />;
  if (!session.csrf) return <LoginPage />;
  return (
    <LocationProvider>
      <Shell />
    </LocationProvider>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
