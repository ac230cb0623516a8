import Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_EMBEDDING_DIMENSIONS, FAKE_MODEL_IDS, type FakeLlm, startFakeLlm } from '@aqm/fake-llm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { words } from './helpers.js';

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] ?? 0) * (b[i] ?? 0);
    normA += (a[i] ?? 0) ** 2;
    normB += (b[i] ?? 0) ** 2;
  }
  return dot / Math.sqrt(normA * normB);
}

describe('embeddings and models through the real clients', () => {
  let llm: FakeLlm;
  let openai: OpenAI;
  beforeAll(async () => {
    llm = await startFakeLlm();
    openai = new OpenAI({ apiKey: 'test', baseURL: llm.url, maxRetries: 0 });
  });
  afterAll(() => llm.close());

  const texts = [
    'The cat sat on the mat',
    'the cat sat on the mat',
    'A cat sat on a mat today',
    'Quarterly revenue grew strongly',
  ];

  it('embeds deterministically (base64, the client default): unit vectors, similar texts closer', async () => {
    const result = await openai.embeddings.create({ model: 'text-embedding-3-small', input: texts });
    expect(result.model).toBe('text-embedding-3-small');
    expect(result.data.map((d) => d.index)).toEqual([0, 1, 2, 3]);
    const vectors = result.data.map((d) => d.embedding);
    for (const vector of vectors) {
      expect(vector).toHaveLength(DEFAULT_EMBEDDING_DIMENSIONS);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
    const [a, b, c, d] = vectors as [number[], number[], number[], number[]];
    expect(cosine(a, b)).toBeCloseTo(1, 6); // only the case differs
    expect(cosine(a, c)).toBeGreaterThan(cosine(a, d));
    expect(result.usage.prompt_tokens).toBe(texts.reduce((sum, t) => sum + words(t), 0));

    const again = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: texts[0] as string,
    });
    expect(again.data[0]?.embedding).toEqual(a);
  });

  it('honours dimensions and encoding_format "float"', async () => {
    const result = await openai.embeddings.create({
      model: 'text-embedding-3-large',
      input: 'hello world',
      dimensions: 64,
      encoding_format: 'float',
    });
    expect(result.data[0]?.embedding).toHaveLength(64);
  });

  it('rejects a bad dimensions value with a 400 naming it', async () => {
    await expect(
      openai.embeddings.create({ model: 'text-embedding-3-small', input: 'x', dimensions: 0 }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('dimensions') });
  });

  it('lists models in OpenAI shape, and in Anthropic shape for the Anthropic client', async () => {
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toEqual([...FAKE_MODEL_IDS]);
    const one = await openai.models.retrieve('gpt-4o-mini');
    expect(one).toMatchObject({ id: 'gpt-4o-mini', object: 'model' });
    await expect(openai.models.retrieve('no-such-model')).rejects.toMatchObject({ status: 404 });

    const anthropic = new Anthropic({ apiKey: 'test', baseURL: llm.anthropicUrl, maxRetries: 0 });
    const anthropicIds: string[] = [];
    for await (const model of anthropic.models.list()) anthropicIds.push(model.id);
    expect(anthropicIds).toEqual([...FAKE_MODEL_IDS]);
  });
});
