import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthEvents, checkEvent, type Role } from '@nudge/contracts';
import {
  closeServer,
  createEmbeddedStore,
  createEventStore,
  createLogger,
  createTokenIssuer,
  createTokenVerifier,
  type DocumentStore,
  type EventEnvelope,
  listen,
  loadConfig,
  loadOrCreateSigningKeys,
  newId,
  type ServiceEventStore,
} from '@nudge/platform';
import { type JsonReply, jsonCall } from '@nudge/platform/testing';
import sharp from 'sharp';
import { createFileMediaStore, type MediaStore } from '../src/infra/media';
import { type ContentService, type ContentServiceDeps, createContentService } from '../src/service';

export interface TestUser {
  userId: string;
  email: string;
  role: Role;
  token: string;
}

export interface ContentHarness {
  url: string;
  dir: string;
  store: DocumentStore;
  events: ServiceEventStore;
  media: MediaStore;
  service: ContentService;
  /** The service's clock reads this (each reading moves on by 1 ms, so creation times differ). */
  setNow(at: Date | string): void;
  now(): Date;
  call(method: string, path: string, body?: unknown, token?: string): Promise<JsonReply>;
  post(path: string, body?: unknown, token?: string): Promise<JsonReply>;
  get(path: string, token?: string): Promise<JsonReply>;
  put(path: string, body?: unknown, token?: string): Promise<JsonReply>;
  /** A user the service knows (auth's events delivered to its directory), with a session token. */
  user(role: Role, options?: { topics?: string[]; timeZone?: string; email?: string }): Promise<TestUser>;
  /** Delivers one event to the service's consumer handlers, as the bus would. */
  deliver(event: EventEnvelope): Promise<void>;
  admin: TestUser;
  close(): Promise<void>;
}

let eventCounter = 0;
/** An envelope as another service's event store would have written it. */
export function envelope(
  type: string,
  stream: string,
  version: number,
  data: unknown,
  at?: string,
): EventEnvelope {
  eventCounter += 1;
  // Through the producer's contract schema, so a producer change fails this consumer's tests.
  const checked = checkEvent(type, data);
  return {
    id: `${newId()}${eventCounter}`,
    type: checked.type,
    stream,
    version,
    occurredAt: at ?? new Date(Date.UTC(2026, 0, 1, 0, 0, 0, eventCounter)).toISOString(),
    actor: null,
    data: checked.data,
    meta: {},
  };
}

/** The credential the harness's content service expects on /internal routes. */
export const CONTENT_INTERNAL_TOKEN = 'c'.repeat(40);

/** The content service over real HTTP on port 0 with embedded adapters (in a temp folder). */
export async function startContent(overrides: Partial<ContentServiceDeps> = {}): Promise<ContentHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'nudge-content-'));
  const store = createEmbeddedStore({ dir: join(dir, 'content') });
  const log = createLogger('content-test', 'silent');
  let base = Date.parse('2026-03-10T09:00:00.000Z');
  let tick = 0;
  const clock = () => new Date(base + tick++);
  const events = createEventStore({ store, service: 'content', log, clock });
  const media = createFileMediaStore(join(dir, 'media'));
  const keys = await loadOrCreateSigningKeys(dir);
  const issuer = createTokenIssuer(keys.privateKey, 30);
  const service = createContentService({
    store,
    events,
    media,
    verifier: createTokenVerifier(keys.publicKey),
    internalToken: CONTENT_INTERNAL_TOKEN,
    log,
    clock,
    imageMaxPixels: loadConfig({}).IMAGE_MAX_PIXELS,
    ...overrides,
  });
  await service.start();
  const { server, url } = await listen(service.app, 0);
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    jsonCall(url, method, path, body, token);

  // As the consumer would: the envelope's data parsed with its contract before any handler sees it.
  const deliver = async (event: EventEnvelope) => {
    const checked = checkEvent(event.type, event.data);
    await service.handlers[checked.type]?.({ ...event, ...checked });
  };

  const user = async (
    role: Role,
    options: { topics?: string[]; timeZone?: string; email?: string } = {},
  ): Promise<TestUser> => {
    const userId = newId();
    const email = options.email ?? `${role}-${userId.slice(-6)}@example.com`;
    await deliver(
      envelope(AuthEvents.UserRegistered.type, `user-${userId}`, 1, {
        userId,
        email,
        source: 'self',
        role,
        type: 0,
        notiinfo: { time: '08:00', active: true },
        topics: options.topics ?? [],
        timeZone: options.timeZone ?? 'UTC',
      }),
    );
    const token = await issuer.signSession({ userId, email, role });
    return { userId, email, role, token };
  };

  const admin = await user('admin', { email: 'boss@example.com' });

  return {
    url,
    dir,
    store,
    events,
    media,
    service,
    admin,
    setNow(at) {
      base = typeof at === 'string' ? Date.parse(at) : at.getTime();
      tick = 0;
    },
    now: () => new Date(base + tick),
    call,
    post: (path, body, token) => call('POST', path, body ?? {}, token),
    get: (path, token) => call('GET', path, undefined, token),
    put: (path, body, token) => call('PUT', path, body ?? {}, token),
    user,
    deliver,
    async close() {
      await closeServer(server);
      events.close();
      await store.close();
      await media.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A real PNG (sharp-made) as a data URL. */
export async function pngDataUrl(width = 1200, height = 800, colour = '#3366cc'): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

export async function addTopic(h: ContentHarness, name: string, isDefault = false): Promise<string> {
  const reply = await h.post('/api/topic/add', { topic: name, default: isDefault }, h.admin.token);
  if (reply.status !== 200) throw new Error(`topic/add failed: ${reply.text}`);
  return reply.body.topic._id;
}

export interface PostInput {
  topic: string;
  heading?: string;
  body?: string;
  type?: 0 | 1;
  status?: boolean;
  image?: string;
  subjects?: unknown[];
}

export async function addPost(h: ContentHarness, input: PostInput): Promise<any> {
  const reply = await h.post(
    '/api/template/add',
    {
      heading: input.heading ?? 'A heading',
      body: input.body ?? 'A body that says something useful.',
      type: input.type ?? 0,
      status: input.status ?? true,
      topic: input.topic,
      ...(input.image !== undefined ? { image: input.image } : {}),
      ...(input.subjects !== undefined ? { subjects: input.subjects } : {}),
    },
    h.admin.token,
  );
  if (reply.status !== 200) throw new Error(`template/add failed: ${reply.text}`);
  return reply.body.template;
}
