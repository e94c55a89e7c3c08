import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('TRUSTED_PROXIES', () => {
  it('defaults to loopback and takes addresses, CIDR ranges and express names', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual(['loopback']);
    expect(
      loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8,192.168.1.4,uniquelocal' }).TRUSTED_PROXIES,
    ).toEqual(['10.0.0.0/8', 'fd00::/8', '192.168.1.4', 'uniquelocal']);
  });

  it.each(['10.0.0.0/33', '*', 'gateway', '10.0.0/8', '::1/129'])(
    'refuses %j, naming the variable',
    (value) => {
      expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(/TRUSTED_PROXIES/);
    },
  );
});
