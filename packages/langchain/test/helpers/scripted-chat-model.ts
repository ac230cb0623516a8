import type { BaseChatModelParams } from '@langchain/core/language_models/chat_models';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/**
 * A chat model that answers with the given messages in turn (tool calls, usage and provider
 * metadata included), the way a provider's model would, without any network. `seen` keeps the
 * messages of every call.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly replies: AIMessage[];
  readonly model: string;
  readonly seen: BaseMessage[][] = [];
  #next = 0;

  constructor(fields: { replies: AIMessage[]; model?: string } & BaseChatModelParams) {
    super(fields);
    this.replies = fields.replies;
    this.model = fields.model ?? 'scripted-1';
  }

  _llmType(): string {
    return 'scripted';
  }

  override invocationParams(): Record<string, unknown> {
    return { model: this.model, temperature: 0.2, max_tokens: 256 };
  }

  override getLsParams(options: this['ParsedCallOptions']) {
    return { ...super.getLsParams(options), ls_provider: 'scripted', ls_model_name: this.model };
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const reply = this.replies[this.#next % this.replies.length] as AIMessage;
    this.#next += 1;
    return {
      generations: [{ message: reply, text: typeof reply.content === 'string' ? reply.content : '' }],
    };
  }

  // Tools are announced to a real provider; this model already knows its script.
  override bindTools(): this {
    return this;
  }
}
