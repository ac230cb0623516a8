import type { ServerResponse } from 'node:http';
import { describeValue, isRecord, RequestError, requiredString } from './conversation.js';
import { sendJson } from './http-io.js';
import { countWords, plainWords } from './text.js';

/** Length of the vectors when the request sets no `dimensions` (as `text-embedding-3-small`). */
export const DEFAULT_EMBEDDING_DIMENSIONS = 1536;
const MAX_DIMENSIONS = 8192;

/**
 * `POST /v1/embeddings`: deterministic bag-of-words vectors (each word hashed to a signed dimension, then
 * L2-normalised), so texts sharing words are close. `encoding_format: 'base64'` (the `openai` client's
 * default) gets little-endian float32 bytes, as the real API.
 */
export function handleEmbeddings(body: unknown, res: ServerResponse): void {
  if (!isRecord(body))
    throw new RequestError(`request body must be a JSON object, got ${describeValue(body)}`);
  const model = requiredString(body, 'model');
  const inputs = embeddingInputs(body.input);
  const dimensions = body.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
  if (
    typeof dimensions !== 'number' ||
    !Number.isInteger(dimensions) ||
    dimensions < 1 ||
    dimensions > MAX_DIMENSIONS
  ) {
    throw new RequestError(
      `dimensions must be an integer from 1 to ${MAX_DIMENSIONS}, got ${describeValue(dimensions)}`,
    );
  }
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') {
    throw new RequestError(`encoding_format must be "float" or "base64", got ${describeValue(format)}`);
  }
  const data = inputs.map((text, index) => {
    const vector = embed(text, dimensions);
    const embedding =
      format === 'base64' ? Buffer.from(vector.buffer).toString('base64') : Array.from(vector);
    return { object: 'embedding', index, embedding };
  });
  const tokens = inputs.reduce((sum, text) => sum + countWords(text), 0);
  sendJson(res, 200, { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

/** `input` as texts: a string, strings, or token arrays (rendered as their numbers). */
function embeddingInputs(input: unknown): string[] {
  const fail = () =>
    new RequestError(
      `input must be a string, an array of strings or token arrays, got ${describeValue(input)}`,
    );
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) throw fail();
  if (input.every((item) => typeof item === 'number')) return [input.join(' ')];
  return input.map((item) => {
    if (typeof item === 'string') return item;
    if (Array.isArray(item) && item.every((token) => typeof token === 'number')) return item.join(' ');
    throw fail();
  });
}

/** A unit vector of the text's lower-cased words (the first dimension for a text without words). */
export function embed(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  const words = plainWords(text.toLowerCase());
  if (words.length === 0) {
    vector[0] = 1;
    return vector;
  }
  for (const word of words) {
    const hash = fnv1a(word);
    const index = hash % dimensions;
    vector[index] = (vector[index] ?? 0) + ((hash >>> 31) & 1 ? -1 : 1);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  for (let i = 0; i < dimensions; i++) vector[i] = (vector[i] ?? 0) / norm;
  return vector;
}

/** 32-bit FNV-1a of a string's UTF-16 code units: cheap, stable and well spread. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
