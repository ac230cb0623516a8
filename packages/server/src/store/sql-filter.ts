import type { SqlValue } from './database.js';
import { containsFolded } from './rows.js';

/**
 * Collects the `WHERE` clauses of a list query and their bound parameters, so optional filters
 * are added one line each and never spliced into SQL as values.
 */
export class SqlFilter {
  readonly #clauses: string[] = [];
  readonly #params: SqlValue[] = [];

  /** Always-on clause, e.g. `application_id = ?`. */
  constructor(clause: string, ...params: SqlValue[]) {
    this.add(clause, ...params);
  }

  /** Adds a clause with its parameters. */
  add(clause: string, ...params: SqlValue[]): this {
    this.#clauses.push(clause);
    this.#params.push(...params);
    return this;
  }

  /** Adds `clause` only when `value` is given. */
  addIf(value: string | undefined, clause: string): this {
    return value === undefined ? this : this.add(clause, value);
  }

  /** Adds an inclusive range on a date column; either end may be open. */
  range(column: string, start: string | undefined, end: string | undefined): this {
    this.addIf(start, `${column} >= ?`);
    return this.addIf(end, `${column} <= ?`);
  }

  /** Adds a case-insensitive substring search over one or more text columns. */
  search(columns: readonly string[], needle: string | undefined): this {
    if (needle === undefined || needle === '') return this;
    const parts = columns.map((column) => containsFolded(column, needle));
    return this.add(`(${parts.map((p) => p.sql).join(' OR ')})`, ...parts.map((p) => p.param));
  }

  /** The `WHERE` body (without the keyword). */
  get sql(): string {
    return this.#clauses.join(' AND ');
  }

  /** The parameters, in clause order. */
  get params(): SqlValue[] {
    return [...this.#params];
  }
}
