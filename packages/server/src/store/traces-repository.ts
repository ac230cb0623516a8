import type { EvaluationTrace, TraceStatus, TraceSummary } from '@aqm/wire';
import type { SqliteDatabase, SqlRow } from './database.js';
import { count, json, number, offsetOf, optionalNumber, text } from './rows.js';
import { SqlFilter } from './sql-filter.js';

/** A trace as stored: the submitted trace (dates normalised to UTC) and its owner. */
export interface StoredTrace {
  applicationId: string;
  trace: EvaluationTrace;
}

/** The traces list query (wire `listTracesQuerySchema`, parsed). */
export interface TraceListQuery {
  page: number;
  limit: number;
  start?: string | undefined;
  end?: string | undefined;
  status?: TraceStatus | undefined;
  search?: string | undefined;
}

/** Per-bucket trace figures for widgets. */
export interface TraceBucket {
  bucket: string;
  traces: number;
  errors: number;
  durationMsSum: number;
  tokens: number;
  tokenTraces: number;
}

const SUMMARY_COLUMNS =
  'application_id, trace_id, start_time, end_time, span_count, status, prompt, response';

/** The traces table: one row per (application, traceId), the submitted trace kept whole as JSON. */
export class TracesRepository {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  /**
   * Stores a trace, replacing one with the same traceId in the application; the old trace's
   * evaluation results and guardrail records go with it (foreign keys cascade).
   */
  replace(applicationId: string, trace: EvaluationTrace): void {
    this.#db.run('DELETE FROM traces WHERE application_id = ? AND trace_id = ?', [
      applicationId,
      trace.traceId,
    ]);
    this.#db.run(
      `INSERT INTO traces (application_id, trace_id, start_time, end_time, duration_ms, status, prompt, response,
         span_count, total_tokens, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        applicationId,
        trace.traceId,
        trace.startTime,
        trace.endTime,
        Date.parse(trace.endTime) - Date.parse(trace.startTime),
        trace.status,
        trace.prompt,
        trace.response,
        trace.spans?.length ?? 0,
        totalTokens(trace) ?? null,
        JSON.stringify(trace),
      ],
    );
  }

  /** One trace of the application, or `undefined`. */
  find(applicationId: string, traceId: string): StoredTrace | undefined {
    const row = this.#db.get('SELECT body FROM traces WHERE application_id = ? AND trace_id = ?', [
      applicationId,
      traceId,
    ]);
    return row === undefined ? undefined : { applicationId, trace: json<EvaluationTrace>(row, 'body') };
  }

  /** A page of the application's traces, newest first by startTime, and how many match in all. */
  list(applicationId: string, query: TraceListQuery): { items: TraceSummary[]; total: number } {
    const { filter, pageSql, pageParams } = listSql(applicationId, query);
    const total = count(this.#db.get(`SELECT COUNT(*) AS n FROM traces WHERE ${filter.sql}`, filter.params));
    return { items: this.#db.all(pageSql, pageParams).map(toSummary), total };
  }

  /** SQLite's plan for the page query of {@link TracesRepository.list} (to check that it uses an index). */
  explainList(applicationId: string, query: TraceListQuery): string[] {
    const { pageSql, pageParams } = listSql(applicationId, query);
    return this.#db.all(`EXPLAIN QUERY PLAN ${pageSql}`, pageParams).map((row) => text(row, 'detail'));
  }

  /**
   * Trace figures per time bucket over an inclusive startTime range. A bucket is the first
   * `bucketChars` characters of the ISO time (13: the hour, 10: the day).
   */
  buckets(applicationId: string, start: string, end: string, bucketChars: number): TraceBucket[] {
    const rows = this.#db.all(
      `SELECT substr(start_time, 1, ?) AS bucket, COUNT(*) AS traces,
         SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors,
         TOTAL(duration_ms) AS duration_ms_sum, TOTAL(total_tokens) AS tokens, COUNT(total_tokens) AS token_traces
       FROM traces WHERE application_id = ? AND start_time >= ? AND start_time <= ?
       GROUP BY bucket ORDER BY bucket`,
      [bucketChars, applicationId, start, end],
    );
    return rows.map((row) => ({
      bucket: text(row, 'bucket'),
      traces: number(row, 'traces'),
      errors: number(row, 'errors'),
      durationMsSum: number(row, 'duration_ms_sum'),
      tokens: number(row, 'tokens'),
      tokenTraces: number(row, 'token_traces'),
    }));
  }
}

function listSql(applicationId: string, query: TraceListQuery) {
  const filter = new SqlFilter('application_id = ?', applicationId)
    .range('start_time', query.start, query.end)
    .addIf(query.status, 'status = ?')
    .search(['prompt', 'response'], query.search);
  return {
    filter,
    pageSql: `SELECT ${SUMMARY_COLUMNS} FROM traces WHERE ${filter.sql} ORDER BY start_time DESC, seq DESC LIMIT ? OFFSET ?`,
    pageParams: [...filter.params, query.limit, offsetOf(query.page, query.limit)],
  };
}

/** Tokens of a trace: `totalTokens`, else input + output when either is given. */
export function totalTokens(trace: EvaluationTrace): number | undefined {
  const usage = trace.usage;
  if (usage === undefined) return undefined;
  if (usage.totalTokens !== undefined) return usage.totalTokens;
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

function toSummary(row: SqlRow): TraceSummary {
  return {
    traceId: text(row, 'trace_id'),
    applicationId: text(row, 'application_id'),
    startTime: text(row, 'start_time'),
    endTime: text(row, 'end_time'),
    spanCount: optionalNumber(row, 'span_count') ?? 0,
    status: text(row, 'status') as TraceStatus,
    prompt: text(row, 'prompt'),
    response: text(row, 'response'),
  };
}
