import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../src/store/database.js';

const root = mkdtempSync(join(tmpdir(), 'aqm-crash-safety-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * What a SIGKILL leaves on disk is whatever the process had written by then: copying the files
 * while a transaction is open (its pages already spilled to disk) gives that state exactly, with
 * no timing to guess.
 */
function copyAsKilled(from: string, to: string): void {
  for (const name of readdirSync(from)) {
    if (name.endsWith('.lock')) continue; // the dead owner's lock folder is removed on takeover
    copyFileSync(join(from, name), join(to, name));
  }
}

describe('the database file after the process dies inside a transaction', () => {
  it('holds every committed row and none of the open transaction, and passes SQLite integrity_check', () => {
    const liveDir = mkdtempSync(join(root, 'live-'));
    const killedDir = mkdtempSync(join(root, 'killed-'));
    const db = new SqliteDatabase(join(liveDir, 'aqm.sqlite'));
    db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT)');
    db.exec('CREATE INDEX rows_body ON rows (body)');
    db.transaction(() => {
      for (let i = 0; i < 2_000; i += 1) db.run('INSERT INTO rows (body) VALUES (?)', [`committed ${i}`]);
    });
    // A small page cache makes SQLite write the open transaction's pages to disk before COMMIT.
    db.exec('PRAGMA cache_size = 10');
    db.exec('BEGIN');
    for (let i = 0; i < 2_000; i += 1) {
      db.run('UPDATE rows SET body = ? WHERE id = ?', [`uncommitted ${i} ${'x'.repeat(200)}`, i + 1]);
    }
    copyAsKilled(liveDir, killedDir);
    db.exec('ROLLBACK');
    db.close();

    const reopened = new SqliteDatabase(join(killedDir, 'aqm.sqlite'));
    try {
      expect(reopened.get('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' });
      expect(reopened.get("SELECT count(*) AS n FROM rows WHERE body LIKE 'committed %'")).toEqual({
        n: 2_000,
      });
      expect(reopened.get("SELECT count(*) AS n FROM rows WHERE body LIKE 'uncommitted %'")).toEqual({
        n: 0,
      });
    } finally {
      reopened.close();
    }
  });
});
