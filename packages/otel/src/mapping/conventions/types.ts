import type { Message } from '../messages.js';
import type { SpanView } from '../span-view.js';

/**
 * What a span is in its trace: a model call (`llm`), an agent/chain/workflow interaction that
 * may contain model calls (`top`), a tool call, a retriever, or anything else.
 */
export type SpanRole = 'llm' | 'top' | 'tool' | 'retriever' | 'other';

/** The instrumentation conventions the mapping understands (reported as `aqm.convention`). */
export type ConventionName =
  | 'semconv'
  | 'semconv-events'
  | 'openinference'
  | 'traceloop'
  | 'vercel-ai'
  | 'langsmith'
  | 'langfuse';

/** Token counts read from one span. */
export interface TokenCounts {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  totalTokens?: number | undefined;
}

/** A flat metadata value as the wire accepts it. */
export type MetadataValue = string | number | boolean;

/**
 * One convention's reading of a span. Every method answers `undefined` when the span does not
 * carry that piece in this convention, so that the next convention in order can be asked.
 */
export interface ConventionReader {
  readonly name: ConventionName;
  /** Whether the span carries this convention's marks. */
  detect(view: SpanView): boolean;
  kind?(view: SpanView): SpanRole | undefined;
  prompt?(view: SpanView): Message[] | undefined;
  response?(view: SpanView): Message[] | undefined;
  model?(view: SpanView): string | undefined;
  provider?(view: SpanView): string | undefined;
  usage?(view: SpanView): TokenCounts | undefined;
  /**
   * The string values of a pipeline step's input and output variables (`{context, question}`),
   * where the convention records them as an object: they tell retrieved context wrapped around
   * the question apart from a prompt template's own text (see `prompt-choice.ts`).
   */
  stepValues?(view: SpanView): string[] | undefined;
  /** Retrieved documents carried by the span. */
  context?(view: SpanView): string[] | undefined;
  session?(view: SpanView): string | undefined;
  user?(view: SpanView): string | undefined;
  /** Error message when the convention marks an error outside the span status (e.g. Langfuse level). */
  error?(view: SpanView): string | undefined;
  /** Convention-specific metadata entries (keys as found on the span). */
  metadata?(view: SpanView): Array<[string, MetadataValue]>;
}
