import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, sendJson } from './http-io.js';

/** The model ids `GET /v1/models` lists. Any other id is accepted by the model routes too. */
export const FAKE_MODEL_IDS: readonly string[] = [
  'gpt-4o-mini',
  'gpt-4o',
  'gpt-4.1-mini',
  'gpt-5-mini',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'claude-sonnet-4-6',
  'claude-haiku-4-5',
  'claude-opus-4-6',
];

// A fixed date, so the listing is the same on every run.
const CREATED = Date.UTC(2025, 0, 1) / 1000;

/** Whether the request came from an Anthropic client (they always send `anthropic-version`). */
function isAnthropic(req: IncomingMessage): boolean {
  return req.headers['anthropic-version'] !== undefined;
}

function openAiModel(id: string) {
  return {
    id,
    object: 'model',
    created: CREATED,
    owned_by: id.startsWith('claude') ? 'anthropic' : 'openai',
  };
}

function anthropicModel(id: string) {
  return { type: 'model', id, display_name: id, created_at: new Date(CREATED * 1000).toISOString() };
}

/** `GET /v1/models`: OpenAI's list shape, or Anthropic's when the client is Anthropic's. */
export function handleListModels(req: IncomingMessage, res: ServerResponse): void {
  if (isAnthropic(req)) {
    const data = FAKE_MODEL_IDS.map(anthropicModel);
    sendJson(res, 200, {
      data,
      has_more: false,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
    });
    return;
  }
  sendJson(res, 200, { object: 'list', data: FAKE_MODEL_IDS.map(openAiModel) });
}

/** `GET /v1/models/{id}`: a listed model, else 404. */
export function handleGetModel(req: IncomingMessage, res: ServerResponse, id: string): void {
  if (!FAKE_MODEL_IDS.includes(id)) {
    throw new HttpError(
      404,
      `model ${JSON.stringify(id)} does not exist; known: ${FAKE_MODEL_IDS.join(', ')}`,
      'not_found_error',
    );
  }
  sendJson(res, 200, isAnthropic(req) ? anthropicModel(id) : openAiModel(id));
}
