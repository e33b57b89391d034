/** The absolute one-time sign-in link for a token. */
export function signInUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, '')}/dashboard/sign_in/${token}`;
}

/**
 * The collections that have a page per resource, each with the API route that reads one: the page
 * exists for the signed-in tenant exactly when that route answers 200 for it.
 */
export const RESOURCE_PAGES: Readonly<Record<string, (id: string) => string>> = {
  sessions: (id) => `/v1/sessions/${encodeURIComponent(id)}`,
  campaigns: (id) => `/v1/campaigns/${encodeURIComponent(id)}`,
  webhook_endpoints: (id) => `/v1/webhook_endpoints/${encodeURIComponent(id)}`,
  voice_clones: (id) => `/v1/voice_clones/${encodeURIComponent(id)}`,
  rooms: (id) => `/v1/rooms/${encodeURIComponent(id)}`,
  phone_numbers: (id) => `/v1/phone_numbers/${encodeURIComponent(id)}`,
  topups: (id) => `/v1/credits/topups/${encodeURIComponent(id)}`,
};

/** The sections of the menu (`/dashboard/<section>`); anything else under /dashboard is not found. */
export const SECTIONS: ReadonlySet<string> = new Set([
  'sessions',
  'campaigns',
  'webhook_endpoints',
  'events',
  'dnc',
  'credits',
  'voice_clones',
  'rooms',
  'phone_numbers',
]);
