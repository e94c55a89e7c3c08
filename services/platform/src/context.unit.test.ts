import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentContext, currentRequestId, runWithContext, SharedContextManager } from './context';

// The request context and OpenTelemetry's context share one AsyncLocalStorage; each must still behave as if it had
// its own: setting one never drops the other, across awaits.

const TRACE = createContextKey('a trace value');
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the request context and the trace context in one storage', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new SharedContextManager());
  });
  afterAll(() => {
    context.disable();
  });

  it('keeps the request context under a trace context made without it, and the trace context under a request', async () => {
    expect(currentContext()).toBeUndefined();
    await runWithContext({ requestId: 'r1', actor: 'u1' }, async () => {
      await tick();
      // As a consumer or a server span does: a context extracted from headers, derived from ROOT_CONTEXT.
      await context.with(ROOT_CONTEXT.setValue(TRACE, 't1'), async () => {
        await tick();
        expect(context.active().getValue(TRACE)).toBe('t1');
        expect(currentContext()).toEqual({ requestId: 'r1', actor: 'u1' });
        await runWithContext({ requestId: 'r2' }, async () => {
          await tick();
          expect(currentRequestId()).toBe('r2');
          expect(context.active().getValue(TRACE)).toBe('t1');
        });
        expect(currentRequestId()).toBe('r1');
      });
      expect(context.active().getValue(TRACE)).toBeUndefined();
      expect(currentRequestId()).toBe('r1');
    });
    expect(currentRequestId()).toBeUndefined();
  });

  it('binds a function to a trace context, the request context of the call kept', async () => {
    const bound = context.bind(ROOT_CONTEXT.setValue(TRACE, 't2'), () => [
      context.active().getValue(TRACE),
      currentRequestId(),
    ]);
    expect(runWithContext({ requestId: 'r3' }, bound)).toEqual(['t2', 'r3']);
    expect(bound()).toEqual(['t2', undefined]);
  });
});
