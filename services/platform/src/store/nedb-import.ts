/**
 * The one-time upgrade of a store folder written by an older version, whose embedded store was @seald-io/nedb (one
 * `<collection>.db` datafile per collection): at the first open of the folder by the SQLite store, each datafile is
 * read with nedb itself and its documents are inserted into the collection's table, in one transaction per file;
 * the file is then renamed `<collection>.db.imported` (kept, not deleted, so nothing is lost if the import has to be
 * looked at). nedb is kept for this only. Indexes are not imported: the services declare theirs at boot.
 */
import { readdirSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import Datastore from '@seald-io/nedb';
import type Database from 'libsql';

const NEDB_FILE = /^([A-Za-z0-9_][A-Za-z0-9_.-]{0,119})\.db$/;

/** The nedb datafiles (`<collection>.db`) of a folder, as collection names. */
export function nedbFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .map((f) => NEDB_FILE.exec(f)?.[1])
      .filter((name): name is string => name !== undefined);
  } catch {
    return [];
  }
}

/** Imports every nedb datafile of the folder into the database, then renames it `<name>.db.imported`. */
export async function importNedbFiles(dir: string, db: InstanceType<typeof Database>): Promise<void> {
  for (const name of nedbFilesIn(dir)) {
    const file = join(dir, `${name}.db`);
    const nedb = new Datastore<Record<string, unknown>>({ filename: file });
    await nedb.loadDatabaseAsync();
    const docs = nedb.getAllData();
    const table = `"${`doc:${name}`.replace(/"/g, '""')}"`;
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (_id PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
    const insert = db.prepare(`INSERT OR IGNORE INTO ${table} (_id, doc) VALUES (?, ?)`);
    db.exec('BEGIN');
    try {
      for (const doc of docs) {
        const id = doc._id;
        if (typeof id !== 'string' && typeof id !== 'number') continue;
        // nedb revives dates as Date objects: they become their ISO strings, as the store keeps JSON values.
        insert.run(id, JSON.stringify(doc));
      }
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
    await rename(file, `${file}.imported`);
  }
}
