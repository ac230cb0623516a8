import type { GuardrailsConfig, MonitoringConfig } from '@aqm/wire';
import type { SqliteDatabase, SqlRow } from './database.js';
import { count, json, offsetOf, text } from './rows.js';
import { SqlFilter } from './sql-filter.js';

/** An application as stored: the spec's fields, its project and its configuration. */
export interface ApplicationRecord {
  id: string;
  projectId: string;
  name: string;
  description: string;
  monitoring: MonitoringConfig;
  guardrails: GuardrailsConfig;
  createdAt: string;
  updatedAt: string;
}

/** What a list query asks for. */
export interface ApplicationListQuery {
  page: number;
  limit: number;
  search?: string | undefined;
}

/** Changes to an application; omitted fields stay as they are. */
export type ApplicationChanges = Partial<
  Pick<ApplicationRecord, 'name' | 'description' | 'monitoring' | 'guardrails'>
> &
  Pick<ApplicationRecord, 'updatedAt'>;

const COLUMNS = 'id, project_id, name, description, monitoring, guardrails, created_at, updated_at';

/** The applications table. Every read is scoped to a project, so one key never sees another's data. */
export class ApplicationsRepository {
  readonly #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  /** Stores a new application. */
  insert(app: ApplicationRecord): void {
    this.#db.run(`INSERT INTO applications (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
      app.id,
      app.projectId,
      app.name,
      app.description,
      JSON.stringify(app.monitoring),
      JSON.stringify(app.guardrails),
      app.createdAt,
      app.updatedAt,
    ]);
  }

  /** The project's application with this id, or `undefined` (also when it belongs to another project). */
  find(projectId: string, id: string): ApplicationRecord | undefined {
    const row = this.#db.get(`SELECT ${COLUMNS} FROM applications WHERE id = ? AND project_id = ?`, [
      id,
      projectId,
    ]);
    return row === undefined ? undefined : toRecord(row);
  }

  /** Whether another application of the project (not `exceptId`) already has this name. */
  nameTaken(projectId: string, name: string, exceptId = ''): boolean {
    return (
      this.#db.get('SELECT 1 AS taken FROM applications WHERE project_id = ? AND name = ? AND id <> ?', [
        projectId,
        name,
        exceptId,
      ]) !== undefined
    );
  }

  /** A page of the project's applications, newest first, and how many match in all. */
  list(projectId: string, query: ApplicationListQuery): { items: ApplicationRecord[]; total: number } {
    const { filter, pageSql, pageParams } = listSql(projectId, query);
    const total = count(
      this.#db.get(`SELECT COUNT(*) AS n FROM applications WHERE ${filter.sql}`, filter.params),
    );
    return { items: this.#db.all(pageSql, pageParams).map(toRecord), total };
  }

  /** SQLite's plan for the page query of {@link ApplicationsRepository.list}. */
  explainList(projectId: string, query: ApplicationListQuery): string[] {
    const { pageSql, pageParams } = listSql(projectId, query);
    return this.#db.all(`EXPLAIN QUERY PLAN ${pageSql}`, pageParams).map((row) => text(row, 'detail'));
  }

  /** Applies changes to the project's application; returns the updated record, or `undefined` if not found. */
  update(projectId: string, id: string, changes: ApplicationChanges): ApplicationRecord | undefined {
    const current = this.find(projectId, id);
    if (current === undefined) return undefined;
    const next: ApplicationRecord = {
      ...current,
      ...definedOnly(changes),
    };
    this.#db.run(
      `UPDATE applications SET name = ?, description = ?, monitoring = ?, guardrails = ?, updated_at = ?
       WHERE id = ? AND project_id = ?`,
      [
        next.name,
        next.description,
        JSON.stringify(next.monitoring),
        JSON.stringify(next.guardrails),
        next.updatedAt,
        id,
        projectId,
      ],
    );
    return next;
  }
}

function listSql(projectId: string, query: ApplicationListQuery) {
  const filter = new SqlFilter('project_id = ?', projectId).search(['name'], query.search);
  return {
    filter,
    pageSql: `SELECT ${COLUMNS} FROM applications WHERE ${filter.sql} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
    pageParams: [...filter.params, query.limit, offsetOf(query.page, query.limit)],
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function toRecord(row: SqlRow): ApplicationRecord {
  return {
    id: text(row, 'id'),
    projectId: text(row, 'project_id'),
    name: text(row, 'name'),
    description: text(row, 'description'),
    monitoring: json<MonitoringConfig>(row, 'monitoring'),
    guardrails: json<GuardrailsConfig>(row, 'guardrails'),
    createdAt: text(row, 'created_at'),
    updatedAt: text(row, 'updated_at'),
  };
}
