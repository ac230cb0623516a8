// @aqm/forwarder README, "In code": startForwarder (AQM_API_KEY, AQM_BASE_URL, AQM_APPLICATION_ID from
// the environment), then one LLM span posted as OTLP/JSON, as any OpenTelemetry SDK would send it.
const { randomBytes } = require('node:crypto');
const { startForwarder } = require('@aqm/forwarder');

async function main() {
  const prompt = `What is the refund policy? (forwarder, CommonJS, ${process.pid})`;
  const forwarder = await startForwarder({ port: 0 });
  const now = BigInt(Date.now()) * 1_000_000n;
  const attribute = (key, stringValue) => ({ key, value: { stringValue } });
  const response = await fetch(`${forwarder.url}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [attribute('service.name', 'consumer-app')] },
          scopeSpans: [
            {
              scope: { name: 'consumer' },
              spans: [
                {
                  traceId: randomBytes(16).toString('hex'),
                  spanId: randomBytes(8).toString('hex'),
                  name: 'chat gpt-4o-mini',
                  kind: 3,
                  startTimeUnixNano: String(now - 1_000_000n),
                  endTimeUnixNano: String(now),
                  attributes: [
                    attribute('gen_ai.operation.name', 'chat'),
                    attribute('gen_ai.request.model', 'gpt-4o-mini'),
                    attribute(
                      'gen_ai.input.messages',
                      JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]),
                    ),
                    attribute(
                      'gen_ai.output.messages',
                      JSON.stringify([
                        { role: 'assistant', parts: [{ type: 'text', content: 'Within 30 days.' }] },
                      ]),
                    ),
                  ],
                },
              ],
            },
          ],
        },
      ],
    }),
  });
  if (response.status !== 200)
    throw new Error(`the forwarder answered ${response.status}: ${await response.text()}`);
  await forwarder.close(); // delivers what it holds, then resolves
  if (forwarder.stats().pipeline.exportedTraces !== 1) throw new Error(JSON.stringify(forwarder.stats()));
  console.log(JSON.stringify({ prompt }));
}
main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
