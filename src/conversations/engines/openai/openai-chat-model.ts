import type OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import {
  abortError,
  type ChatDelta,
  type ChatMessage,
  type ChatModel,
  type ChatTool,
  type ChatToolCall,
  EngineError,
  DEFAULT_LLM_MAX_TOKENS,
  type EngineEndpoint,
} from '../engines';
import { type EngineLimits, engineFailure, engineHost, openAiClient } from './openai-client';

/**
 * Each try must answer its headers within `timeoutMs` (the library's bound), all tries together
 * within `timeoutMs × (maxRetries + 1)`, then each further chunk within `idleMs`; a retry only
 * happens before anything has streamed.
 */
export const CHAT_LIMITS: EngineLimits & { idleMs: number } = { timeoutMs: 15_000, maxRetries: 1, idleMs: 15_000 };

/**
 * The dialogue model over an OpenAI-compatible streamed `/v1/chat/completions` with function tools
 * (OpenAI, Groq, a local vLLM, Ollama or llama.cpp server, …). Text is yielded as it streams; the
 * tool calls, whose arguments come in fragments, are assembled and yielded once at the end.
 */
export class OpenAiChatModel implements ChatModel {
  private readonly client: OpenAI;

  constructor(
    private readonly endpoint: EngineEndpoint,
    private readonly limits: EngineLimits & { idleMs: number } = CHAT_LIMITS,
    /** Each request's `max_tokens` (LLM_MAX_TOKENS): an answer is bounded however the model goes on. */
    private readonly maxTokens = DEFAULT_LLM_MAX_TOKENS,
  ) {
    this.client = openAiClient(endpoint, limits);
  }

  async *complete(request: {
    messages: ChatMessage[];
    tools: ChatTool[];
    signal?: AbortSignal;
  }): AsyncIterable<ChatDelta> {
    const { signal } = request;
    if (signal?.aborted) throw abortError();
    // Fires when the answer does not start within its tries (a Retry-After included), then when no
    // chunk came for idleMs; re-armed by every chunk.
    const idle = new AbortController();
    let idleExpired = false;
    let armedFor = this.limits.timeoutMs * (this.limits.maxRetries + 1);
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number): void => {
      clearTimeout(timer);
      armedFor = ms;
      timer = setTimeout(() => {
        idleExpired = true;
        idle.abort();
      }, ms);
      timer.unref();
    };
    arm(armedFor);
    const calls = new Map<number, ChatToolCall>();
    try {
      const stream = await this.client.chat.completions.create(
        {
          model: this.endpoint.model,
          messages: request.messages.map(toOpenAiMessage),
          ...(request.tools.length > 0 ? { tools: request.tools.map(toOpenAiTool) } : {}),
          max_tokens: this.maxTokens,
          stream: true,
        },
        { signal: signal ? AbortSignal.any([signal, idle.signal]) : idle.signal },
      );
      arm(this.limits.idleMs);
      for await (const chunk of stream) {
        // Chunks that arrived with the one that was being read when the caller aborted are not yielded.
        if (signal?.aborted || idleExpired) break;
        arm(this.limits.idleMs);
        const delta = chunk.choices?.[0]?.delta;
        if (!delta) continue;
        if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text', text: delta.content };
        for (const fragment of delta.tool_calls ?? []) addFragment(calls, fragment);
      }
    } catch (err) {
      throw engineFailure('model', this.endpoint, err, {
        callerSignal: signal,
        timedOut: idleExpired,
        timeoutMs: idleExpired ? armedFor : this.limits.timeoutMs,
      });
    } finally {
      clearTimeout(timer);
    }
    // The library ends the iteration quietly when its signal fires: which one fired decides the error.
    if (signal?.aborted) throw abortError();
    if (idleExpired) {
      throw engineFailure('model', this.endpoint, null, { timedOut: true, timeoutMs: armedFor });
    }
    if (calls.size > 0) {
      const assembled = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
      for (const call of assembled) {
        if (call.name === '') {
          throw new EngineError(
            'model',
            `The chat model at ${engineHost(this.endpoint)} called a tool without a name.`,
          );
        }
      }
      yield { type: 'tool_calls', calls: assembled };
    }
  }
}

type ToolCallFragment = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

/** Adds one streamed fragment to its call (by `index`): the id and name come once, the arguments in pieces. */
function addFragment(calls: Map<number, ChatToolCall>, fragment: ToolCallFragment): void {
  const index = typeof fragment.index === 'number' ? fragment.index : calls.size;
  const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
  if (fragment.id) call.id = fragment.id;
  if (fragment.function?.name && call.name === '') call.name = fragment.function.name;
  if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
  // Some servers (older Ollama, llama.cpp) send no id: one is made, so the tool result can name it.
  if (call.id === '') call.id = `call_${index}`;
  calls.set(index, call);
}

function toOpenAiMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.tool_calls && message.tool_calls.length > 0
          ? {
              tool_calls: message.tool_calls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    default:
      return { role: message.role, content: message.content };
  }
}

function toOpenAiTool(tool: ChatTool): ChatCompletionTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.parameters ?? { type: 'object', properties: {} },
    },
  };
}
