// What the demo application monitors and guards. The metrics are picked from the service's own
// catalog (GET /metrics/eval) and the validators checked against GET /guardrails/validators, so
// a catalog that lacks one fails here with a clear message instead of later with a 400.

/** The quality metrics the demo switches on, in the order the report shows them. */
export const DEMO_METRICS = ['answer_relevance', 'pii_leakage', 'prompt_injection', 'toxicity', 'latency'];

/**
 * The demo's guardrails: block prompt injections, mask personal data both ways, mask toxic output. The
 * service applies them to the traces after the fact and records what they would do.
 */
export const DEMO_GUARDRAILS = {
  enable_guard_rails: true,
  input_validators: [
    { type: 'prompt-injection', on_fail: 'fail' },
    { type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER'] } },
  ],
  output_validators: [
    { type: 'pii', on_fail: 'mask', config: { entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER'] } },
    { type: 'toxicity', on_fail: 'mask' },
  ],
};

/**
 * Configures monitoring and guardrails of the demo application.
 *
 * @param {import('@aqm/client').AqmClient} client
 * @param {string} applicationId
 * @returns {Promise<{ metrics: import('@aqm/client').EvalMetric[] }>} The catalog entries switched on.
 * @example
 * const { metrics } = await configureDemoApplication(client, app.id);
 */
export async function configureDemoApplication(client, applicationId) {
  const catalog = await client.metrics.eval();
  const metrics = DEMO_METRICS.map((name) => {
    const entry = catalog.find((metric) => metric.name === name);
    if (entry === undefined) {
      throw new Error(`the service's metric catalog has no "${name}" (it has ${catalog.map((m) => m.name)})`);
    }
    return entry;
  });
  const validators = new Set((await client.guardrails.validators()).map((validator) => validator.type));
  for (const { type } of [...DEMO_GUARDRAILS.input_validators, ...DEMO_GUARDRAILS.output_validators]) {
    if (!validators.has(type)) throw new Error(`the service's validator catalog has no "${type}"`);
  }
  await client.monitoring.update(applicationId, {
    metrics: metrics.map((metric) => ({ type: metric.name })),
  });
  await client.guardrails.update(applicationId, DEMO_GUARDRAILS);
  return { metrics };
}
