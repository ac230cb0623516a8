import type { SqlRow, SqlValue } from './database.js';

/** A text column of a row; throws if the schema and the code disagree. */
export function text(row: SqlRow, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new TypeError(`column ${column} is not text: ${describe(value)}`);
  return value;
}

/** A numeric column of a row. */
export function number(row: SqlRow, column: string): number {
  const value = row[column];
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'number') throw new TypeError(`column ${column} is not a number: ${describe(value)}`);
  return value;
}

/** A numeric column that may be NULL. */
export function optionalNumber(row: SqlRow, column: string): number | undefined {
  return row[column] === null || row[column] === undefined ? undefined : number(row, column);
}

/** A text column that may be NULL. */
export function optionalText(row: SqlRow, column: string): string | undefined {
  return row[column] === null || row[column] === undefined ? undefined : text(row, column);
}

/** A column holding JSON written by this store. */
export function json<T>(row: SqlRow, column: string): T {
  return JSON.parse(text(row, column)) as T;
}

/** `COUNT(*) AS n` of a row. */
export function count(row: SqlRow | undefined): number {
  return row === undefined ? 0 : number(row, 'n');
}

/** Row offset of a 1-based page. */
export function offsetOf(page: number, limit: number): number {
  return (page - 1) * limit;
}

/** A case-insensitive substring test of a column and its parameter, for `search` (see `contains_folded`). */
export function containsFolded(column: string, needle: string): { sql: string; param: string } {
  return { sql: `contains_folded(${column}, ?)`, param: needle.toLowerCase() };
}

function describe(value: SqlValue | undefined): string {
  return value instanceof Uint8Array ? 'a blob' : String(value);
}
