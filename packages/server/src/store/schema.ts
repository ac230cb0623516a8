import type { SqliteDatabase } from './database.js';

/**
 * The schema, as an ordered list of migrations. `PRAGMA user_version` records how many have been
 * applied, so a database written by an older version is brought up to date on open and a new
 * migration is only ever appended here.
 *
 * Dates are ISO 8601 UTC strings (normalised by @aqm/wire), so they sort correctly as text.
 * Every list has an index that serves both its filter and its "newest first" order; `seq` (the
 * rowid) breaks ties between rows written in the same millisecond.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE applications (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    monitoring TEXT NOT NULL,
    guardrails TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX applications_project_name ON applications (project_id, name);
  CREATE INDEX applications_project_created ON applications (project_id, created_at);

  CREATE TABLE traces (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    application_id TEXT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    trace_id TEXT NOT NULL,
    start_time TEXT NOT NULL,
    end_time TEXT NOT NULL,
    duration_ms REAL NOT NULL,
    status TEXT NOT NULL,
    prompt TEXT NOT NULL,
    response TEXT NOT NULL,
    span_count INTEGER NOT NULL,
    total_tokens INTEGER,
    body TEXT NOT NULL,
    UNIQUE (application_id, trace_id)
  );
  CREATE INDEX traces_app_start ON traces (application_id, start_time);
  CREATE INDEX traces_app_status_start ON traces (application_id, status, start_time);

  CREATE TABLE evaluation_results (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    application_id TEXT NOT NULL,
    trace_id TEXT NOT NULL,
    metric TEXT NOT NULL,
    score REAL NOT NULL,
    passed INTEGER NOT NULL,
    threshold REAL,
    explanation TEXT,
    created_at TEXT NOT NULL,
    FOREIGN KEY (application_id, trace_id) REFERENCES traces (application_id, trace_id) ON DELETE CASCADE
  );
  CREATE INDEX evaluation_results_app_created ON evaluation_results (application_id, created_at);
  CREATE INDEX evaluation_results_app_metric_created ON evaluation_results (application_id, metric, created_at);
  CREATE INDEX evaluation_results_app_trace_created ON evaluation_results (application_id, trace_id, created_at);

  CREATE TABLE guardrail_records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    application_id TEXT NOT NULL,
    trace_id TEXT NOT NULL,
    stage TEXT NOT NULL,
    pass_status TEXT NOT NULL,
    categories TEXT NOT NULL,
    prompt TEXT NOT NULL,
    response TEXT NOT NULL,
    final_content TEXT NOT NULL,
    latency REAL NOT NULL,
    app_version TEXT NOT NULL,
    environment TEXT NOT NULL,
    cost REAL NOT NULL,
    components TEXT NOT NULL,
    created_at TEXT NOT NULL,
    FOREIGN KEY (application_id, trace_id) REFERENCES traces (application_id, trace_id) ON DELETE CASCADE
  );
  CREATE INDEX guardrail_records_app_created ON guardrail_records (application_id, created_at);
  CREATE INDEX guardrail_records_app_status_created ON guardrail_records (application_id, pass_status, created_at);
  CREATE INDEX guardrail_records_app_stage_created ON guardrail_records (application_id, stage, created_at);
  CREATE INDEX guardrail_records_app_trace ON guardrail_records (application_id, trace_id);

  CREATE TABLE guardrail_record_categories (
    record_seq INTEGER NOT NULL REFERENCES guardrail_records (seq) ON DELETE CASCADE,
    category TEXT NOT NULL,
    PRIMARY KEY (record_seq, category)
  ) WITHOUT ROWID;
  `,
];

/** Applies the migrations the database has not seen yet, each in its own transaction. */
export function migrate(db: SqliteDatabase): void {
  db.exec('PRAGMA foreign_keys = ON');
  const applied = Number(db.get('PRAGMA user_version')?.user_version ?? 0);
  for (let version = applied; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version] as string);
      // PRAGMA takes no bound parameters; `version` is a loop counter, not input.
      db.exec(`PRAGMA user_version = ${version + 1}`);
    });
  }
}
