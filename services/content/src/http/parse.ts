import { badRequest } from '@nudge/platform';
import type { Request } from 'express';
import type { z } from 'zod';

const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized|Expected)/;

/**
 * The first problem as a person reads it. Our schemas' messages are exact texts of the specs ('You must have at
 * least one level!'), so they go out verbatim; zod's own defaults and lower-case fragments get the field's path.
 */
export function messageOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const path = issue.path.join('.');
  const field = String(issue.path.at(-1) ?? '');
  const needsPath =
    ZOD_DEFAULT.test(issue.message) || (/^[a-z]/.test(issue.message) && !issue.message.startsWith(field));
  return path && needsPath ? `${path}: ${issue.message}` : issue.message;
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(messageOf(result.error));
  return result.data;
}

export const bodyOf = <S extends z.ZodType>(schema: S, req: Request) => parseInput(schema, req.body ?? {});
export const queryOf = <S extends z.ZodType>(schema: S, req: Request) => parseInput(schema, req.query);
export const paramsOf = <S extends z.ZodType>(schema: S, req: Request) => parseInput(schema, req.params);
