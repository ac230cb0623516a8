import { langfuseReader } from './langfuse.js';
import { langsmithReader } from './langsmith.js';
import { openInferenceReader } from './openinference.js';
import { semconvReader } from './semconv.js';
import { semconvEventsReader } from './semconv-events.js';
import { traceloopReader } from './traceloop.js';
import type { ConventionReader } from './types.js';
import { vercelAiReader } from './vercel-ai.js';

/**
 * The order in which conventions are asked each question, following the reference's cheat-sheet
 * (§8). The first reader with an answer wins, so a specific mark (a Langfuse observation type, an
 * OpenInference kind, a LangSmith run type) beats a generic one (`gen_ai.operation.name`).
 */
export const READER_ORDER = {
  /** Every convention, in the order `aqm.convention` lists them. */
  all: [
    semconvReader,
    semconvEventsReader,
    openInferenceReader,
    traceloopReader,
    vercelAiReader,
    langsmithReader,
    langfuseReader,
  ],
  kind: [
    langfuseReader,
    openInferenceReader,
    langsmithReader,
    semconvReader,
    vercelAiReader,
    traceloopReader,
  ],
  content: [
    semconvReader,
    semconvEventsReader,
    openInferenceReader,
    traceloopReader,
    vercelAiReader,
    langsmithReader,
    langfuseReader,
  ],
  model: [semconvReader, openInferenceReader, vercelAiReader, langfuseReader],
  provider: [semconvReader, openInferenceReader, vercelAiReader, langfuseReader],
  usage: [semconvReader, openInferenceReader, vercelAiReader, langfuseReader],
  context: [openInferenceReader, semconvReader, langsmithReader],
  stepValues: [openInferenceReader, traceloopReader, langsmithReader, langfuseReader],
  identity: [
    semconvReader,
    openInferenceReader,
    traceloopReader,
    vercelAiReader,
    langsmithReader,
    langfuseReader,
  ],
  error: [langfuseReader, langsmithReader],
  metadata: [vercelAiReader, langsmithReader, traceloopReader, langfuseReader],
} as const satisfies Record<string, readonly ConventionReader[]>;
