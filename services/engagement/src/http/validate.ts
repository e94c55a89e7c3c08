import { badRequest } from '@nudge/platform';
import type { z } from 'zod';

/**
 * Like parseBody/parseQuery, but the schema's message is the whole answer, without the field path: for the texts the
 * product fixes word for word ('Comment must be 5000 characters or less', 'This check-in link is not valid.').
 * Every field of a schema parsed this way carries its own message.
 */
export function parseExact<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? 'Invalid input');
  return result.data;
}
