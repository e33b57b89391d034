/** The sessions context's public face: what other contexts may use. */
import type { SessionEvent } from './domain/session.decider';

export { SessionsModule } from './sessions.module';
export { OpenRoomSessionCommand, PlaceCallCommand, SessionActionCommand } from './application/session.commands';
export { recordingPath, storeRecordingFile } from './infra/recording-files';
export { RecentCallsTo } from './application/recent-calls.query';
export { GetSession, type SessionResource } from './application/get-session.query';
export type { AgentConfig, AgentTool, ContactIdentity, SessionDirection } from './domain/session.decider';
export type { TestPersona } from './domain/session.decider';
export type { TurnMetrics } from './domain/media-signal';
export {
  sessionSignals,
  SessionSignalWriter,
  type CallHangup,
  type CallRecorded,
  type DuringCallSignal,
  type SessionSignal,
} from './application/session-signals';
export { AGENT_DEFAULTS, DEFAULT_PERSONA_PAUSE_MS, RESERVED_TOOL_NAMES, testPersonaOf } from './domain/session.decider';
export { INBOUND_TEST_SCRIPTS, type InboundTestScript } from './domain/test-pool.scenarios';
export type { SessionEndedData, SessionFailedData } from './sessions.events';
export { AgentConfigDto, AgentConfigField, agentConfigOf, checkAgentConfig } from './api/agent-config.dto';
export { AGENT_CONFIG, SESSION, SESSION_EXAMPLE } from './api/sessions.schemas';
export { sessionEdge, sessionStream } from './domain/session.decider';
export { BillingHolds } from './application/billing-holds';
export { PersonaCalls, type PersonaCall } from './application/persona-calls';
export { CallDialer, type DialResult } from './application/call-dialer';
export { CallerIds } from './application/caller-ids';
export { DispositionModel, type ChatModelEndpoint } from './application/disposition-model';
export { SessionPartials, type PartialTranscript } from './application/session-partials';
export { SessionLive, type LiveMessage } from './application/session-live';
export { streamLive } from './api/live-stream';

/** The data of `session.placed`, an internal event: the request as placed, with its direction. */
export type SessionPlacedData = Extract<SessionEvent, { type: 'session.placed' }>['data'];
