import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApplicationsRepository } from './applications-repository.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { SqliteDatabase } from './database.js';
import { EvaluationResultsRepository } from './evaluation-results-repository.js';
import { GuardrailRecordsRepository } from './guardrail-records-repository.js';
import { migrate } from './schema.js';
import { TracesRepository } from './traces-repository.js';

/** The file name of the database inside `dataDir`. */
export const DATABASE_FILE = 'aqm.sqlite';

/** Everything the service stores, one repository per resource over one SQLite connection. */
export interface Store {
  readonly db: SqliteDatabase;
  readonly applications: ApplicationsRepository;
  readonly traces: TracesRepository;
  readonly evaluationResults: EvaluationResultsRepository;
  readonly guardrailRecords: GuardrailRecordsRepository;
  /** Where the data lives: the database file, or `':memory:'`. */
  readonly location: string;
  /** Finalizes statements and closes the database. Safe to call twice. */
  close(): void;
}

/**
 * Opens the store: in memory without `dataDir`, else in `<dataDir>/aqm.sqlite` (the directory is
 * created if missing), with the schema migrated to the current version. A `dataDir` is owned by
 * one live server at a time (see {@link acquireDataDirLock}); a dead owner's locks are taken over.
 * @throws DataDirInUseError when another live server uses `dataDir`.
 */
export function openStore(options: { dataDir?: string | undefined } = {}): Store {
  let location = ':memory:';
  let lock: DataDirLock | undefined;
  if (options.dataDir !== undefined) {
    mkdirSync(options.dataDir, { recursive: true });
    location = join(options.dataDir, DATABASE_FILE);
    lock = acquireDataDirLock(options.dataDir, DATABASE_FILE);
  }
  let db: SqliteDatabase;
  try {
    db = new SqliteDatabase(location);
  } catch (error) {
    lock?.release();
    throw error;
  }
  try {
    migrate(db);
  } catch (error) {
    db.close();
    lock?.release();
    throw error;
  }
  return {
    db,
    location,
    applications: new ApplicationsRepository(db),
    traces: new TracesRepository(db),
    evaluationResults: new EvaluationResultsRepository(db),
    guardrailRecords: new GuardrailRecordsRepository(db),
    close: () => {
      db.close();
      lock?.release();
    },
  };
}
