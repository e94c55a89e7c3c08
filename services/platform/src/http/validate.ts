import type { Request } from 'express';
import type { z } from 'zod';
import { badRequest } from '../errors';

/** Turns the first zod issue into a message a person can act on: "email: Please enter a valid email". */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const path = issue.path.join('.');
  const field = String(issue.path.at(-1) ?? '').toLowerCase();
  // Messages written for people ('Please enter firstname') already name their field; zod's defaults do not.
  const forPeople = issue.message.startsWith('Please ') || issue.message.toLowerCase().includes(field);
  return path && !forPeople ? `${path}: ${issue.message}` : issue.message;
}

/** Parses a value with a contract schema, or throws a 400 AppError with the schema's message. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeIssues(result.error));
  return result.data;
}

export const parseBody = <S extends z.ZodType>(schema: S, req: Request): z.infer<S> =>
  parseWith(schema, req.body ?? {});
export const parseQuery = <S extends z.ZodType>(schema: S, req: Request): z.infer<S> =>
  parseWith(schema, req.query);
export const parseParams = <S extends z.ZodType>(schema: S, req: Request): z.infer<S> =>
  parseWith(schema, req.params);
export const parseHeaders = <S extends z.ZodType>(schema: S, req: Request): z.infer<S> =>
  parseWith(schema, req.headers);
