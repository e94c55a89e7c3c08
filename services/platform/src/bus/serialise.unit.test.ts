import { describe, expect, it } from 'vitest';
import { silentLog } from '../events/testing';
import { createEventBus } from './index';
import { assertWireMessage, headersToStrings } from './serialise';

describe('bus wire format', () => {
  it('accepts string keys, values and header values only', () => {
    expect(() => assertWireMessage({ topic: 't', key: 'k', value: '{}', headers: { a: 'b' } })).not.toThrow();
    const bad = [
      { topic: '', key: 'k', value: 'v', headers: {} },
      { topic: 't', key: null, value: 'v', headers: {} },
      { topic: 't', key: 'k', value: Buffer.from('v'), headers: {} },
      { topic: 't', key: 'k', value: 'v', headers: { a: 1 } },
      { topic: 't', key: 'k', value: 'v', headers: { a: undefined } },
      { topic: 't', key: 'k', value: 'v', headers: [] },
      { topic: 't', key: 'k', value: 'v' },
    ];
    for (const message of bad) expect(() => assertWireMessage(message as never)).toThrow(TypeError);
  });

  it('turns Kafka header Buffers (and arrays of them) into strings', () => {
    expect(
      headersToStrings({
        a: Buffer.from('é-1'),
        b: 'plain',
        c: [Buffer.from('x'), Buffer.from('y')],
        d: undefined,
      }),
    ).toEqual({ a: 'é-1', b: 'plain', c: 'y' });
    expect(headersToStrings(undefined)).toEqual({});
  });
});

describe('createEventBus', () => {
  it('refuses a configuration it cannot build', () => {
    expect(() => createEventBus({ kind: 'inprocess', clientId: 'x', log: silentLog() })).toThrow(
      /document store/,
    );
    expect(() => createEventBus({ kind: 'kafka', clientId: 'x', log: silentLog() })).toThrow(/brokers/);
    expect(() => createEventBus({ kind: 'nats' as never, clientId: 'x', log: silentLog() })).toThrow(
      /unknown kind/,
    );
  });

  it('builds a Kafka bus without connecting', () => {
    const bus = createEventBus({ kind: 'kafka', brokers: ['127.0.0.1:9'], clientId: 'x', log: silentLog() });
    expect(bus.kind).toBe('kafka');
  });
});
