import type { ServerResponse } from 'node:http';
import { RespondError } from './answer.js';
import { RequestError } from './conversation.js';
import { HttpError, sendJson } from './http-io.js';

/** Which API's error shape an answer takes. */
export type ErrorShape = 'openai' | 'anthropic';

/**
 * Answers an error in the calling API's shape: OpenAI `{ error: { message, type, param, code } }`,
 * Anthropic `{ type: 'error', error: { type, message } }`. Bad requests are 400, a failing `respond` 500.
 */
export function sendError(res: ServerResponse, error: unknown, shape: ErrorShape): void {
  const { status, kind, message } = classify(error);
  if (res.headersSent) {
    // Mid-stream there is no status to send any more: cut the stream so the client sees it fail.
    res.destroy();
    return;
  }
  if (shape === 'anthropic') {
    sendJson(res, status, { type: 'error', error: { type: kind, message } });
    return;
  }
  const openAiType = kind === 'api_error' ? 'server_error' : kind;
  sendJson(res, status, { error: { message, type: openAiType, param: null, code: null } });
}

function classify(error: unknown): { status: number; kind: string; message: string } {
  if (error instanceof HttpError) return { status: error.status, kind: error.kind, message: error.message };
  if (error instanceof RequestError)
    return { status: 400, kind: 'invalid_request_error', message: error.message };
  if (error instanceof RespondError) return { status: 500, kind: 'api_error', message: error.message };
  const detail = error instanceof Error ? error.message : String(error);
  return { status: 500, kind: 'api_error', message: `the fake LLM failed: ${detail}` };
}
