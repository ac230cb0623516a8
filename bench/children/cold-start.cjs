// The CJS twin of cold-start.mjs: the same steps with require(). argv[2]: 'aqm' | 'langfuse'.
const { endOneSpan, mainThreadCpuMs, print } = require('./cold-start-steps.cjs');

const started = performance.now();
const cpuAtStart = mainThreadCpuMs();
const which = process.argv[2];
const sink = process.env.BENCH_SINK_URL;

const pkg = require(which === 'aqm' ? '@aqm/otel' : '@langfuse/otel');
const imported = performance.now() - started;
const importCpu = mainThreadCpuMs() - cpuAtStart;
const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
const provider = endOneSpan(which, pkg, NodeTracerProvider, sink);
const spanEnded = performance.now() - started;
provider
  .forceFlush()
  .then(() => {
    const delivered = performance.now() - started;
    print({ imported, importCpu, spanEnded, delivered });
    return provider.shutdown();
  })
  .then(() => process.exit(0));
