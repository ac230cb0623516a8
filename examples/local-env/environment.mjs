import { randomBytes } from 'node:crypto';
import { AqmClient } from '@aqm/client';
import { startFakeLlm } from '@aqm/fake-llm';
import { startServer } from '@aqm/server';

/** Metrics the examples switch on when they create their own application. */
export const DEFAULT_MONITORING = {
  metrics: [{ type: 'answer_relevance' }, { type: 'pii_leakage' }, { type: 'toxicity' }, { type: 'latency' }],
};

/**
 * @typedef {object} LocalEnvironmentOptions
 * @property {string} name Prefix of the name of the application created for the run.
 * @property {import('@aqm/client').UpdateMonitoringBody} [monitoring] Monitoring of that application.
 * @property {import('@aqm/client').UpdateGuardrailsBody} [guardrails] Guardrails of that application.
 */

/**
 * @typedef {object} LocalEnvironment
 * @property {{ apiKey: string, baseUrl: string, applicationId: string }} aqm Where the traces go.
 * @property {{ baseURL: string, apiKey: string, model: string }} llm The OpenAI-compatible model upstream.
 * @property {AqmClient} client A client of the service, to read back what it recorded.
 * @property {boolean} localService Whether the service runs in this process (no `AQM_BASE_URL` given).
 * @property {boolean} fakeModel Whether the model is the local fake (no `OPENAI_BASE_URL` given).
 * @property {import('@aqm/fake-llm').FakeLlm | undefined} fakeLlm The fake model server, when it runs here.
 * @property {() => Record<string, string>} childEnv The variables a child process needs (AQM_*, OPENAI_*).
 * @property {() => Promise<void>} close Stops what was started here.
 * @property {Date} startedAt When the run started: what the service recorded since then is this run's.
 */

/**
 * Gets an AQM service, an application and a model upstream for an example.
 *
 * - `AQM_BASE_URL` set: that service, with `AQM_API_KEY`; otherwise the local service
 *   (`@aqm/server`) starts in this process, in memory, with a random key.
 * - `AQM_APPLICATION_ID` set: that application, its configuration left as it is; otherwise an
 *   application `<name>-<time>` is created with `monitoring` and `guardrails`.
 * - `OPENAI_BASE_URL` set: that model upstream, with `OPENAI_API_KEY` and `OPENAI_MODEL`; otherwise
 *   the deterministic fake model (`@aqm/fake-llm`) starts in this process.
 *
 * @param {LocalEnvironmentOptions} options
 * @returns {Promise<LocalEnvironment>}
 * @example
 * const env = await startLocalEnvironment({ name: 'example-chat' });
 * // ... send traces to env.aqm, call the model at env.llm ...
 * await env.close();
 */
export async function startLocalEnvironment(options) {
  const { name, monitoring = DEFAULT_MONITORING, guardrails } = options ?? {};
  if (typeof name !== 'string' || name.trim() === '') {
    throw new TypeError(`Expected \`name\` to be a non-empty string, got ${JSON.stringify(name)}`);
  }
  // Before any trace of this run: with AQM_APPLICATION_ID, the application may hold earlier ones.
  const startedAt = new Date();
  const env = process.env;
  /** @type {Array<() => Promise<void>>} */
  const closers = [];
  const close = async () => {
    for (const closeOne of closers.reverse()) await closeOne();
  };
  try {
    let server;
    let apiKey = env.AQM_API_KEY ?? '';
    let baseUrl = env.AQM_BASE_URL ?? '';
    if (baseUrl === '') {
      // A key for this run only: the local service accepts it and nothing else.
      apiKey = `aqm_example_${randomBytes(16).toString('hex')}`;
      server = await startServer({ port: 0, apiKeys: [{ key: apiKey, projectId: 'examples' }] });
      closers.push(() => server.close());
      baseUrl = server.url;
    } else if (apiKey === '') {
      throw new Error('AQM_BASE_URL is set but AQM_API_KEY is not: set both, or neither to run offline');
    }
    const client = new AqmClient({ apiKey, baseUrl });
    closers.push(() => client.close());

    let applicationId = env.AQM_APPLICATION_ID ?? '';
    if (applicationId === '') {
      const app = await client.applications.create({
        name: `${name}-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBytes(2).toString('hex')}`,
        description: `Created by the ${name} example`,
      });
      applicationId = app.id;
      await client.monitoring.update(applicationId, monitoring);
      if (guardrails) await client.guardrails.update(applicationId, guardrails);
    }

    let fakeLlm;
    let llm;
    if (env.OPENAI_BASE_URL) {
      llm = {
        baseURL: env.OPENAI_BASE_URL,
        apiKey: env.OPENAI_API_KEY ?? '',
        model: env.OPENAI_MODEL ?? 'gpt-4o-mini',
      };
    } else {
      fakeLlm = await startFakeLlm({ port: 0 });
      closers.push(() => fakeLlm.close());
      llm = { baseURL: fakeLlm.url, apiKey: 'fake-llm-needs-no-key', model: 'gpt-4o-mini' };
    }

    return {
      aqm: { apiKey, baseUrl, applicationId },
      llm,
      client,
      localService: server !== undefined,
      fakeModel: fakeLlm !== undefined,
      fakeLlm,
      childEnv: () => ({
        AQM_API_KEY: apiKey,
        AQM_BASE_URL: baseUrl,
        AQM_APPLICATION_ID: applicationId,
        OPENAI_BASE_URL: llm.baseURL,
        OPENAI_API_KEY: llm.apiKey,
        OPENAI_MODEL: llm.model,
      }),
      close,
      startedAt,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * One line saying where the example's traces go, without the API key.
 *
 * @param {LocalEnvironment} env
 * @returns {string}
 * @example
 * console.log(describeEnvironment(env));
 */
export function describeEnvironment(env) {
  const service = env.localService ? `local service at ${env.aqm.baseUrl}` : `service at ${env.aqm.baseUrl}`;
  const model = env.fakeModel ? `fake model at ${env.llm.baseURL}` : `model upstream at ${env.llm.baseURL}`;
  return `AQM: ${service}, application ${env.aqm.applicationId}; ${model}`;
}
