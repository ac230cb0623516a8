// One cold start, ESM (`node bench/cold-start.mjs` runs it in a fresh process per measurement):
// import the package, then set up a NodeTracerProvider with its span processor, end one GenAI span
// and flush it to the parent's loopback sink. Prints the three moments, ms after this script began.
// argv[2]: 'aqm' | 'langfuse' | 'auto' (`import('@aqm/auto/register')` only: it resolves once
// startAuto() is ready). The sink's URL comes in BENCH_SINK_URL.
import { endOneSpan, mainThreadCpuMs, print } from './cold-start-steps.cjs';

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
const provider = endOneSpan(which, pkg, NodeTracerProvider, sink);
const spanEnded = performance.now() - started;
await provider.forceFlush();
const delivered = performance.now() - started;
print({ imported, importCpu, spanEnded, delivered });
await provider.shutdown();
process.exit(0);
