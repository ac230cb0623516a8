import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AqmSpanProcessor } from '@aqm/otel';
import { AnthropicInstrumentation } from '@traceloop/instrumentation-anthropic';
import { describe, expect, it, vi } from 'vitest';
import { anthropicBridge } from '../src/instrumentation/anthropic-bridge.js';
import { HOOKED_MODULES } from '../src/instrumentation/esm-loader-hook.js';
import { attachLangChainHandler } from '../src/instrumentation/langchain-handler.js';
import { GlobalTracerProvider } from '../src/tracing/global-tracer-provider.js';
import { RoutingLogRecordProcessor } from '../src/tracing/routing-log-processor.js';
import { AUTO_VERSION } from '../src/version.js';

describe('AUTO_VERSION', () => {
  it('is the version in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(AUTO_VERSION).toBe(pkg.version);
  });
});

describe('anthropicBridge', () => {
  it("declares Traceloop's module definition, whose patch wraps the SDK's create methods", () => {
    const traceloop = new AnthropicInstrumentation({ enabled: false });
    const bridge = anthropicBridge(traceloop);
    const [theirs] = traceloop.getModuleDefinitions();
    const [ours] = bridge.getModuleDefinitions();
    expect(ours?.name).toBe('@anthropic-ai/sdk');
    expect(ours?.supportedVersions).toEqual(theirs?.supportedVersions);
    expect(HOOKED_MODULES).toContain(ours?.name);

    // A module shaped like the SDK's exports: Traceloop's patch (through ours) wraps, unpatch restores.
    const create = () => 'called';
    const sdk = {
      Anthropic: {
        Completions: class {},
        Messages: class {},
        Beta: { Messages: class {} },
      },
    };
    for (const target of [sdk.Anthropic.Completions, sdk.Anthropic.Messages, sdk.Anthropic.Beta.Messages]) {
      Object.assign(target.prototype, { create });
    }
    const messages = sdk.Anthropic.Messages.prototype as { create: unknown };
    ours?.patch?.(sdk, '0.137.0');
    expect(messages.create).not.toBe(create);
    expect('__wrapped' in (messages.create as object)).toBe(true);
    ours?.unpatch?.(sdk, '0.137.0');
    expect(messages.create).toBe(create);
    bridge.disable();
  });
});

describe('anthropicBridge on SDK 1.x and on exports it cannot patch', () => {
  const create = () => 'called';
  /** Exports shaped like @anthropic-ai/sdk 1.x: no legacy `Anthropic.Completions`. */
  function sdkWithoutCompletions() {
    const sdk = { Anthropic: { Messages: class {}, Beta: { Messages: class {} } } };
    for (const target of [sdk.Anthropic.Messages, sdk.Anthropic.Beta.Messages]) {
      Object.assign(target.prototype, { create });
    }
    return sdk;
  }

  it('patches SDK 1.x, which has no Completions, and unpatches it, without a warning', () => {
    const stderr = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const bridge = anthropicBridge(new AnthropicInstrumentation({ enabled: false }));
      const [definition] = bridge.getModuleDefinitions();
      const sdk = sdkWithoutCompletions();
      // The loader gets the SDK's own exports back, not the view the patch saw.
      expect(definition?.patch?.(sdk, '1.14.0')).toBe(sdk);
      for (const target of [sdk.Anthropic.Messages, sdk.Anthropic.Beta.Messages]) {
        const wrapped = (target.prototype as { create?: unknown }).create;
        expect(wrapped).not.toBe(create);
        expect('__wrapped' in (wrapped as object)).toBe(true);
      }
      expect('Completions' in sdk.Anthropic).toBe(false);
      definition?.unpatch?.(sdk, '1.14.0');
      expect(sdk.Anthropic.Messages.prototype).toHaveProperty('create', create);
      expect(sdk.Anthropic.Beta.Messages.prototype).toHaveProperty('create', create);
      expect(stderr).not.toHaveBeenCalled();
      bridge.disable();
    } finally {
      stderr.mockRestore();
    }
  });

  it('undoes a patch that fails part way and says so once, never throwing', () => {
    const stderr = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const bridge = anthropicBridge(new AnthropicInstrumentation({ enabled: false }));
      const [definition] = bridge.getModuleDefinitions();
      // Exports without the `Beta` Traceloop wraps last: it throws after wrapping `Messages`.
      const sdk = { Anthropic: { Messages: class {} } };
      Object.assign(sdk.Anthropic.Messages.prototype, { create });
      expect(definition?.patch?.(sdk, '1.99.0')).toBe(sdk);
      expect(definition?.patch?.(sdk, '1.99.0')).toBe(sdk);
      expect(sdk.Anthropic.Messages.prototype).toHaveProperty('create', create);
      expect(() => definition?.unpatch?.(sdk, '1.99.0')).not.toThrow();
      expect(stderr).toHaveBeenCalledTimes(1);
      expect(stderr.mock.calls[0]?.[0]).toMatch(
        /^@aqm\/auto: could not instrument @anthropic-ai\/sdk 1\.99\.0 \(.+\), so its calls send no trace; the app runs as usual\.$/,
      );
      bridge.disable();
    } finally {
      stderr.mockRestore();
    }
  });
});

describe('RoutingLogRecordProcessor', () => {
  it('forwards to the current target, to a new one after a swap, and to none after shutdown', async () => {
    const router = new RoutingLogRecordProcessor();
    const record = { eventName: 'gen_ai.user.message', attributes: {} };
    router.onEmit(record); // no target yet: dropped without an error
    const first = { onEmit: vi.fn() };
    const second = { onEmit: vi.fn() };
    router.target = first as never;
    router.onEmit(record);
    router.target = second as never;
    router.onEmit(record);
    await router.shutdown();
    router.onEmit(record);
    expect(first.onEmit).toHaveBeenCalledTimes(1);
    expect(second.onEmit).toHaveBeenCalledTimes(1);
    await expect(router.forceFlush()).resolves.toBeUndefined();
  });
});

describe('GlobalTracerProvider', () => {
  it('startActiveSpan passes every form through to the current tracer', () => {
    const tracer = new GlobalTracerProvider().getTracer('unit');
    // With no provider registered the API's no-op tracer answers; the callback still runs.
    expect(tracer.startActiveSpan('one', (span) => span.isRecording())).toBe(false);
    expect(tracer.startActiveSpan('two', {}, () => 'ran')).toBe('ran');
  });
});

describe('attachLangChainHandler', () => {
  const settings = { tracerProvider: new GlobalTracerProvider(), captureContent: true };

  it('does nothing when the app cannot load @langchain/core', async () => {
    // (A real require from a directory without it could still find it through NODE_PATH, which
    // pnpm's bin shims set when they start the test runner.)
    const nowhere = Object.assign(() => undefined, {
      resolve: () => {
        throw Object.assign(new Error("Cannot find module '@langchain/core/context'"), {
          code: 'MODULE_NOT_FOUND',
        });
      },
    }) as unknown as NodeJS.Require;
    expect(attachLangChainHandler(nowhere, settings)).toMatchObject({ state: 'absent' });
  });

  it('attaches the handler when it can, and detaches it again', async () => {
    const langChainApp = createRequire(new URL('../../langchain/package.json', import.meta.url));
    const attachment = await attachLangChainHandler(langChainApp, settings);
    expect(attachment.state).toBe('attached');
    attachment.detach();
  });
});

describe('AqmSpanProcessor with the id still being looked up', () => {
  it('accepts a promise of the id (the @aqm/otel option @aqm/auto relies on)', async () => {
    const processor = new AqmSpanProcessor({
      apiKey: 'unit',
      baseUrl: 'http://127.0.0.1:9/api',
      applicationId: new Promise<string>(() => {}),
      shutdownTimeoutMs: 10,
    });
    await processor.shutdown();
  });
});
