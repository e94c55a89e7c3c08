import { type Access, apiRoutes, browserRoutes, type RouteContract, SERVICES } from '@nudge/contracts';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

export interface OpenApiOptions {
  /** The routes to document; default: the contracts' apiRoutes and browserRoutes. */
  routes?: RouteContract[];
  /** Document the embedded topology's dev outbox. */
  devOutbox?: boolean;
  /** Told about schemas that cannot be expressed in JSON Schema (they are documented as "any"). */
  onSchemaError?: (route: RouteContract, part: string, error: unknown) => void;
}

const ACCESS_TEXT: Record<Access, string> = {
  public: 'anyone, no sign-in needed',
  user: 'a signed-in user (token in the body as `token`, or `Authorization: Bearer`)',
  admin: 'role admin only (token in the body as `token`, or `Authorization: Bearer`)',
  link: 'the signed or random token of an e-mail link, carried in the path or query',
  webhook: 'the payment provider, verified by an HMAC-SHA256 signature of the raw body',
  dev: 'embedded (single-machine) topology only; absent in production',
};

const SERVICE_TEXT: Record<string, string> = {
  auth: 'Users, one-time codes, Google sign-in, tokens, e-mail links, profiles, admin user management',
  content: 'Topics, posts (templates), feed, promotions, site settings, AI writer',
  engagement: 'Likes, comments, reading history, check-in questions and answers, event intake',
  billing: 'Subscription checkout, payment webhook, renewals, payment history, transactions',
  reporting: 'Event log, reports, report viewer data, CSV downloads',
  dev: 'Development helpers of the embedded topology',
};

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { status: { const: false }, message: { type: 'string' } },
  required: ['status', 'message'],
};

const OUTBOX_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    messages: {
      type: 'array',
      description: 'Captured e-mails and WhatsApp messages, newest first',
      items: {
        type: 'object',
        properties: {
          channel: { enum: ['email', 'whatsapp'] },
          to: { type: 'string' },
          subject: { type: 'string' },
          text: { type: 'string' },
          html: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
        },
        required: ['channel', 'to', 'text', 'createdAt'],
      },
    },
  },
  required: ['messages'],
};

/** zod 4's own JSON Schema output (draft 2020-12, which OpenAPI 3.1 uses), without the `$schema` tag. */
function toSchema(schema: z.ZodType, io: 'input' | 'output', onError: (error: unknown) => void): JsonSchema {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
    }) as JsonSchema;
    return rest;
  } catch (error) {
    onError(error);
    return {};
  }
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);

function operationId(route: RouteContract): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith(':') ? `by-${s.slice(1)}` : s))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [route.method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

function objectProperties(schema: JsonSchema): {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return { properties, required };
}

function operation(route: RouteContract, options: OpenApiOptions): Record<string, unknown> {
  const report = (part: string) => (error: unknown) => options.onSchemaError?.(route, part, error);
  const parameters: Record<string, unknown>[] = [];

  const params = route.params
    ? objectProperties(toSchema(route.params, 'input', report('params')))
    : undefined;
  for (const name of pathParamNames(route.path)) {
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: params?.properties[name] ?? { type: 'string' },
    });
  }
  if (route.query) {
    const query = objectProperties(toSchema(route.query, 'input', report('query')));
    for (const [name, schema] of Object.entries(query.properties)) {
      parameters.push({ name, in: 'query', required: query.required.includes(name), schema });
    }
  }

  const mediaType = route.produces ?? 'application/json';
  const ok: Record<string, unknown> = { description: 'Success' };
  if (route.response)
    ok.content = { [mediaType]: { schema: toSchema(route.response, 'output', report('response')) } };
  else if (route.produces) ok.content = { [mediaType]: {} };

  const op: Record<string, unknown> = {
    operationId: operationId(route),
    tags: [route.service],
    summary: route.summary,
    description: [
      `**Access: ${route.access}**: ${ACCESS_TEXT[route.access]}.`,
      `Served by the ${route.service} service.`,
      `Specified in ${route.source}.`,
    ].join('\n\n'),
    'x-access': route.access,
    'x-service': route.service,
    responses: {
      '200': ok,
      default: {
        description: 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
  if (parameters.length) op.parameters = parameters;
  if (route.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: toSchema(route.body, 'input', report('body')) } },
    };
  }
  if (route.access === 'user' || route.access === 'admin') op.security = [{ bearerAuth: [] }];
  return op;
}

/** The gateway's OpenAPI 3.1 document, generated from the contracts' routing table and zod schemas. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const routes: RouteContract[] = options.routes ?? [...apiRoutes, ...browserRoutes];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, options) };
  }
  const tags: { name: string; description?: string }[] = SERVICES.map((name) => ({
    name,
    description: SERVICE_TEXT[name],
  }));
  if (options.devOutbox) {
    paths['/api/dev/outbox'] = {
      get: {
        operationId: 'getApiDevOutbox',
        tags: ['dev'],
        summary: 'Captured e-mails and WhatsApp messages (read one-time codes here)',
        description: [
          `**Access: dev**: ${ACCESS_TEXT.dev}.`,
          'Served by the gateway itself from the embedded mail and WhatsApp capture.',
          'Specified in DESIGN.md §2.',
        ].join('\n\n'),
        'x-access': 'dev',
        responses: {
          '200': { description: 'Success', content: { 'application/json': { schema: OUTBOX_SCHEMA } } },
        },
      },
    };
    tags.push({ name: 'dev', description: SERVICE_TEXT.dev });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Nudge API',
      version: '1.0.0',
      description:
        'Every call goes through the gateway, which routes it to the owning service. Errors are ' +
        '`{ "status": false, "message": "..." }` with a 4xx or 5xx status. Each response carries an ' +
        '`x-request-id` header (a sane incoming one is kept).',
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The token returned by sign-in; the contract also accepts it as `token` in the JSON body.',
        },
      },
    },
  };
}
