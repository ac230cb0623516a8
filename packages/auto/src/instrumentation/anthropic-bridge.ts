import {
  InstrumentationBase,
  type InstrumentationModuleDefinition,
  InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import type { AnthropicInstrumentation } from '@traceloop/instrumentation-anthropic';
import { AUTO_VERSION } from '../version.js';
import { warn } from '../warn.js';

type Patch = (moduleExports: unknown, moduleVersion?: string) => unknown;
type Unpatch = (moduleExports: unknown, moduleVersion?: string) => void;

/**
 * Stands in for `Anthropic.Completions`, which SDK 1.0 removed. Its `create` is there only to be
 * wrapped and unwrapped quietly (a missing method makes the wrapper print to stderr); nothing can
 * call it, as the SDK makes no instance of it.
 */
class RemovedCompletions {
  create(): void {}
}

/**
 * The SDK's exports as Traceloop's patch expects them. Its patch wraps `Anthropic.Completions` (the
 * legacy text-completion API) first, and SDK 1.0 removed it, so on 1.x the patch threw from inside
 * the app's `import`/`require` of the SDK. A view that supplies a stand-in lets the rest of the
 * patch run: `Messages`, `Beta.Messages` and `APIPromise`, all
 * it instruments, are the SDK's own.
 */
function withCompletions(moduleExports: unknown): unknown {
  const sdk = moduleExports as { Anthropic?: unknown } | null;
  const anthropic = sdk?.Anthropic;
  if (
    sdk === null ||
    (typeof anthropic !== 'function' && typeof anthropic !== 'object') ||
    anthropic === null
  )
    return moduleExports;
  if ((anthropic as { Completions?: unknown }).Completions !== undefined) return moduleExports;
  const view = new Proxy(anthropic, {
    get: (target, key, receiver) =>
      key === 'Completions' ? RemovedCompletions : Reflect.get(target, key, receiver),
  });
  return new Proxy(sdk, {
    get: (target, key, receiver) => (key === 'Anthropic' ? view : Reflect.get(target, key, receiver)),
  });
}

/** SDK exports whose patch failed and was undone: nothing is left for an unpatch to undo. */
const undone = new WeakSet<object>();

/**
 * Traceloop's patch, made safe for the app: it runs inside the app's load of the SDK, where a throw
 * would end the app. SDK 1.x is patched through {@link withCompletions}; a failure of the patch on
 * any version is undone, and says once on stderr that Anthropic calls send no trace. Never throws;
 * hands the loader the SDK's own exports.
 */
function guardedPatch(patch: Patch | undefined, unpatch: Unpatch | undefined): Patch {
  let warned = false;
  return (moduleExports, moduleVersion) => {
    if (patch === undefined) return moduleExports;
    const patched = withCompletions(moduleExports);
    try {
      patch(patched, moduleVersion);
    } catch (error) {
      try {
        unpatch?.(patched, moduleVersion);
      } catch {
        // What the patch had not wrapped cannot be unwrapped: nothing left to undo.
      }
      if (typeof moduleExports === 'object' && moduleExports !== null) undone.add(moduleExports);
      if (!warned) {
        warned = true;
        const reason = error instanceof Error ? error.message : String(error);
        warn(
          `could not instrument @anthropic-ai/sdk ${moduleVersion ?? '(unknown version)'} (${reason}), ` +
            'so its calls send no trace; the app runs as usual.',
        );
      }
    }
    return moduleExports;
  };
}

/** Traceloop's unpatch, through the same view as the patch; never throws. */
function guardedUnpatch(unpatch: Unpatch | undefined): Unpatch {
  return (moduleExports, moduleVersion) => {
    if (typeof moduleExports === 'object' && moduleExports !== null && undone.has(moduleExports)) return;
    try {
      unpatch?.(withCompletions(moduleExports), moduleVersion);
    } catch {
      // A patch that failed was already undone.
    }
  };
}

/**
 * Routes `@anthropic-ai/sdk` to `@traceloop/instrumentation-anthropic`'s own patches through this
 * package's `@opentelemetry/instrumentation`.
 *
 * Why: that instrumentation is built on an older `@opentelemetry/instrumentation`, whose copy of
 * import-in-the-middle is not the one the ESM loader hook reports to, so on its own it never sees an
 * ESM app's `import Anthropic from '@anthropic-ai/sdk'`. The bridge declares the very module
 * definitions (name, versions, `patch`/`unpatch`) that Traceloop's instrumentation declares, so the
 * patching is entirely Traceloop's; only the module-load hook is ours (the same for `require`).
 * Traceloop's instrumentation must be created with `enabled: false`, so it does not hook as well.
 * Its patch runs guarded: 1.x (without the legacy `Completions` it wraps first) through a view,
 * and a patch that fails is undone with one warning, rather than a crash of the app when it loads
 * the SDK.
 *
 * @example
 * const bridge = anthropicBridge(new AnthropicInstrumentation({ enabled: false }));
 */
export function anthropicBridge(traceloop: AnthropicInstrumentation): InstrumentationBase {
  const definitions = traceloop.getModuleDefinitions();
  class AnthropicBridge extends InstrumentationBase {
    constructor() {
      super('@aqm/auto/anthropic-bridge', AUTO_VERSION, {});
    }

    protected init(): InstrumentationModuleDefinition[] {
      return definitions.map(
        (definition) =>
          new InstrumentationNodeModuleDefinition(
            definition.name,
            definition.supportedVersions,
            guardedPatch(definition.patch, definition.unpatch),
            guardedUnpatch(definition.unpatch),
          ),
      );
    }
  }
  return new AnthropicBridge();
}
