import { aqm } from '@aqm/express';
import { context, SpanKind, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expressVersions, fetchRaw, listen, type RunningServer } from './helpers/server.js';
import { appTracer, finishedSpans, parentIdOf, resetSpans, spanNamed } from './helpers/tracing.js';

// Where the request span comes from: an HTTP instrumentation's server span, or the given provider.

let server: RunningServer | undefined;
beforeEach(() => resetSpans());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(expressVersions)(
  'aqm() with a server span from an HTTP instrumentation on $name',
  ({ express }) => {
    it('sets its attributes on that span instead of starting one, and LLM spans become its children', async () => {
      const app = express();
      app.use(aqm({ environment: 'prod', capture: { prompt: (req) => String(req.headers['x-prompt']) } }));
      app.get('/chat', (_req, res) => {
        appTracer.startSpan('chat model-x', { kind: SpanKind.CLIENT }).end();
        res.json({ reply: 'hello there' });
      });
      // What @opentelemetry/instrumentation-http does: an active SERVER span around the app, ended on finish.
      server = await listen((req, res) => {
        const span = appTracer.startSpan('GET (instrumentation)', { kind: SpanKind.SERVER });
        res.once('finish', () => span.end());
        context.with(trace.setSpan(context.active(), span), () => app(req, res));
      });

      await fetchRaw(`${server.url}/chat`, {
        headers: { 'x-session-id': 'sess-i', 'x-prompt': 'say hello' },
      });
      const outer = await spanNamed('GET (instrumentation)');
      const llm = await spanNamed('chat model-x');
      expect(outer.attributes).toMatchObject({
        'session.id': 'sess-i',
        'deployment.environment.name': 'prod',
        'gen_ai.operation.name': 'invoke_workflow',
      });
      expect(JSON.parse(String(outer.attributes['gen_ai.input.messages']))).toEqual([
        { role: 'user', parts: [{ type: 'text', content: 'say hello' }] },
      ]);
      expect(JSON.parse(String(outer.attributes['gen_ai.output.messages']))[0].parts[0].content).toBe(
        JSON.stringify({ reply: 'hello there' }),
      );
      expect(parentIdOf(llm)).toBe(outer.spanContext().spanId);
      expect(finishedSpans().filter((s) => s.instrumentationScope.name === '@aqm/express')).toHaveLength(0);
    });
  },
);

describe.each(expressVersions)('aqm({ tracerProvider }) on $name', ({ express }) => {
  it('starts its span with the given tracerProvider, and wraps nothing for a request sampled out', async () => {
    const ownExporter = new InMemorySpanExporter();
    let spanEnded: () => void = () => {};
    const ownSpanEnded = new Promise<void>((resolve) => {
      spanEnded = resolve;
    });
    const own = new BasicTracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor(ownExporter),
        { onStart: () => {}, onEnd: () => spanEnded(), forceFlush: async () => {}, shutdown: async () => {} },
      ],
    });
    const never = new BasicTracerProvider({ sampler: new AlwaysOffSampler() });
    const app = express();
    let wrapped: boolean | undefined;
    app.get('/own', aqm({ tracerProvider: own }), (_req, res) => {
      res.end('own');
    });
    app.get('/never', aqm({ tracerProvider: never, capture: { prompt: () => 'p' } }), (_req, res) => {
      wrapped = Object.hasOwn(res, 'end');
      res.json({ served: true });
    });
    server = await listen(app);

    await fetchRaw(`${server.url}/own`);
    // `finish` may fire after the client has the response: wait for the span, not for time.
    await ownSpanEnded;
    expect(ownExporter.getFinishedSpans().map((span) => span.name)).toEqual(['GET /own']);

    expect(JSON.parse((await fetchRaw(`${server.url}/never`)).body.toString())).toEqual({ served: true });
    expect(wrapped).toBe(false);
    expect(finishedSpans()).toEqual([]);
  });
});
