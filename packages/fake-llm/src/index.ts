/**
 * `@aqm/fake-llm`: a deterministic OpenAI- and Anthropic-compatible model server on loopback, so examples,
 * demos and CI run the real `openai` / `@anthropic-ai/sdk` clients offline.
 * @packageDocumentation
 */
export { defaultRespond } from './default-respond.js';
export { DEFAULT_EMBEDDING_DIMENSIONS } from './embeddings.js';
export { FAKE_MODEL_IDS } from './models.js';
export { DEFAULT_SYSTEM_PROMPT, FAKE_CONTACT } from './respond-rules.js';
export { MAX_RECORDED_REQUESTS, startFakeLlm } from './start-fake-llm.js';
export type { FakeChatMessage, FakeChatRequest, FakeLlm, FakeLlmApi, FakeLlmOptions } from './types.js';
