import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The data format: one number for everything Nudge keeps in a data folder (the embedded store's database, the dev
 * outbox's files) or in a MongoDB database. A new folder or database records it when it is first opened; one that
 * holds data in another format, or data with no format recorded, is refused at open with a message saying which,
 * never read or upgraded in place. Raise DATA_FORMAT with any change that makes stored data read differently.
 */
export const DATA_FORMAT = 1;

export class DataFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFormatError';
  }
}

/**
 * Checks the format recorded in `where` (undefined: none recorded; `empty`: it holds no data yet). Returns true when
 * the caller has to record DATA_FORMAT (new, empty data); throws DataFormatError for data of another format.
 */
export function mustRecordFormat(where: string, found: number | undefined, empty: boolean): boolean {
  if (found === DATA_FORMAT) return false;
  if (found === undefined && empty) return true;
  const written = found === undefined ? 'with no data format recorded' : `in data format ${found}`;
  throw new DataFormatError(
    `${where} was written ${written}; this version of Nudge reads data format ${DATA_FORMAT} only. ` +
      'Point it at another data folder or database (DATA_DIR, MONGODB_DB_PREFIX), or run the version that wrote it.',
  );
}

/** The file in which a data folder of plain files (no database of its own) records its data format. */
export const FORMAT_FILE = 'data-format';

/**
 * Checks (or, in a folder holding no data yet, records) the data format of a folder of plain files, in FORMAT_FILE.
 * `hasData`: whether the folder holds data already (then a missing format is refused, as another format is).
 */
export async function checkFolderFormat(dir: string, hasData: boolean): Promise<void> {
  const file = join(dir, FORMAT_FILE);
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  const found = text === undefined ? undefined : Number(text.trim());
  if (mustRecordFormat(`The data folder ${dir}`, found, !hasData)) await writeFile(file, `${DATA_FORMAT}\n`);
}
