/** The sessions context's public face: what other contexts may use. */
export { SessionsModule } from './sessions.module';
export { PlaceCallCommand, SessionActionCommand } from './application/session.commands';
export type { AgentConfig, ContactIdentity } from './domain/session.decider';
