// The fuzz's groups of operations, one spec file each (test/int/platform/openapi-fuzz/<name>.int-spec.ts).
// Every operation of the document belongs to exactly one group: the first whose `matches` accepts its
// path; `other` takes whatever no group before it does, so a new route is fuzzed without an edit here.

import type { Operation } from './document';

export interface FuzzGroup {
  name: string;
  /** What the group's spec covers, in its test's title. */
  title: string;
  matches(path: string): boolean;
}

const under =
  (...prefixes: string[]) =>
  (path: string) =>
    prefixes.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`));

export const GROUPS: readonly FuzzGroup[] = [
  {
    name: 'calls',
    title: 'calls, sessions, recordings and phone numbers',
    matches: (path) =>
      under('/v1/calls', '/v1/sessions', '/recordings', '/v1/analytics/calls', '/v1/phone_numbers')(path) ||
      /^\/admin\/v1\/tenants\/\{[^}]+\}\/phone_numbers/.test(path),
  },
  { name: 'campaigns', title: 'campaigns and the do-not-call list', matches: under('/v1/campaigns', '/v1/dnc') },
  {
    name: 'webhooks',
    title: 'webhook endpoints, deliveries and events',
    matches: under('/v1/webhook_endpoints', '/v1/events', '/v1/analytics/deliveries'),
  },
  {
    name: 'tenants',
    title: 'tenants, the operator routes, credits and the tool secret',
    matches: under('/admin', '/v1/credits', '/v1/tool_secret'),
  },
  {
    name: 'other',
    title: 'voice clones, rooms and every other operation (health, readiness)',
    matches: () => true,
  },
];

export function groupOf(op: Operation): FuzzGroup {
  const group = GROUPS.find((g) => g.matches(op.path));
  if (!group) throw new Error(`no fuzz group for ${op.method} ${op.path}`);
  return group;
}

export function groupNamed(name: string): FuzzGroup {
  const group = GROUPS.find((g) => g.name === name);
  if (!group) throw new Error(`no fuzz group ${name} (groups: ${GROUPS.map((g) => g.name).join(', ')})`);
  return group;
}
