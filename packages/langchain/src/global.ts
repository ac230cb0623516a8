import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { registerConfigureHook, setContextVariable } from '@langchain/core/context';

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
}

/**
 * Detaches the handler set by {@link setGlobalAqmHandler} from runs started from now on in this
 * async context.
 *
 * @example
 * clearGlobalAqmHandler();
 */
export function clearGlobalAqmHandler(): void {
  setContextVariable(CONTEXT_VARIABLE, undefined);
}
