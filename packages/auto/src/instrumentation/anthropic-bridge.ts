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
 * The last SDK major Traceloop's patch knows. Its patch wraps `Anthropic.Completions` first, which
 * SDK 1.0 removed, so on 1.x it throws from inside the app's `import`/`require` of the SDK.
 */
const LAST_PATCHED_MAJOR = 0;

function majorOf(version: string | undefined): number | undefined {
  const major = version === undefined ? Number.NaN : Number.parseInt(version, 10);
  return Number.isInteger(major) ? major : undefined;
}

/**
 * Traceloop's patch, made safe for the app: it runs inside the app's load of the SDK, where a throw
 * would end the app. An SDK major it does not know is left unpatched, and any failure of the patch
 * is undone; either says once on stderr that Anthropic calls send no trace. Never throws.
 */
function guardedPatch(patch: Patch | undefined, unpatch: Unpatch | undefined): Patch {
  let warned = false;
  const once = (message: string): void => {
    if (warned) return;
    warned = true;
    warn(message);
  };
  return (moduleExports, moduleVersion) => {
    const major = majorOf(moduleVersion);
    if (major !== undefined && major > LAST_PATCHED_MAJOR) {
      once(
        `@anthropic-ai/sdk ${moduleVersion} is not instrumented (@traceloop/instrumentation-anthropic ` +
          `patches ${LAST_PATCHED_MAJOR}.x only), so its calls send no trace; the app runs as usual.`,
      );
      return moduleExports;
    }
    try {
      return patch === undefined ? moduleExports : patch(moduleExports, moduleVersion);
    } catch (error) {
      try {
        unpatch?.(moduleExports, moduleVersion);
      } catch {
        // What the patch had not wrapped cannot be unwrapped: nothing left to undo.
      }
      const reason = error instanceof Error ? error.message : String(error);
      once(
        `could not instrument @anthropic-ai/sdk ${moduleVersion ?? '(unknown version)'} (${reason}), ` +
          'so its calls send no trace; the app runs as usual.',
      );
      return moduleExports;
    }
  };
}

/** Traceloop's unpatch, for the versions the patch was applied to; never throws. */
function guardedUnpatch(unpatch: Unpatch | undefined): Unpatch {
  return (moduleExports, moduleVersion) => {
    const major = majorOf(moduleVersion);
    if (unpatch === undefined || (major !== undefined && major > LAST_PATCHED_MAJOR)) return;
    try {
      unpatch(moduleExports, moduleVersion);
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
 * Its patch runs guarded: an SDK it cannot patch (1.x) is left as it is, with one warning, rather
 * than a crash of the app when it loads the SDK.
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
