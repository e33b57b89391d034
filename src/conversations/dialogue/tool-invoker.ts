import { randomUUID } from 'node:crypto';
import { Agent, type Dispatcher, request } from 'undici';
import { signDelivery } from '../../kernel/signing/signing';
import { createPinnedDispatcher, resolvePublicAddress, validateWebhookUrl } from '../../webhooks';
import type { ChatToolCall } from '../engines/engines';
import type { ToolReporter } from './dialogue';
import type { AgentTool } from './dialogue';

/** The event type a tool call is signed with (`X-Webhook-Event`, decision 112). */
export const TOOL_CALL_EVENT = 'tool.call';
export const DEFAULT_TOOL_TIMEOUT_MS = 5000;
/** The largest answer body that goes back to the model. */
export const MAX_TOOL_RESULT_BYTES = 64 * 1024;

/**
 * How long a call is waited for in all: 3 × its timeout_ms, but never more than 30 s past it
 * (decision 112). After timeout_ms the agent says it is still working; after this, the call fails.
 */
export const hardLimitMs = (timeoutMs: number): number => Math.min(3 * timeoutMs, timeoutMs + 30_000);

export interface ToolInvokerDeps {
  tenantId: string;
  sessionId: string;
  /** The tenant's tool signing secret (`POST /v1/tool_secret/rotate`), null when it has none. */
  secretOf: (tenantId: string) => Promise<string | null>;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: tool URLs follow the webhook URL rules. */
  allowPrivateUrls: boolean;
  reporter: ToolReporter;
}

type Outcome = { status: 'succeeded'; body: string } | { status: 'failed' | 'timeout'; error: string };

/**
 * Calls an agent's tool: a POST of `{session_id, tool_call_id, name, arguments}` to the tool's url,
 * signed exactly as webhooks are (both schemes, the tenant's tool secret, event id = tool_call_id,
 * event type `tool.call`), to a public address pinned at connection (WEBHOOK_ALLOW_PRIVATE_URLS
 * lifts it). It answers what goes back to the model: the 2xx JSON body (at most 64 KB), or
 * `{"error": …}` saying why there is none. Each call is reported (`function_invoked` with its status
 * and duration; `function_timeout` once timeout_ms passes, when `onSlow` makes the agent say it is
 * still working).
 */
export class ToolInvoker {
  private readonly plain: Agent | null;

  constructor(private readonly deps: ToolInvokerDeps) {
    this.plain = deps.allowPrivateUrls ? new Agent({ keepAliveTimeout: 4_000 }) : null;
  }

  async invoke(
    tool: AgentTool,
    call: ChatToolCall,
    opts: { signal: AbortSignal; onSlow: () => void },
  ): Promise<string> {
    const started = performance.now();
    const timeoutMs = tool.timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS;
    const slow = setTimeout(() => {
      void this.deps.reporter.functionTimeout({ function_id: call.id, name: tool.name, timeout_ms: timeoutMs });
      opts.onSlow();
    }, timeoutMs);
    let outcome: Outcome;
    try {
      outcome = await this.call(tool, call, timeoutMs, opts.signal);
    } finally {
      clearTimeout(slow);
    }
    const duration_ms = Math.round(performance.now() - started);
    await this.deps.reporter.functionInvoked({ name: tool.name, status: outcome.status, duration_ms });
    return outcome.status === 'succeeded' ? outcome.body : JSON.stringify({ error: outcome.error });
  }

  close(): void {
    void this.plain?.close().catch(() => undefined);
  }

  private async call(tool: AgentTool, call: ChatToolCall, timeoutMs: number, aborted: AbortSignal): Promise<Outcome> {
    let args: unknown;
    try {
      args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch {
      return { status: 'failed', error: 'The arguments are not valid JSON: call the tool again with a JSON object.' };
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { status: 'failed', error: 'The arguments must be a JSON object.' };
    }
    const secret = await this.deps.secretOf(this.deps.tenantId);
    if (!secret)
      return { status: 'failed', error: 'The tool cannot be called: the account has no tool signing secret.' };

    const limitMs = hardLimitMs(timeoutMs);
    const deadline = AbortSignal.any([aborted, AbortSignal.timeout(limitMs)]);
    let pinned: Dispatcher | null = null;
    try {
      const valid = validateWebhookUrl(tool.url, { allowPrivate: this.deps.allowPrivateUrls });
      if (!valid.ok) return { status: 'failed', error: `The tool's ${valid.message}` };
      const dispatcher = this.plain ?? (pinned = await this.pinnedDispatcher(valid.url, limitMs));
      const body = JSON.stringify({
        session_id: this.deps.sessionId,
        tool_call_id: call.id,
        name: tool.name,
        arguments: args,
      });
      const headers = signDelivery({
        secret,
        eventId: /^[\x21-\x7e]{1,200}$/.test(call.id) ? call.id : randomUUID(),
        eventType: TOOL_CALL_EVENT,
        timestampSeconds: Math.floor(Date.now() / 1000),
        body,
      });
      const response = await request(tool.url, {
        method: 'POST',
        headers: { ...headers, 'user-agent': 'VoiceAgentPlatform-Tools/1' },
        body,
        dispatcher,
        signal: deadline,
        headersTimeout: limitMs,
        bodyTimeout: limitMs,
      });
      const text = await readCapped(response.body, MAX_TOOL_RESULT_BYTES);
      if (response.statusCode < 200 || response.statusCode > 299) {
        return { status: 'failed', error: `The tool answered HTTP ${response.statusCode}.` };
      }
      if (text === null) return { status: 'failed', error: `The tool's answer is larger than 64 KB.` };
      try {
        JSON.parse(text);
      } catch {
        return { status: 'failed', error: `The tool's answer is not JSON.` };
      }
      return { status: 'succeeded', body: text };
    } catch (err) {
      if (aborted.aborted) return { status: 'failed', error: 'The call was cancelled.' };
      if (deadline.aborted) return { status: 'timeout', error: `The tool did not answer within ${limitMs} ms.` };
      const message = err instanceof Error ? err.message : String(err);
      return { status: 'failed', error: `The tool could not be reached: ${message}` };
    } finally {
      void pinned?.close().catch(() => undefined);
    }
  }

  /** The webhook address rules: a public address, the connection pinned to the checked address. */
  private async pinnedDispatcher(url: URL, timeoutMs: number): Promise<Dispatcher> {
    const resolved = await resolvePublicAddress(url.hostname, { allowPrivate: false });
    if (!resolved.ok) throw new Error(resolved.message);
    return createPinnedDispatcher(resolved.address, resolved.family, { timeoutMs, connections: 1 });
  }
}

/** The body as text, or null when it is larger than `limit` bytes (the rest is not read). */
async function readCapped(
  body: AsyncIterable<Buffer> & { destroy?: () => void },
  limit: number,
): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy?.();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
