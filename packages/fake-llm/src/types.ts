/** Which wire API a model request came in through. */
export type FakeLlmApi = 'openai-chat' | 'openai-responses' | 'anthropic';

/** One message of a conversation, flattened to text. */
export interface FakeChatMessage {
  /** `system`, `user`, `assistant` or `tool` (a tool result, whichever API carried it). */
  role: string;
  /** The message's text; content parts are joined, non-text parts (images, files) are left out. */
  content: string;
  /** For `role: 'tool'`: the name of the tool whose result this is, when the request lets it be known. */
  name?: string;
}

/** A model request as the fake sees it, whichever API it arrived through. */
export interface FakeChatRequest {
  /** The `model` of the request, echoed in the answer. */
  model: string;
  /** The conversation in order; a system prompt (`system`, `instructions`) comes first with role `system`. */
  messages: FakeChatMessage[];
  /** The tools offered to the model. */
  tools: Array<{ name: string; description?: string }>;
  /** Whether the client asked for a streamed answer. */
  stream: boolean;
  /** The API the request came through. */
  api: FakeLlmApi;
}

/** Options of {@link startFakeLlm}. */
export interface FakeLlmOptions {
  /** Port to listen on; default 0 (a free port, read it from `url`). */
  port?: number;
  /** Interface to listen on; default `'127.0.0.1'`. */
  host?: string;
  /**
   * Decides the assistant's text for a conversation; default: {@link defaultRespond}.
   * Tool calls are decided before it is asked (see the README), so it only ever writes text.
   */
  respond?: (request: FakeChatRequest) => string;
  /** Artificial delay per streamed chunk (ms), default 0. */
  chunkDelayMs?: number;
}

/** A running fake model server. */
export interface FakeLlm {
  /** OpenAI `baseURL`, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Anthropic `baseURL`, e.g. `http://127.0.0.1:PORT`. */
  anthropicUrl: string;
  /** Every model request received, in order (bounded to the last 1000). */
  requests: FakeChatRequest[];
  /**
   * Stops listening and destroys open sockets (streams in progress too).
   * @example
   * ```ts
   * await llm.close();
   * ```
   */
  close(): Promise<void>;
}
