import { apiRoutes, browserRoutes, type RouteContract } from '@nudge/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument } from '../src/openapi';

type Doc = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  tags: { name: string }[];
};

const withSchemas: RouteContract = {
  method: 'GET',
  path: '/api/user/details/:id',
  service: 'auth',
  access: 'admin',
  summary: 'One user',
  source: 'admin.md §7',
  params: z.object({ id: z.string().regex(/^[a-f0-9]{24}$/) }),
  query: z.object({ page: z.coerce.number().int().min(1), email: z.string().optional() }),
  body: z.object({ token: z.string() }),
  response: z.object({ status: z.boolean(), user: z.object({ email: z.email(), createdAt: z.date() }) }),
};

describe('buildOpenApiDocument', () => {
  it('documents every route of the table once, tagged by service, with access and source', () => {
    const doc = buildOpenApiDocument() as unknown as Doc;
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(apiRoutes.length + browserRoutes.length);
    const op = doc.paths['/api/user/signinbytoken/{uid}']?.post;
    expect(op).toMatchObject({ tags: ['auth'], 'x-access': 'link' });
    expect(op?.description).toContain('reader.md §7');
    expect(op?.parameters).toEqual([
      { name: 'uid', in: 'path', required: true, schema: { type: 'string', minLength: 1, maxLength: 4096 } },
    ]);
    expect(doc.tags.map((t) => t.name)).toEqual(['auth', 'content', 'engagement', 'billing', 'reporting']);
  });

  it('turns zod schemas into path and query parameters, a request body and a response schema', () => {
    const doc = buildOpenApiDocument({ routes: [withSchemas] }) as unknown as Doc;
    const op = doc.paths['/api/user/details/{id}']?.get as any;
    expect(op.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-f0-9]{24}$' } },
      {
        name: 'page',
        in: 'query',
        required: true,
        schema: expect.objectContaining({ type: 'integer', minimum: 1 }),
      },
      { name: 'email', in: 'query', required: false, schema: { type: 'string' } },
    ]);
    expect(op.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { token: { type: 'string' } },
      required: ['token'],
    });
    const response = op.responses['200'].content['application/json'].schema;
    expect(response.$schema).toBeUndefined();
    expect(response.properties.user.properties.email).toMatchObject({ type: 'string', format: 'email' });
    expect(op.security).toEqual([{ bearerAuth: [] }]);
  });

  it('adds the dev outbox only when asked', () => {
    expect((buildOpenApiDocument() as unknown as Doc).paths['/api/dev/outbox']).toBeUndefined();
    const doc = buildOpenApiDocument({ devOutbox: true }) as unknown as Doc;
    expect(doc.paths['/api/dev/outbox']?.get).toMatchObject({ tags: ['dev'], 'x-access': 'dev' });
  });
});
