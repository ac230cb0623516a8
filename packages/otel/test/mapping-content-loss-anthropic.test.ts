import { DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { ANTHROPIC_METADATA_ONLY_WARNING, resetContentLossState } from '../src/mapping/content-loss.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import {
  loadRecordings,
  type RecordedScenario,
  type RecordedSpan,
  scenarioSpans,
} from './mapping-helpers/recorded.js';

// The Anthropic SDK's own spans (test/fixtures/anthropic) carry prompts and responses only in its
// `content` mode; its default, `metadata_only`, leaves out exactly these attributes.
const SDK_SCOPE = 'com.anthropic.sdk.typescript';
const CONTENT_KEYS = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions'];
const OPTIONS = { maxValueChars: 10_000 };

function recording(source: string): RecordedScenario[] {
  const found = loadRecordings().find((entry) => entry.source === source);
  if (found === undefined) throw new Error(`no recording ${source}`);
  return found.scenarios;
}

/** A recorded scenario as the SDK records it in `metadata_only` mode (optionally under another scope). */
function metadataOnly(scenario: RecordedScenario, scope = SDK_SCOPE): RecordedScenario {
  const strip = (span: RecordedSpan): RecordedSpan => {
    if (span.scope.name !== SDK_SCOPE) return span;
    const attributes = { ...span.attributes };
    for (const key of CONTENT_KEYS) delete attributes[key];
    return { ...span, attributes, scope: { ...span.scope, name: scope } };
  };
  return { ...scenario, spans: scenario.spans.map(strip) };
}

describe('the Anthropic SDK spans without content (its default metadata_only mode): one diag warning', () => {
  let logger: CaptureLogger;

  beforeEach(() => {
    resetContentLossState();
    logger = new CaptureLogger();
    diag.setLogger(logger, DiagLogLevel.WARN);
  });
  afterEach(() => {
    diag.disable();
    resetContentLossState();
  });

  it('warns once, naming the content mode and how to turn it on, while the records go out empty', () => {
    for (const scenario of recording('anthropic-sdk')) {
      const record = buildTraceRecord(scenarioSpans(metadataOnly(scenario)), [], OPTIONS);
      expect(record, scenario.name).toMatchObject({ prompt: '', response: '', model: 'claude-haiku-4-5' });
    }
    const warnings = logger.at('warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(ANTHROPIC_METADATA_ONLY_WARNING);
    for (const hint of [
      '@anthropic-ai/sdk',
      'metadata_only',
      "openTelemetry: { traces: { contentMode: 'content' } }",
      'ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE=content',
    ])
      expect(warnings[0]).toContain(hint);
  });

  it("warns for another platform's client of the SDK too (its scope ends in .<platform>)", () => {
    const [plain] = recording('anthropic-sdk');
    buildTraceRecord(scenarioSpans(metadataOnly(plain!, `${SDK_SCOPE}.bedrock`)), [], OPTIONS);
    expect(logger.at('warn')).toEqual([expect.stringContaining(ANTHROPIC_METADATA_ONLY_WARNING)]);
  });

  it('says nothing when the SDK records content (content mode)', () => {
    for (const scenario of recording('anthropic-sdk')) {
      const record = buildTraceRecord(scenarioSpans(scenario), [], OPTIONS);
      expect(record?.prompt, scenario.name).toBe(scenario.question);
    }
    expect(logger.at('warn')).toEqual([]);
  });

  it.each(['openinference-anthropic', 'traceloop-anthropic'])(
    "says nothing when %s records the content beside the SDK's metadata-only spans",
    (source) => {
      for (const scenario of recording(source)) {
        const record = buildTraceRecord(scenarioSpans(metadataOnly(scenario)), [], OPTIONS);
        expect(record?.prompt, scenario.name).toBe(scenario.question);
      }
      expect(logger.at('warn')).toEqual([]);
    },
  );
});
