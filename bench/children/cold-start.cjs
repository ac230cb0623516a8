// The CJS twin of cold-start.mjs: the same steps with require(). argv[2]: 'aqm' | 'langfuse'.
const { readFileSync } = require('node:fs');

const started = performance.now();
const cpuAtStart = mainThreadCpuMs();
const which = process.argv[2];
const sink = process.env.BENCH_SINK_URL;

const pkg = require(which === 'aqm' ? '@aqm/otel' : '@langfuse/otel');
const imported = performance.now() - started;
const importCpu = mainThreadCpuMs() - cpuAtStart;
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
const processor =
  which === 'aqm'
    ? new pkg.AqmSpanProcessor({
        apiKey: 'bench-key',
        baseUrl: sink,
        applicationId: '00000000-0000-4000-8000-000000000001',
      })
    : new pkg.LangfuseSpanProcessor({ publicKey: 'pk-bench', secretKey: 'sk-bench', baseUrl: sink });
const provider = new NodeTracerProvider({ spanProcessors: [processor] });
const span = provider.getTracer('bench').startSpan('chat gpt-4o-mini', {
  kind: 2, // CLIENT
  attributes: {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.model': 'gpt-4o-mini',
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Hello?' }] }]),
    'gen_ai.output.messages': JSON.stringify([
      { role: 'assistant', parts: [{ type: 'text', content: 'Hello!' }], finish_reason: 'stop' },
    ]),
    'gen_ai.usage.input_tokens': 3,
    'gen_ai.usage.output_tokens': 2,
  },
});
span.end();
const spanEnded = performance.now() - started;
provider
  .forceFlush()
  .then(() => {
    const delivered = performance.now() - started;
    process.stdout.write(`${JSON.stringify({ imported, importCpu, spanEnded, delivered })}\n`);
    return provider.shutdown();
  })
  .then(() => process.exit(0));

/** CPU time of the main thread in ms (Linux), robust to the process waiting for a core; NaN elsewhere. */
function mainThreadCpuMs() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}
