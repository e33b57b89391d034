/**
 * Given/when/then on the session decider: campaign calls. The contact's identity in every outcome and
 * recording payload, and `session.disposition_set` (docs/campaigns.md, "Dispositions"): once,
 * for a completed campaign call whose agent has dispositions and gave none during the call; a code
 * outside the list is refused. Every catalog event it emits is checked against the catalog schema.
 */
import { fold } from '../../kernel/decider';
import {
  answered,
  applied,
  at,
  emitted,
  ended,
  expectCatalogValid,
  failed,
  FROM,
  placed,
  SESSION_ID,
  signal,
  spec,
  step,
  TO,
  TRANSCRIPT_URL,
  turn,
} from '../../../test/support/session-decider-fixtures';
import type { PlaceCall, SessionEvent } from './session.decider';
import { sessionDecider } from './session.decider';
import { dispositionSkip, type SetDisposition } from './session.disposition';

const CODES = [
  { code: 'not_interested', description: 'The contact declined' },
  { code: 'appointment_booked', description: 'An appointment was booked' },
];
const ADA = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };
type Placement = Partial<Pick<PlaceCall, 'testMode' | 'campaignId' | 'contactId' | 'contact' | 'agentConfig'>>;
const CAMPAIGN: Placement = {
  campaignId: 'cmp_1',
  contactId: 'con_1',
  contact: ADA,
  agentConfig: { prompt: 'Book a cleaning.', dispositions: CODES },
};

/** The identity fields of the outcome and recording payloads of a call placed with `p`. */
const identity = (p: Placement) => ({
  campaign_id: p.campaignId ?? null,
  contact_id: p.contactId ?? null,
  email: p.contact?.email ?? null,
  first_name: p.contact?.first_name ?? null,
  last_name: p.contact?.last_name ?? null,
});

const USER_TURN = { role: 'user' as const, content: 'Thursday at 3 works, book it.', t: 1 };

/** Answered at 4 s, one turn, optionally the agent's own disposition, hung up at 14 s: session.ended. */
function completedCall(p: Placement, opts: { agentGivesOne?: boolean } = {}): SessionEvent[] {
  let history = step(placed(p), signal(1, { kind: 'answered' }, 4), answered(1, 4));
  history = step(history, signal(2, { kind: 'turn', ...USER_TURN }, 5), turn(2, USER_TURN));
  if (opts.agentGivesOne) {
    history = step(history, signal(3, { kind: 'agent_disposition', code: 'appointment_booked', note: null }, 6), [
      { type: 'session.agent_disposition_given', data: { code: 'appointment_booked', note: null, at: at(6) } },
      applied(3, 'agent_disposition'),
    ]);
  }
  return step(
    history,
    signal(4, { kind: 'hangup', status: 'completed', end_reason: 'completed', duration_seconds: 10 }, 14),
    [
      ended({
        ...identity(p),
        end_reason: 'completed',
        started_at: at(4),
        ended_at: at(14),
        duration_seconds: 10,
        transcript: [USER_TURN],
        transcript_url: TRANSCRIPT_URL,
      }),
      applied(4, 'hangup'),
    ],
  );
}

const setDisposition = (code: string, over: Partial<SetDisposition> = {}): SetDisposition => ({
  type: 'set_disposition',
  code,
  note: 'Booked for Thursday at 3.',
  evaluator: 'llm',
  model: 'gpt-4o-mini',
  at: at(20),
  ...over,
});

const dispositionSet: SessionEvent = {
  type: 'session.disposition_set',
  data: {
    session_id: SESSION_ID,
    campaign_id: 'cmp_1',
    contact_id: 'con_1',
    disposition_code: 'appointment_booked',
    disposition_note: 'Booked for Thursday at 3.',
    evaluated_at: at(20),
    evaluator: 'llm',
    model: 'gpt-4o-mini',
  },
};

describe("session decider: a campaign call carries the contact's identity", () => {
  it('in session.ended and session.recording_completed', () => {
    spec
      .given(completedCall(CAMPAIGN))
      .when(signal(5, { kind: 'recording_ready', recording_id: 'rec_1', duration_seconds: 10, channels: 'dual' }, 40))
      .then([
        {
          type: 'session.recording_completed',
          data: {
            session_id: SESSION_ID,
            ...identity(CAMPAIGN),
            from_number: FROM,
            to_number: TO,
            phone_number: TO,
            recording_id: 'rec_1',
            status: 'completed',
            channels: 'dual',
            started_at: at(4),
            ended_at: at(14),
            duration_seconds: 10,
            recording_url: 'https://api.example/recordings/rec_1.wav',
          },
        },
        applied(5, 'recording_ready'),
      ]);
  });

  it('in session.failed', () => {
    spec
      .given(placed(CAMPAIGN))
      .when(signal(1, { kind: 'hangup', status: 'no_answer', end_reason: 'no_answer' }, 30))
      .then([
        failed({ ...identity(CAMPAIGN), status: 'no_answer', end_reason: 'no_answer', ended_at: at(30) }),
        applied(1, 'hangup'),
      ]);
  });

  it('outside campaigns, and for a contact without a name or e-mail, the identity is null', () => {
    completedCall({});
    completedCall({ ...CAMPAIGN, contact: { email: null, first_name: null, last_name: null } });
  });
});

describe('session decider: session.disposition_set', () => {
  it('a completed campaign call whose agent has dispositions gets one, with the evaluator and model', () => {
    spec.given(completedCall(CAMPAIGN)).when(setDisposition('appointment_booked')).then(dispositionSet);
  });

  it('the built-in evaluator gives no model: model is null', () => {
    spec
      .given(completedCall(CAMPAIGN))
      .when(setDisposition('not_interested', { evaluator: 'simulator', model: null, note: null }))
      .then({
        type: 'session.disposition_set',
        data: {
          session_id: SESSION_ID,
          campaign_id: 'cmp_1',
          contact_id: 'con_1',
          disposition_code: 'not_interested',
          disposition_note: null,
          evaluated_at: at(20),
          evaluator: 'simulator',
          model: null,
        },
      });
  });

  it('at most once: a second one (the work run twice) decides nothing, whatever its code', () => {
    const history = [...completedCall(CAMPAIGN), dispositionSet];
    spec.given(history).when(setDisposition('appointment_booked')).thenNothingHappened();
    spec.given(history).when(setDisposition('not_interested')).thenNothingHappened();
    spec.given(history).when(setDisposition('no_such_code')).thenNothingHappened();
  });

  it('a code outside the agent list is refused', () => {
    spec
      .given(completedCall(CAMPAIGN))
      .when(setDisposition('callback_requested'))
      .thenThrows({ code: 'unprocessable', param: 'disposition_code' });
  });

  it('nothing when the agent gave a disposition during the call', () => {
    const history = completedCall(CAMPAIGN, { agentGivesOne: true });
    spec.given(history).when(setDisposition('appointment_booked')).thenNothingHappened();
    expect(dispositionSkip(live(history))).toBe('agent_gave_one');
  });

  it('nothing for a call that is not a campaign call, even with dispositions', () => {
    const history = completedCall({ agentConfig: CAMPAIGN.agentConfig });
    spec.given(history).when(setDisposition('appointment_booked')).thenNothingHappened();
    expect(dispositionSkip(live(history))).toBe('not_a_campaign_call');
  });

  it('nothing when the agent has no dispositions (none, or an empty list)', () => {
    for (const agentConfig of [{ prompt: 'Hi' }, { prompt: 'Hi', dispositions: [] }]) {
      const history = completedCall({ ...CAMPAIGN, agentConfig });
      spec.given(history).when(setDisposition('appointment_booked')).thenNothingHappened();
      expect(dispositionSkip(live(history))).toBe('no_dispositions');
    }
  });

  it('nothing after session.failed', () => {
    const history = [
      ...placed(CAMPAIGN),
      failed({ ...identity(CAMPAIGN), status: 'no_answer', end_reason: 'no_answer', ended_at: at(30) }),
    ];
    spec.given(history).when(setDisposition('appointment_booked')).thenNothingHappened();
    expect(dispositionSkip(live(history))).toBe('not_completed');
  });

  it('refused while the call is not over; not_found for a session that does not exist', () => {
    spec.given(placed(CAMPAIGN)).when(setDisposition('appointment_booked')).thenThrows({ code: 'conflict' });
    spec
      .given([...placed(CAMPAIGN), ...answered(1, 4)])
      .when(setDisposition('appointment_booked'))
      .thenThrows({ code: 'conflict' });
    spec.given([]).when(setDisposition('appointment_booked')).thenThrows('not_found');
  });

  it('the state records the agent codes from session.placed, and the disposition once set', () => {
    const history = completedCall(CAMPAIGN);
    expect(live(history)).toMatchObject({ dispositions: CODES, agentDisposition: false, dispositionSet: false });
    expect(dispositionSkip(live(history))).toBeNull();
    expect(live([...history, dispositionSet])).toMatchObject({ dispositionSet: true });
    expect(dispositionSkip(live([...history, dispositionSet]))).toBe('already_set');
  });
});

function live(history: readonly SessionEvent[]) {
  const state = fold(sessionDecider, history);
  if (state.status === 'none') throw new Error('no session');
  return state;
}

afterAll(() => expectCatalogValid(emitted));
