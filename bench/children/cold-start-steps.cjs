// The steps both cold-start children time (cold-start.mjs for ESM, cold-start.cjs for CJS), in one
// place so that the two differ only in how they load the package. CJS, so that either can load it;
// it loads nothing itself, and is loaded before the clock starts.
const { readFileSync } = require('node:fs');

/**
 * Sets up a NodeTracerProvider with the span processor of `pkg` (the loaded `@aqm/otel` when `which`
 * is 'aqm', else `@langfuse/otel`) sending to `sink`, and ends one GenAI chat span; returns the
 * provider, to flush.
 */
function endOneSpan(which, pkg, NodeTracerProvider, sink) {
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
      'gen_ai.input.messages': JSON.stringify([
        { role: 'user', parts: [{ type: 'text', content: 'Hello?' }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([
        { role: 'assistant', parts: [{ type: 'text', content: 'Hello!' }], finish_reason: 'stop' },
      ]),
      'gen_ai.usage.input_tokens': 3,
      'gen_ai.usage.output_tokens': 2,
    },
  });
  span.end();
  return provider;
}

/** CPU time of the main thread in ms (Linux), robust to the process waiting for a core; NaN elsewhere. */
function mainThreadCpuMs() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** Prints the figures as one JSON line. */
function print(figures) {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

module.exports = { endOneSpan, mainThreadCpuMs, print };
