/** The conversations context's public face: what other contexts may use. */
export { ConversationsModule } from './conversations.module';
export type { AheadSource, AudioTransport, FrameSource, Keypad } from './pipeline/audio-transport';
export { OutputQueue } from './pipeline/output-queue';
export type {
  ConversationReporter,
  ConversationEnd,
  TransferFailure,
  TransferOutcome,
  TurnMetrics,
  WarmTransfer,
} from './pipeline/conversation-reporter';
export {
  Conversations,
  type ConversationHandle,
  type StartConversation,
  type ToolSecretSource,
} from './application/conversations.service';
export {
  CallHost,
  type AgentEnd,
  type CallLine,
  type CallRecording,
  type CallSink,
  type HostCall,
  type HostedCall,
} from './application/call-host';
export { SessionReporter } from './application/session-reporter';
export type { AgentTool, ConversationAgent } from './dialogue/dialogue';
export {
  CAPACITY_RETRY_AFTER_SECONDS,
  ConversationCapacity,
  type CapacityView,
  type ConversationKind,
  type ConversationSlot,
  type SlotRequest,
} from './capacity/conversation-capacity';
