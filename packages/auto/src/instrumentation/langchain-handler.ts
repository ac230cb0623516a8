import type { TracerProvider } from '@opentelemetry/api';
import { canResolve, requireFromHere } from '../runtime/app-require.js';
import { MODULE_FORMAT } from '../runtime/module-format.js';

/** The part of `@aqm/langchain` used here. */
type AqmLangChain = Pick<
  typeof import('@aqm/langchain'),
  'AqmCallbackHandler' | 'setGlobalAqmHandler' | 'clearGlobalAqmHandler'
>;

/** What attaching the global handler gave: how to detach it, or nothing to do. */
export interface LangChainAttachment {
  /** `attached`, `absent` (the app cannot load `@langchain/core`) or `failed` (see `error`). */
  readonly state: 'attached' | 'absent' | 'failed';
  readonly error?: unknown;
  detach(): void;
}

const NOTHING = (): void => {};

function attach(
  langChain: AqmLangChain,
  settings: { tracerProvider: TracerProvider; captureContent: boolean },
): LangChainAttachment {
  const handler = new langChain.AqmCallbackHandler({
    tracerProvider: settings.tracerProvider,
    captureContent: settings.captureContent,
  });
  langChain.setGlobalAqmHandler(handler);
  return { state: 'attached', detach: () => langChain.clearGlobalAqmHandler() };
}

function failed(error: unknown): LangChainAttachment {
  return { state: 'failed', error, detach: NOTHING };
}

/**
 * Attaches `@aqm/langchain`'s handler to every LangChain run of the app, when the app can load
 * `@langchain/core`. The handler goes to the LangChain copy of the format this build was loaded
 * in (LangChain keeps its configure hooks per module copy): for the CommonJS build synchronously
 * through `require`, for the ESM build through `import()`, so the ESM preload must await the
 * result before the app starts (its `--import` entry uses a top-level await). Never rejects.
 *
 * @example
 * const attachment = await attachLangChainHandler(appRequire(), { tracerProvider, captureContent: true });
 */
export function attachLangChainHandler(
  appRequire: NodeJS.Require,
  settings: { tracerProvider: TracerProvider; captureContent: boolean },
): LangChainAttachment | Promise<LangChainAttachment> {
  if (!canResolve(appRequire, '@langchain/core/context')) {
    return { state: 'absent', detach: NOTHING };
  }
  if (MODULE_FORMAT === 'cjs') {
    try {
      return attach(requireFromHere('@aqm/langchain') as AqmLangChain, settings);
    } catch (error) {
      return failed(error);
    }
  }
  return import('@aqm/langchain').then(
    (langChain) => {
      try {
        return attach(langChain, settings);
      } catch (error) {
        return failed(error);
      }
    },
    (error: unknown) => failed(error),
  );
}
