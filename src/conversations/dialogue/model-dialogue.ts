import type { ChatMessage, ChatModel, ChatTool, ChatToolCall } from '../engines/engines';
import {
  DEFAULT_FIRST_MESSAGE,
  type AgentTool,
  type ConversationAgent,
  type Dialogue,
  type DialogueAction,
  type DialogueTurn,
} from './dialogue';
import { LINES } from './phrases';
import { SentenceSplitter } from './sentences';
import type { ToolInvoker } from './tool-invoker';

/** Completions one user turn may chain through tool results before the agent gives up on it. */
export const MAX_TOOL_ROUNDS = 5;

const TRANSFER_CALL: ChatTool = {
  name: 'transfer_call',
  description: 'Transfer the call to a human. Say a short sentence to the caller before calling it.',
  parameters: { type: 'object', properties: {} },
};
const END_CALL: ChatTool = {
  name: 'end_call',
  description: 'End the call, once the conversation is over. Say goodbye before calling it.',
  parameters: { type: 'object', properties: {} },
};

/**
 * The dialogue with a chat model (LLM_URL set): the agent's `prompt` is the system message, the
 * conversation so far the history, and its tools the agent's `tools` plus the built-in `transfer_call`
 * (when it has a transfer_number) and `end_call`. The answer streams into sentences, each spoken as
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
  ) {
    this.messages = [{ role: 'system', content: agent.prompt }];
    this.tools = [
      ...(agent.tools ?? []).map(({ name, description, parameters }) => ({ name, description, parameters })),
      ...(agent.transfer_number ? [TRANSFER_CALL] : []),
      END_CALL,
    ];
  }

  opening(): string {
    const line = this.agent.first_message?.trim() || DEFAULT_FIRST_MESSAGE;
    this.messages.push({ role: 'assistant', content: line });
    return line;
  }

  async answer(words: string, turn: DialogueTurn): Promise<DialogueAction> {
    this.messages.push({ role: 'user', content: words });
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
