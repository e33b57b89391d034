import type { ChatMessage, ChatModel, ChatTool, ChatToolCall } from '../engines/engines';
import {
  DEFAULT_FIRST_MESSAGE,
  type AgentTool,
  type ConversationAgent,
  type Dialogue,
  type DialogueAction,
  type DialogueTurn,
  type FailedTransfer,
} from './dialogue';
import { LINES } from './phrases';
import type { Keypad } from '../pipeline/audio-transport';
import { SentenceSplitter } from './sentences';
import type { ToolInvoker } from './tool-invoker';

/** Completions one user turn may chain through tool results before the agent gives up on it. */
export const MAX_TOOL_ROUNDS = 5;

const TRANSFER_CALL: ChatTool = {
  name: 'transfer_call',
  description: 'Transfer the call to a human. Say a short sentence to the caller before calling it.',
  parameters: { type: 'object', properties: {} },
};
const SEND_DTMF: ChatTool = {
  name: 'send_dtmf',
  description:
    'Press keys on the phone keypad, e.g. to choose an option of an automated menu. Use w for a half-second pause between keys.',
  parameters: {
    type: 'object',
    properties: {
      digits: { type: 'string', pattern: '^[0-9*#A-Dw]{1,32}$', description: 'Keys: 0-9, *, #, A-D; w waits 500 ms.' },
    },
    required: ['digits'],
  },
};
/** What `send_dtmf` accepts. */
const KEYS = /^[0-9*#A-Dw]{1,32}$/;
const END_CALL: ChatTool = {
  name: 'end_call',
  description: 'End the call, once the conversation is over. Say goodbye before calling it.',
  parameters: { type: 'object', properties: {} },
};

/**
 * The dialogue with a chat model (LLM_URL set): the agent's `prompt` is the system message, the
 * conversation so far the history, and its tools the agent's `tools` plus the built-in `transfer_call`
 * (when it has a transfer_number), `send_dtmf` (when the call has a keypad) and `end_call`. Keys the
 * caller pressed come as a user message; a transfer that failed as a system message. The answer streams into sentences, each spoken as
 * soon as it is whole. A tool call is made through the ToolInvoker, its result appended, and the
 * completion continued, at most MAX_TOOL_ROUNDS times per user turn.
 */
export class ModelDialogue implements Dialogue {
  private readonly messages: ChatMessage[];
  private readonly tools: ChatTool[];

  constructor(
    private readonly agent: ConversationAgent,
    private readonly model: ChatModel,
    private readonly invoker: ToolInvoker,
    private readonly keypad: Keypad | null = null,
  ) {
    this.messages = [{ role: 'system', content: agent.prompt }];
    this.tools = [
      ...(agent.tools ?? []).map(({ name, description, parameters }) => ({ name, description, parameters })),
      ...(agent.transfer_number ? [TRANSFER_CALL] : []),
      ...(keypad ? [SEND_DTMF] : []),
      END_CALL,
    ];
  }

  opening(): string {
    const line = this.agent.first_message?.trim() || DEFAULT_FIRST_MESSAGE;
    this.messages.push({ role: 'assistant', content: line });
    return line;
  }

  answer(words: string, turn: DialogueTurn): Promise<DialogueAction> {
    return this.respond(words, turn);
  }

  pressed(digits: string, turn: DialogueTurn): Promise<DialogueAction> {
    return this.respond(`[The caller pressed the keys: ${digits}]`, turn);
  }

  transferFailed(failure: FailedTransfer): string {
    const code = failure.sip_code === null ? '' : ` (SIP ${failure.sip_code})`;
    this.messages.push({
      role: 'system',
      content: `The transfer did not go through: ${failure.reason.replace('_', ' ')}${code}. The caller is still on the line with you; you told them so.`,
    });
    this.messages.push({ role: 'assistant', content: LINES.transferFailed });
    return LINES.transferFailed;
  }

  private async respond(content: string, turn: DialogueTurn): Promise<DialogueAction> {
    this.messages.push({ role: 'user', content });
    for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
      const { text, calls } = await this.complete(turn);
      this.messages.push({ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) });
      if (calls.length === 0 || turn.signal.aborted) return { type: 'continue' };
      for (const call of calls) {
        const action = await this.act(call, text, turn);
        if (action) return action;
      }
    }
    turn.say(LINES.toolRoundsExceeded);
    return { type: 'continue' };
  }

  interrupted(spoken: string): void {
    // The model should remember what the caller heard, not what it meant to say.
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const message = this.messages[i];
      if (message?.role === 'assistant' && !message.tool_calls) {
        this.messages[i] = { role: 'assistant', content: spoken ? `${spoken}…` : null };
        return;
      }
    }
  }

  /** One streamed completion: its sentences spoken as they come, its tool calls collected. */
  private async complete(turn: DialogueTurn): Promise<{ text: string; calls: ChatToolCall[] }> {
    const splitter = new SentenceSplitter();
    let text = '';
    const calls: ChatToolCall[] = [];
    for await (const delta of this.model.complete({
      messages: [...this.messages],
      tools: this.tools,
      signal: turn.signal,
    })) {
      if (turn.signal.aborted) break;
      if (delta.type === 'text') {
        text += delta.text;
        for (const sentence of splitter.push(delta.text)) turn.say(sentence);
      } else {
        calls.push(...delta.calls);
      }
    }
    const rest = splitter.flush();
    if (rest && !turn.signal.aborted) turn.say(rest);
    return { text, calls };
  }

  /** Runs one tool call; an action when it ends the turn (transfer_call, end_call). */
  private async act(call: ChatToolCall, said: string, turn: DialogueTurn): Promise<DialogueAction | null> {
    const result = (content: string): void => {
      this.messages.push({ role: 'tool', tool_call_id: call.id, content });
    };
    if (call.name === 'transfer_call' && this.agent.transfer_number) {
      result('{"status":"transferring"}');
      if (!said.trim()) turn.say(LINES.transferring);
      return { type: 'transfer', number: this.agent.transfer_number };
    }
    if (call.name === 'send_dtmf' && this.keypad) {
      const digits = (parseArguments(call.arguments).digits ?? '') as unknown;
      if (typeof digits !== 'string' || !KEYS.test(digits)) {
        result(JSON.stringify({ error: 'digits must be 1 to 32 of 0-9, *, #, A-D and w (a pause).' }));
        return null;
      }
      try {
        await this.keypad.press(digits);
        result(JSON.stringify({ status: 'sent', digits }));
      } catch (err) {
        result(JSON.stringify({ error: `The keys could not be sent: ${(err as Error).message}` }));
      }
      return null;
    }
    if (call.name === 'end_call') {
      result('{"status":"ending"}');
      if (!said.trim()) turn.say(LINES.goodbye);
      return { type: 'end', reason: 'end_call' };
    }
    const tool: AgentTool | undefined = this.agent.tools?.find((t) => t.name === call.name);
    if (!tool) {
      result(JSON.stringify({ error: `There is no tool named ${call.name}.` }));
      return null;
    }
    result(await this.invoker.invoke(tool, call, { signal: turn.signal, onSlow: () => turn.say(LINES.stillWorking) }));
    return null;
  }
}

/** A tool call's arguments (a JSON object as text); {} when they are not one. */
function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
