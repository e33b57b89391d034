/**
 * The agent does not interrupt itself (docs/telephony.md, "Echo"): the service (node dist/main.js)
 * calls SIPp, which echoes everything it hears whole and at once (sipp -rtp_echo: its own voice comes
 * back at 0 dB, louder than any phone line returns it). The built-in agent speaks an opening of about
 * a minute into it, then listens until its maximum length ends the call. Its own voice must never be
 * taken for the caller's: the opening is played whole, and no user turn is recognised.
 */
import { type CallsService, stopCallsSuite } from '../../support/calls-harness';
import { eventually } from '../../support/eventually';
import { startSipp } from '../../support/sipp';
import type { TenantInfo } from '../../support/webhooks-harness';
import { startTelephonyService } from '../../support/telephony-service';

jest.setTimeout(240_000);

const OUR_NUMBER = '+14155550188';
let h: CallsService;
let tenant: TenantInfo;
let trunkPort: number;

beforeAll(async () => {
  ({ h, tenant, trunkPort } = await startTelephonyService('Echo Co', [OUR_NUMBER]));
});

afterAll(async () => stopCallsSuite(h));

const OPENING = [
  'Good afternoon, and thank you for taking my call.',
  'I am calling from Northwind Dental about your appointment next week.',
  'Our records show a cleaning on Tuesday at half past ten in the morning with doctor Patel.',
  'Before the visit, please bring your insurance card and a list of any medicines you take.',
  'If you have had any changes to your health since your last visit, we would like to hear about them.',
  'The clinic has moved to a new building on Harbor Street, just two blocks north of the old one.',
  'Parking is free in the garage behind the building, and the entrance is on the ground floor.',
  'If Tuesday no longer suits you, we can offer Thursday afternoon or Friday morning instead.',
  'We also send a reminder by text message the day before, unless you ask us not to.',
  'Our opening hours are eight to six on weekdays, and nine to one on Saturdays.',
  'Thank you for listening, and we look forward to seeing you next week.',
].join(' ');

it('speaks for about a minute into a line that echoes it whole: never cut off, no turn heard from its own voice', async () => {
  const callee = await startSipp({
    scenario: 'uas-echo-until-bye.xml',
    port: trunkPort,
    rtpEcho: true,
    timeoutSeconds: 150,
  });
  const placed = await h.call('POST', '/v1/calls', {
    token: tenant.api_key,
    body: {
      to: '+14155550177',
      from: OUR_NUMBER,
      agent_config: { prompt: 'Remind.', first_message: OPENING, max_duration_seconds: 75 },
      test_mode: false,
    },
  });
  expect(placed.status).toBe(201);
  const id = placed.body.session_id as string;
  let session: any;
  await eventually(async () => {
    session = (await h.call('GET', `/v1/sessions/${id}`, { token: tenant.api_key })).body;
    return session.ended_at != null;
  }, 150_000).catch(() => {
    throw new Error(`session never ended: ${JSON.stringify(session)}\n${h.diagnostics()}`);
  });
  const result = await callee.done;
  if (result.code !== 0)
    throw new Error(`SIPp failed (${result.code}):\n${result.errors}\n${result.output.slice(-2000)}`);
  expect(session).toMatchObject({ status: 'completed', end_reason: 'max_duration' });
  expect(session.transcript.filter((t: any) => t.role === 'user')).toEqual([]);
  expect(session.transcript.filter((t: any) => t.role === 'agent').map((t: any) => t.content)).toEqual([OPENING]);
  // The opening took most of the call: about a minute of the agent speaking.
  expect(session.duration_seconds).toBeGreaterThanOrEqual(70);
});
