import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { registerConfigureHook, setContextVariable } from '@langchain/core/context';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { propagateModelRunContext, restoreModelRunContext } from './model-run-context.js';

/** The LangChain context variable that holds the global handler. */
const CONTEXT_VARIABLE = 'aqm_callback_handler';

function isCallbackHandler(value: unknown): value is BaseCallbackHandler {
  const handler = value as Partial<BaseCallbackHandler> | null | undefined;
  return (
    typeof handler === 'object' &&
    handler !== null &&
    typeof handler.name === 'string' &&
    typeof handler.copy === 'function' &&
    typeof handler.awaitHandlers === 'boolean'
  );
}

/**
 * Attaches `handler` to every LangChain run started from now on in this async context and
 * everything it goes on to start (call it once at startup, before the app serves requests), with
 * no `callbacks` option anywhere. It uses LangChain's own mechanism, a configure hook reading a
 * context variable (`registerConfigureHook` + `setContextVariable` of `@langchain/core/context`).
 * A run that also gets the handler through `callbacks` is traced once.
 *
 * It also makes each chat model run's span the active span while the model's call runs (it wraps
 * `BaseChatModel.prototype.generate` and `_streamIterator`), so the spans of an instrumented model
 * client (the `openai` package's, say) join the run's trace instead of starting traces of their own.
 *
 * @example
 * import { AqmCallbackHandler, setGlobalAqmHandler } from '@aqm/langchain';
 * setGlobalAqmHandler(new AqmCallbackHandler());
 * await chain.invoke({ question: 'Hi?' }); // traced
 */
export function setGlobalAqmHandler(handler: BaseCallbackHandler): void {
  if (!isCallbackHandler(handler)) {
    throw new TypeError(
      `Expected \`handler\` to be a LangChain callback handler such as an AqmCallbackHandler, got ${
        handler === null ? '`null`' : typeof handler
      }`,
    );
  }
  registerConfigureHook({ contextVar: CONTEXT_VARIABLE, inheritable: true });
  setContextVariable(CONTEXT_VARIABLE, handler);
  propagateModelRunContext(BaseChatModel.prototype);
}

/**
 * Detaches the handler set by {@link setGlobalAqmHandler} from runs started from now on in this
 * async context, and unwraps the chat models' methods.
 *
 * @example
 * clearGlobalAqmHandler();
 */
export function clearGlobalAqmHandler(): void {
  setContextVariable(CONTEXT_VARIABLE, undefined);
  restoreModelRunContext(BaseChatModel.prototype);
}
