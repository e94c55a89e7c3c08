// What the Temporal tests share: a quiet worker runtime, activities whose internal call records its trace context, and
// span lookups.
import type { DueReader } from '@nudge/contracts';
import { createLogger, currentTraceparent } from '@nudge/platform';
import { context, SpanKind, trace } from '@opentelemetry/api';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { BusinessRefusal, createActivities, type InternalCall } from '../src/activities';

/** Workers and the bundler log warnings only (their INFO lines would bury the test output). Once per test file. */
export function quietTemporalRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // installed already in this file's process
  }
}

export const STEP = {
  subscriptionId: 'sub_1',
  kind: 'notice' as const,
  endAt: '2026-12-01T00:00:00.000Z',
  at: '2026-11-24T00:00:00.000Z',
};

/** The activities, with an internal call that records the trace context it is made in and answers `answer`. */
export function recordingActivities(answer: unknown) {
  const sent: (string | undefined)[] = [];
  const activities = createActivities({
    call: async <T>() => {
      sent.push(currentTraceparent());
      return answer as T;
    },
    mail: { send: async () => undefined } as never,
    whatsapp: { send: async () => undefined } as never,
    trackingSecret: Buffer.alloc(32),
    publicUrl: 'http://nudge.test',
    log: createLogger('test', 'silent'),
    clock: () => new Date(),
  });
  return { activities, sent };
}
export const RECONCILED = { status: true, refunded: [], failed: [], pending: [], retried: [] };

export const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

export const spanLookup = (exporter: InMemorySpanExporter) => ({
  byName(name: string) {
    const span = exporter.getFinishedSpans().find((s) => s.name === name);
    if (!span) throw new Error(`no span ${name} in ${exporter.getFinishedSpans().map((s) => s.name)}`);
    return span;
  },
});

/** Runs `work` inside a SERVER span, as a service's request handler runs (traceRequests). */
export const inRequestSpan = <T>(work: () => Promise<T>) => {
  const span = trace.getTracer('test').startSpan('POST /api/payment/cancel', { kind: SpanKind.SERVER });
  return context
    .with(trace.setSpan(context.active(), span), work)
    .finally(() => span.end())
    .then((result) => ({ result, span: span.spanContext() }));
};

export const reader = (n: number): DueReader => ({
  userId: `${String(n).padStart(24, '0')}`,
  email: `r${n}@example.com`,
  firstname: `R${n}`,
  role: 'user',
  timeZone: 'UTC',
  slot: '08:00',
  localDate: '2026-11-24',
  email_on: true,
  whatsapp: n === 1 ? '9876543210' : null,
});

/** Fake services answering the internal routes, counting calls per path. */
export function fakeServices(
  opts: {
    recorded?: string[];
    refuse?: string;
    due?: DueReader[];
    suppressed?: { channel: string; address: string }[];
  } = {},
) {
  const calls: Record<string, number> = {};
  const sent: unknown[] = [];
  /** Delivery facts reported to engagement's suppression list. */
  const facts: unknown[] = [];
  const call: InternalCall = async <T>(_service: string, path: string, body: unknown): Promise<T> => {
    calls[path] = (calls[path] ?? 0) + 1;
    if (path === opts.refuse) throw new BusinessRefusal(`${path}: refused`, 400);
    const b = body as any;
    const answers: Record<string, () => unknown> = {
      '/internal/reminders/claim': () => {
        const ids: string[] = b.sends.map((x: { sendId: string }) => x.sendId);
        const recorded = ids.filter((id) => opts.recorded?.includes(id));
        return {
          status: true,
          claimed: ids.filter((id) => !recorded.includes(id)),
          recorded,
          inDoubt: [],
          elsewhere: [],
          overLimit: [],
        };
      },
      '/internal/reminders/due': () => ({ status: true, readers: opts.due ?? [], next: null }),
      '/internal/reminders/due-pages': () => ({
        status: true,
        ends: (opts.due ?? []).length > 0 ? [null] : [],
        next: null,
      }),
      '/internal/reminders/posts': () => ({
        status: true,
        settings: {
          subjectprefix: 'Nudge:',
          emailcheckin: false,
          emailrecommendation: false,
          sitetitle: 'Nudge',
          footersitetitle: 'Nudge',
          emaillogo: '',
          headingcolor: '#111',
          paragraphcolor: '#333',
          buttoncolor: '#25e',
          buttonfontcolor: '#fff',
          backgroundcolor: '#fff',
          recommendationheading: 'More',
          emailupdateheadline: '',
        },
        posts: {
          p1: {
            template: { _id: 'p1', heading: 'Breathe', body: 'Slowly.', image: '' },
            subjects: [{ id: 's1', title: 'Breathe in' }],
            recommendations: [],
          },
        },
        picks: Object.fromEntries(b.readers?.map((r: { userId: string }) => [r.userId, 'p1']) ?? []),
      }),
      '/internal/tokens/links': () => ({
        status: true,
        links: Object.fromEntries(
          b.userIds?.map((id: string) => [id, { signin: 'si', unsubscribe: 'un' }]) ?? [],
        ),
      }),
      '/internal/email-stats': () => ({ status: true, templates: {} }),
      '/internal/suppressions/check': () => ({ status: true, suppressed: opts.suppressed ?? [] }),
      '/internal/suppressions/facts': () => {
        facts.push(...b.facts);
        return { status: true, recorded: b.facts.length, duplicates: 0 };
      },
      '/internal/reminders/sent': () => {
        sent.push(...b.sends);
        return { status: true, recorded: b.sends.length, duplicates: 0 };
      },
    };
    return answers[path]?.() as T;
  };
  return { call, calls, sent, facts };
}
