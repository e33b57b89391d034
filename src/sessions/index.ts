/** The sessions context's public face: what other contexts may use. */
export { SessionsModule } from './sessions.module';
export { OpenRoomSessionCommand, PlaceCallCommand, SessionActionCommand } from './application/session.commands';
export { recordingPath } from './infra/recording-files';
export { RecentCallsTo } from './application/recent-calls.query';
export type { AgentConfig, ContactIdentity } from './domain/session.decider';
export type { SessionEndedData, SessionFailedData } from './sessions.events';
export { AgentConfigDto, agentConfigOf } from './api/calls.dto';
