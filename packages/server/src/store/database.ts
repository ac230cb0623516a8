import sqlite from 'node-sqlite3-wasm';

/** A value SQLite stores or returns. */
export type SqlValue = number | bigint | string | Uint8Array | null;
/** Values bound to a statement's `?` placeholders, in order. */
export type SqlParams = ReadonlyArray<SqlValue | boolean>;
/** A result row, by column name. */
export type SqlRow = Record<string, SqlValue>;

type Statement = ReturnType<sqlite.Database['prepare']>;

/**
 * A thin owner of one SQLite connection. node-sqlite3-wasm frees prepared statements only when
 * they are finalized, so every statement is prepared once, cached by its SQL text and finalized
 * in {@link SqliteDatabase.close}: no statement can leak, and hot queries skip re-preparing.
 * The number of distinct SQL texts is bounded (the dynamic list queries only combine a fixed
 * set of filters), so the cache is too.
 */
export class SqliteDatabase {
  readonly #db: sqlite.Database;
  readonly #statements = new Map<string, Statement>();

  /** Opens (and creates if missing) the database at `path`; `':memory:'` keeps it in memory. */
  constructor(path: string) {
    this.#db = new sqlite.Database(path);
    if (path !== ':memory:') useWriteAheadLog(this.#db);
    // Case folding in JS so `search` is case-insensitive beyond ASCII (SQLite's LIKE/lower are ASCII-only).
    this.#db.function('casefold', (value) => (value === null ? null : String(value).toLowerCase()), {
      deterministic: true,
    });
    // `search` as one JS call per row: V8's substring search stays near-linear on hostile input, where
    // SQLite's instr() compares the needle at every position (a 1,000-character needle took 4 s on a
    // 5 MiB row), and the folded text is not copied back into SQLite.
    this.#db.function(
      'contains_folded',
      (value, needle) => value !== null && String(value).toLowerCase().includes(String(needle)),
      { deterministic: true },
    );
  }

  /** Runs SQL with no parameters and no result (schema changes, pragmas). */
  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /** Runs a statement and returns how many rows it changed. */
  run(sql: string, params: SqlParams = []): number {
    return this.#use(sql, (statement) => statement.run(params as SqlValue[]).changes);
  }

  /** The first row of a query, or `undefined`. */
  get(sql: string, params: SqlParams = []): SqlRow | undefined {
    return this.#use(sql, (statement) => (statement.get(params as SqlValue[]) as SqlRow | null) ?? undefined);
  }

  /** All rows of a query. */
  all(sql: string, params: SqlParams = []): SqlRow[] {
    return this.#use(sql, (statement) => statement.all(params as SqlValue[]) as SqlRow[]);
  }

  /**
   * Runs `work` inside one transaction: committed when it returns, rolled back when it throws.
   * Nested calls join the outer transaction.
   */
  transaction<T>(work: () => T): T {
    if (this.#db.inTransaction) return work();
    this.#db.exec('BEGIN');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Whether the connection is still open. */
  get isOpen(): boolean {
    return this.#db.isOpen;
  }

  /** Finalizes every cached statement, then closes the connection. Safe to call twice. */
  close(): void {
    if (!this.#db.isOpen) return;
    for (const statement of this.#statements.values()) finalizeQuietly(statement);
    this.#statements.clear();
    this.#db.close();
  }

  /**
   * Runs `work` with the cached statement of `sql`. A statement whose last step failed cannot be
   * reset for the next use in node-sqlite3-wasm, so on error it is dropped from the cache.
   */
  #use<T>(sql: string, work: (statement: Statement) => T): T {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    try {
      return work(statement);
    } catch (error) {
      this.#statements.delete(sql);
      finalizeQuietly(statement);
      throw error;
    }
  }
}

/** How large the write-ahead log file may stay after a checkpoint. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Crash safety for a database file. The library's file locking is a folder, and its "is anyone
 * else writing?" check answers yes whenever that folder exists, including for the connection's
 * own lock: so SQLite never sees a rollback journal left by a killed process as hot, never rolls
 * it back, and a SIGKILL during a commit left a half-written file ("database disk image is
 * malformed" on the next start, 3 of 30 kills in a stress run). With a write-ahead log the file
 * is only changed by checkpoints, and opening replays the log's committed frames and drops the
 * rest, with no lock check (0 of 100 kills). Exclusive locking mode keeps the log's index in this
 * process's memory, as the library has no shared memory; one server owns a dataDir anyway.
 * `synchronous = NORMAL` is SQLite's advice for WAL: a commit survives the process being killed;
 * only a power cut can lose the last few (never corrupt the file).
 */
function useWriteAheadLog(db: sqlite.Database): void {
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  const mode = db.get('PRAGMA journal_mode = WAL') as { journal_mode?: string } | null;
  if (mode?.journal_mode !== 'wal') {
    throw new Error(
      `could not switch the database to write-ahead logging (journal_mode is ${mode?.journal_mode})`,
    );
  }
  db.exec('PRAGMA synchronous = NORMAL');
  // A checkpoint reuses the log from its start but leaves the file at its largest: one batch of
  // big traces would keep that much disk for good. Above this, the file is cut back after a checkpoint.
  db.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
}

/** Finalizes a statement; finalize reports the statement's last error again, which is already handled. */
function finalizeQuietly(statement: Statement): void {
  try {
    statement.finalize();
  } catch {
    // The error was thrown to the caller when it happened.
  }
}
