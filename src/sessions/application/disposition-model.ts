/** An OpenAI-compatible chat model: its `/v1` base URL, key and model name. */
export interface ChatModelEndpoint {
  url: string;
  apiKey: string | null;
  model: string;
}

/**
 * The model the disposition evaluator asks after a campaign call, and the post-call analysis after
 * a call its agent asked analysed (session-analysis.ts): the platform's dialogue model
 * (LLM_URL, LLM_API_KEY, LLM_MODEL). Sessions declares the port; the conversations context, which owns
 * those settings and itself sends the sessions' signals, provides it as a global provider, so that
 * sessions never imports conversations (the BillingHolds pattern).
 */
export abstract class DispositionModel {
  /** Null without LLM_URL: the built-in evaluator decides. */
  abstract readonly endpoint: ChatModelEndpoint | null;
}
