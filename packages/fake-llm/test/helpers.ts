import type { FakeChatRequest } from '@aqm/fake-llm';

/** Tokens as the fake documents them: whitespace-separated words. */
export function words(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/** A request as `defaultRespond` sees it, for computing expected answers. */
export function chatRequest(
  messages: FakeChatRequest['messages'],
  overrides: Partial<FakeChatRequest> = {},
): FakeChatRequest {
  return { model: 'gpt-4o-mini', messages, tools: [], stream: false, api: 'openai-chat', ...overrides };
}

/** Sends a raw request (any body text) and returns status, headers and parsed JSON (or text). */
export async function rawRequest(
  url: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; json: unknown; text: string }> {
  const response = await fetch(url, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}
