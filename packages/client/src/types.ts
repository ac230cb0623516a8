import type {
  EvaluationTrace,
  ListEvaluationsQuery,
  ListGuardrailEvaluationsQuery,
  ListTracesQuery,
  Span,
  SpanEvent,
  WidgetDataBody,
} from '@aqm/wire';
import type { DateInput } from './dates.js';

/** `page` (>= 1, default 1) and `limit` (1..100, default 20) of every paginated list. */
export interface PageParams {
  page?: number | undefined;
  limit?: number | undefined;
}

/** Query of `applications.list`: paging and `search` (case-insensitive partial match on name). */
export interface ApplicationListParams extends PageParams {
  search?: string | undefined;
}

/** Query of `traces.list`: paging, a time range (`Date` or ISO string), `status`, `search`. */
export type TraceListParams = Omit<ListTracesQuery, 'page' | 'limit' | 'start' | 'end'> &
  PageParams & { start?: DateInput | undefined; end?: DateInput | undefined };

/** Query of `evaluations.list`: paging, a time range, `traceId`, `metric`. */
export type EvaluationListParams = Omit<ListEvaluationsQuery, 'page' | 'limit' | 'start' | 'end'> &
  PageParams & { start?: DateInput | undefined; end?: DateInput | undefined };

/** Query of `guardrails.evaluations.list`: a required time range, paging and filters. */
export type GuardrailEvaluationListParams = Omit<
  ListGuardrailEvaluationsQuery,
  'page' | 'limit' | 'start' | 'end'
> &
  PageParams & { start: DateInput; end: DateInput };

/** A span event whose `time` may be a `Date`. */
export type SpanEventInput = Omit<SpanEvent, 'time'> & { time: DateInput };

/** A span whose timestamps may be `Date`s. */
export type SpanInput = Omit<Span, 'startTime' | 'endTime' | 'events'> & {
  startTime: DateInput;
  endTime: DateInput;
  events?: SpanEventInput[] | undefined;
};

/** A trace to submit for scoring; timestamps may be `Date`s. */
export type EvaluationTraceInput = Omit<EvaluationTrace, 'startTime' | 'endTime' | 'spans'> & {
  startTime: DateInput;
  endTime: DateInput;
  spans?: SpanInput[] | undefined;
};

/** Body of `evaluations.submit`: 1 to 100 traces. */
export interface SubmitEvaluationsParams {
  traces: EvaluationTraceInput[];
}

/** Body of `widgets.data`: widget ids (from `widgets.list()`) and an inclusive time range. */
export type WidgetDataParams = Omit<WidgetDataBody, 'start' | 'end'> & { start: DateInput; end: DateInput };
