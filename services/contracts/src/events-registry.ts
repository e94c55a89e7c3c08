import { z } from 'zod';
import { ErasureEvents } from './erasure';
import { AuthEvents } from './events-auth';
import { BillingEvents } from './events-billing';
import { ContentEvents } from './events-content';
import { EngagementEvents } from './events-engagement';
import { ReminderEvents } from './events-reminders';
import { ReportingEvents } from './events-reporting';
import { SuppressionEvents } from './suppressions';

/**
 * Every event type of every service, in one place: append refuses a type that is not here or data that does not
 * parse, and consumers parse what they receive with the same schemas (version rule: docs/decisions/0001).
 */
export interface EventDef<S extends z.ZodType = z.ZodType> {
  readonly type: string;
  readonly data: S;
}

const GROUPS: Record<string, EventDef>[] = [
  AuthEvents,
  BillingEvents,
  ContentEvents,
  EngagementEvents,
  ErasureEvents,
  ReminderEvents,
  ReportingEvents,
  SuppressionEvents,
];

/** Schema of each event type's data, by versioned type name. */
export const EVENT_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map(
  GROUPS.flatMap((group) => Object.values(group).map((def) => [def.type, def.data] as const)),
);

/**
 * Upcasters: an older version of an event type to the next one. When `x.Y.v2` is added, `x.Y.v1` gets an entry here
 * (`{ to: 'x.Y.v2', up: (v1Data) => v2Data }`), v1 leaves the contract's event object, and consumers only ever see v2.
 * The v1 data schema stays here (`from`) so stored v1 events are still checked before they are upcast.
 */
export const UPCASTERS: ReadonlyMap<string, { from: z.ZodType; to: string; up: (data: unknown) => unknown }> =
  new Map();

/** The envelope every consumer parses (bus message, event history page). */
export const EventEnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  stream: z.string().min(1),
  version: z.number().int().min(1),
  occurredAt: z.string(),
  actor: z.string().nullable(),
  data: z.unknown(),
  meta: z.object({ requestId: z.string().optional() }).catch({}).default({}),
});

/** An event whose type is unknown or whose data does not match its contract. */
export class EventSchemaError extends Error {
  override name = 'EventSchemaError';
  constructor(
    readonly type: string,
    readonly field: string | null,
    detail: string,
  ) {
    super(field === null ? `event ${type}: ${detail}` : `event ${type}: field ${field}: ${detail}`);
  }
}

/**
 * Data objects already parsed by their type's contract schema (with the type) (checkEvent on consume, eventData): a handler's
 * eventData of an event the consumer has just checked returns it without parsing it a second time.
 */
const parsedAs = new WeakMap<object, string>();
const remember = <T>(type: string, data: T): T => {
  if (typeof data === 'object' && data !== null) parsedAs.set(data, type);
  return data;
};

function fail(type: string, error: z.ZodError): never {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : '(data)';
  throw new EventSchemaError(type, field, issue?.message ?? 'invalid');
}

/**
 * An event brought to its type's newest version when an upcaster exists (parsed on the way), else as it is, unparsed:
 * what the event store's readers (projections, rebuilds, readStream) see. Cheap for the common case (no upcaster).
 */
export function upcast(type: string, data: unknown): { type: string; data: unknown } {
  return UPCASTERS.has(type) ? checkEvent(type, data) : { type, data };
}

/**
 * Checks one event against the contracts and brings it to its newest version: returns the (parsed) newest type and
 * data. Throws EventSchemaError naming the type (and the field) when the type is unknown or the data invalid.
 */
export function checkEvent(type: string, data: unknown): { type: string; data: unknown } {
  let current = { type, data };
  for (let hops = 0; hops < 16; hops += 1) {
    const upcaster = UPCASTERS.get(current.type);
    if (!upcaster) break;
    const parsed = upcaster.from.safeParse(current.data);
    if (!parsed.success) fail(current.type, parsed.error);
    current = { type: upcaster.to, data: upcaster.up(parsed.data) };
  }
  const schema = EVENT_SCHEMAS.get(current.type);
  if (!schema) throw new EventSchemaError(type, null, 'unknown event type (not in services/contracts)');
  const parsed = schema.safeParse(current.data);
  if (!parsed.success) fail(current.type, parsed.error);
  return { type: current.type, data: remember(current.type, parsed.data) };
}

/**
 * The data of an event of a known type, parsed with its contract schema (what a handler or projection reads instead
 * of casting). Throws EventSchemaError when the event is of another type or its data does not match.
 */
export function eventData<S extends z.ZodType>(
  def: EventDef<S>,
  event: { type: string; data: unknown },
): z.infer<S> {
  if (event.type !== def.type) throw new EventSchemaError(event.type, null, `expected ${def.type}`);
  // Parsed already by this type's schema (the registry holds `def.data` for `def.type`): no second parse.
  if (typeof event.data === 'object' && event.data !== null && parsedAs.get(event.data) === def.type) {
    return event.data as z.infer<S>;
  }
  const parsed = def.data.safeParse(event.data);
  if (!parsed.success) return fail(def.type, parsed.error);
  return remember(def.type, parsed.data);
}
