import type { EvaluationResult } from '@aqm/wire';
import type { SqliteDatabase, SqlRow } from './database.js';
import { count, number, offsetOf, optionalNumber, optionalText, text } from './rows.js';
import { SqlFilter } from './sql-filter.js';

/** The evaluations list query (wire `listEvaluationsQuerySchema`, parsed). */
export interface EvaluationListQuery {
  page: number;
  limit: number;
  start?: string | undefined;
  end?: string | undefined;
  traceId?: string | undefined;
  metric?: string | undefined;
}

/** Score figures per time bucket (by the scored trace's startTime) for widgets. */
export interface ScoreBucket {
  bucket: string;
  scores: number;
  scoreSum: number;
}

const COLUMNS = 'id, trace_id, metric, score, passed, threshold, explanation, created_at';

/** The evaluation_results table: one row per metric score of a trace. */
export class EvaluationResultsRepository {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  /** Stores a result; its trace must be stored already. */
  insert(applicationId: string, result: EvaluationResult): void {
    this.#db.run(
      `INSERT INTO evaluation_results (application_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        applicationId,
        result.id,
        result.traceId,
        result.metric,
        result.score,
        result.passed ? 1 : 0,
        result.threshold ?? null,
        result.explanation ?? null,
        result.createdAt,
      ],
    );
  }

  /** The results of one trace, in the order they were written. */
  forTrace(applicationId: string, traceId: string): EvaluationResult[] {
    return this.#db
      .all(
        `SELECT ${COLUMNS} FROM evaluation_results WHERE application_id = ? AND trace_id = ? ORDER BY seq`,
        [applicationId, traceId],
      )
      .map(toResult);
  }

  /** A page of the application's results, newest first by createdAt, and how many match in all. */
  list(applicationId: string, query: EvaluationListQuery): { items: EvaluationResult[]; total: number } {
    const { filter, pageSql, pageParams } = listSql(applicationId, query);
    const total = count(
      this.#db.get(`SELECT COUNT(*) AS n FROM evaluation_results WHERE ${filter.sql}`, filter.params),
    );
    return { items: this.#db.all(pageSql, pageParams).map(toResult), total };
  }

  /** SQLite's plan for the page query of {@link EvaluationResultsRepository.list}. */
  explainList(applicationId: string, query: EvaluationListQuery): string[] {
    const { pageSql, pageParams } = listSql(applicationId, query);
    return this.#db.all(`EXPLAIN QUERY PLAN ${pageSql}`, pageParams).map((row) => text(row, 'detail'));
  }

  /**
   * Scores per bucket of the scored traces' startTime over an inclusive range; see
   * `TracesRepository.buckets` for `bucketChars`.
   */
  buckets(applicationId: string, start: string, end: string, bucketChars: number): ScoreBucket[] {
    const rows = this.#db.all(
      `SELECT substr(t.start_time, 1, ?) AS bucket, COUNT(e.seq) AS scores, TOTAL(e.score) AS score_sum
       FROM traces t JOIN evaluation_results e ON e.application_id = t.application_id AND e.trace_id = t.trace_id
       WHERE t.application_id = ? AND t.start_time >= ? AND t.start_time <= ?
       GROUP BY bucket ORDER BY bucket`,
      [bucketChars, applicationId, start, end],
    );
    return rows.map((row) => ({
      bucket: text(row, 'bucket'),
      scores: number(row, 'scores'),
      scoreSum: number(row, 'score_sum'),
    }));
  }
}

function listSql(applicationId: string, query: EvaluationListQuery) {
  const filter = new SqlFilter('application_id = ?', applicationId)
    .range('created_at', query.start, query.end)
    .addIf(query.traceId, 'trace_id = ?')
    .addIf(query.metric, 'metric = ?');
  return {
    filter,
    pageSql: `SELECT ${COLUMNS} FROM evaluation_results WHERE ${filter.sql}
      ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
    pageParams: [...filter.params, query.limit, offsetOf(query.page, query.limit)],
  };
}

function toResult(row: SqlRow): EvaluationResult {
  const result: EvaluationResult = {
    id: text(row, 'id'),
    traceId: text(row, 'trace_id'),
    metric: text(row, 'metric'),
    score: number(row, 'score'),
    passed: number(row, 'passed') === 1,
    createdAt: text(row, 'created_at'),
  };
  const threshold = optionalNumber(row, 'threshold');
  if (threshold !== undefined) result.threshold = threshold;
  const explanation = optionalText(row, 'explanation');
  if (explanation !== undefined) result.explanation = explanation;
  return result;
}
