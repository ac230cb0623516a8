import type { StreamPacing } from './sse.js';
import type { FakeChatRequest } from './types.js';

/** What every model route needs from the server. */
export interface HandlerContext {
  /** Decides text answers. */
  respond: (request: FakeChatRequest) => string;
  /** Pace and stop signal of streamed answers. */
  pacing: StreamPacing;
  /** Adds a parsed request to `FakeLlm.requests`. */
  record(request: FakeChatRequest): void;
}
