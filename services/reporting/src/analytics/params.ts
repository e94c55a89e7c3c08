import type { QueryParams } from './types';

/**
 * What a statement's parameters may weigh. A ClickHouse server reads query parameters from the request's URL
 * (`param_<name>`), which it refuses past `http_max_uri_size` (1 MiB by default): about 31,000 ids in one list. Both
 * adapters refuse parameters past this bound, so a query that would break on the server breaks the same way on
 * chDB in the tests.
 */
export const MAX_PARAMS_BYTES = 1024 * 1024;

/** Ids per statement when a list of ids is a parameter: well under MAX_PARAMS_BYTES whatever the ids' length. */
export const IDS_PER_STATEMENT = 5_000;

/** About the length the parameters take in a URL (each value URL-encoded as ClickHouse's text form). */
const urlBytes = (params: QueryParams): number =>
  Object.entries(params).reduce(
    (sum, [name, value]) => sum + name.length + 7 + encodeURIComponent(JSON.stringify(value)).length,
    0,
  );

/** Throws when a statement's parameters would not fit in a ClickHouse server's request URL. */
export function checkParams(params: QueryParams | undefined): void {
  if (!params) return;
  const bytes = urlBytes(params);
  if (bytes > MAX_PARAMS_BYTES)
    throw new Error(
      `query parameters of ${bytes} bytes exceed the ${MAX_PARAMS_BYTES} a ClickHouse server reads from a URL: send long id lists in chunks (forIdChunks)`,
    );
}

/**
 * Runs a statement over a list of ids in chunks of IDS_PER_STATEMENT (the chunk is the statement's `ids`
 * parameter), one chunk after the other, and joins their rows. For statements whose rows are per id (a filter or
 * a group by id), so the chunks' rows are the whole list's.
 */
export async function forIdChunks<T>(
  ids: readonly string[],
  run: (chunk: string[]) => Promise<T[]>,
): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT)
    rows.push(...(await run(ids.slice(i, i + IDS_PER_STATEMENT))));
  return rows;
}
