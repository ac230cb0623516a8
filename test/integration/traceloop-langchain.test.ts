import { describe } from 'vitest';
import { itRecordsTheFiveScenarios } from './recorded-source-run.js';

// Traceloop's LangChain instrumentation (test/fixtures/traceloop-langchain): the real
// @traceloop/instrumentation-langchain, @langchain/core and @langchain/openai, into the built
// @aqm/otel and the local service. Its handler parents every run to the active span, so a
// chain's runs are siblings under the app's request span.

describe('traceloop-langchain', () => {
  itRecordsTheFiveScenarios('traceloop-langchain', 'traceloop-langchain', { model: 'gpt-4o-mini' });
});
