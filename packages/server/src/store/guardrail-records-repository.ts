import type {
  GuardrailComponent,
  GuardrailEvaluation,
  GuardrailEvaluationSummary,
  GuardrailStage,
  PassStatus,
} from '@aqm/wire';
import type { SqliteDatabase, SqlRow } from './database.js';
import { count, json, number, offsetOf, text } from './rows.js';
import { SqlFilter } from './sql-filter.js';

/** The guardrail evaluations list query (wire `listGuardrailEvaluationsQuerySchema`, parsed). */
export interface GuardrailListQuery {
  start: string;
  end: string;
  page: number;
  limit: number;
  passStatus?: PassStatus | undefined;
  stage?: GuardrailStage | undefined;
  category?: string | undefined;
  search?: string | undefined;
}

/** Guardrail runs per time bucket (by `created_at`) for widgets. */
export interface GuardrailBucket {
  bucket: string;
  runs: number;
  failures: number;
}

const SUMMARY_COLUMNS = 'id, trace_id, stage, pass_status, categories, final_content, latency, created_at';
const DETAIL_COLUMNS = `${SUMMARY_COLUMNS}, prompt, response, app_version, environment, cost, components`;

/** The guardrail_records table: one row per guardrail run (a stage of a trace). */
export class GuardrailRecordsRepository {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  /** Stores a record and its categories; its trace must be stored already. */
  insert(applicationId: string, record: GuardrailEvaluation): void {
    this.#db.run(
      `INSERT INTO guardrail_records (application_id, id, trace_id, stage, pass_status, categories, final_content,
         latency, created_at, prompt, response, app_version, environment, cost, components)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        applicationId,
        record.id,
        record.traceId,
        record.guardrail_stage,
        record.passStatus,
        JSON.stringify(record.categories),
        record.final_content,
        record.latency,
        record.created_at,
        record.prompt,
        record.response,
        record.app_version,
        record.environment,
        record.cost,
        JSON.stringify(record.allComponents),
      ],
    );
    for (const category of new Set(record.categories)) {
      this.#db.run(
        'INSERT INTO guardrail_record_categories (record_seq, category) SELECT seq, ? FROM guardrail_records WHERE id = ?',
        [category, record.id],
      );
    }
  }

  /** One record of the application, or `undefined`. */
  find(applicationId: string, id: string): GuardrailEvaluation | undefined {
    const row = this.#db.get(
      `SELECT ${DETAIL_COLUMNS} FROM guardrail_records WHERE id = ? AND application_id = ?`,
      [id, applicationId],
    );
    return row === undefined ? undefined : toDetail(row);
  }

  /** A page of the application's records in the range, newest first, and how many match in all. */
  list(
    applicationId: string,
    query: GuardrailListQuery,
  ): { items: GuardrailEvaluationSummary[]; total: number } {
    const { filter, pageSql, pageParams } = listSql(applicationId, query);
    const total = count(
      this.#db.get(`SELECT COUNT(*) AS n FROM guardrail_records WHERE ${filter.sql}`, filter.params),
    );
    return { items: this.#db.all(pageSql, pageParams).map(toSummary), total };
  }

  /** SQLite's plan for the page query of {@link GuardrailRecordsRepository.list}. */
  explainList(applicationId: string, query: GuardrailListQuery): string[] {
    const { pageSql, pageParams } = listSql(applicationId, query);
    return this.#db.all(`EXPLAIN QUERY PLAN ${pageSql}`, pageParams).map((row) => text(row, 'detail'));
  }

  /** Runs and failures per bucket of `created_at` over an inclusive range (see `TracesRepository.buckets`). */
  buckets(applicationId: string, start: string, end: string, bucketChars: number): GuardrailBucket[] {
    const rows = this.#db.all(
      `SELECT substr(created_at, 1, ?) AS bucket, COUNT(*) AS runs,
         SUM(CASE WHEN pass_status = 'error' THEN 1 ELSE 0 END) AS failures
       FROM guardrail_records WHERE application_id = ? AND created_at >= ? AND created_at <= ?
       GROUP BY bucket ORDER BY bucket`,
      [bucketChars, applicationId, start, end],
    );
    return rows.map((row) => ({
      bucket: text(row, 'bucket'),
      runs: number(row, 'runs'),
      failures: number(row, 'failures'),
    }));
  }
}

function listSql(applicationId: string, query: GuardrailListQuery) {
  const filter = new SqlFilter('application_id = ?', applicationId)
    .range('created_at', query.start, query.end)
    .addIf(query.passStatus, 'pass_status = ?')
    .addIf(query.stage, 'stage = ?')
    .addIf(
      query.category,
      'EXISTS (SELECT 1 FROM guardrail_record_categories c WHERE c.record_seq = guardrail_records.seq AND c.category = ?)',
    )
    .search(['prompt', 'response', 'final_content'], query.search);
  return {
    filter,
    pageSql: `SELECT ${SUMMARY_COLUMNS} FROM guardrail_records WHERE ${filter.sql}
      ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
    pageParams: [...filter.params, query.limit, offsetOf(query.page, query.limit)],
  };
}

function toSummary(row: SqlRow): GuardrailEvaluationSummary {
  return {
    id: text(row, 'id'),
    traceId: text(row, 'trace_id'),
    guardrail_stage: text(row, 'stage') as GuardrailStage,
    passStatus: text(row, 'pass_status') as PassStatus,
    categories: json<string[]>(row, 'categories'),
    final_content: text(row, 'final_content'),
    latency: number(row, 'latency'),
    created_at: text(row, 'created_at'),
  };
}

function toDetail(row: SqlRow): GuardrailEvaluation {
  return {
    ...toSummary(row),
    prompt: text(row, 'prompt'),
    response: text(row, 'response'),
    app_version: text(row, 'app_version'),
    environment: text(row, 'environment'),
    cost: number(row, 'cost'),
    allComponents: json<GuardrailComponent[]>(row, 'components'),
  };
}
