import {
  InstrumentationBase,
  type InstrumentationModuleDefinition,
  InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import type { AnthropicInstrumentation } from '@traceloop/instrumentation-anthropic';
import { AUTO_VERSION } from '../version.js';

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
            definition.patch,
            definition.unpatch,
          ),
      );
    }
  }
  return new AnthropicBridge();
}
