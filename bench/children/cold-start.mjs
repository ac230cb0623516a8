// One cold start, ESM (`node bench/cold-start.mjs` runs it in a fresh process per measurement):
// import the package, then set up a NodeTracerProvider with its span processor, end one GenAI span
// and flush it to the parent's loopback sink. Prints the three moments, ms after this script began.
// argv[2]: 'aqm' | 'langfuse' | 'auto' (`import('@aqm/auto/register')` only: it resolves once
// startAuto() is ready). The sink's URL comes in BENCH_SINK_URL.
import { readFileSync } from 'node:fs';

const started = performance.now();
const cpuAtStart = mainThreadCpuMs();
const which = process.argv[2];
const sink = process.env.BENCH_SINK_URL;

if (which === 'auto') {
  await import('@aqm/auto/register');
  print({ imported: performance.now() - started, importCpu: mainThreadCpuMs() - cpuAtStart });
  process.exit(0);
}

const pkg = await import(which === 'aqm' ? '@aqm/otel' : '@langfuse/otel');
const imported = performance.now() - started;
const importCpu = mainThreadCpuMs() - cpuAtStart;
const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
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
await provider.forceFlush();
const delivered = performance.now() - started;
print({ imported, importCpu, spanEnded, delivered });
await provider.shutdown();
process.exit(0);

/** CPU time of the main thread in ms (Linux), robust to the process waiting for a core; NaN elsewhere. */
function mainThreadCpuMs() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

function print(figures) {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
