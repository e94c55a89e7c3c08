import { describe, expect, it } from 'vitest';
import { canReadPremium, gatePost, previewOf } from './gating';

const long = 'Breathe in slowly. '.repeat(20);
const premium = { _id: 'p', type: 1, heading: 'H', body: long };

describe('gatePost: premium bodies only for premium readers and admins', () => {
  it('gives premium readers and admins the whole post, and everyone the whole free post', () => {
    expect(gatePost(premium, 'premium')).toEqual(premium);
    expect(gatePost(premium, 'admin')).toEqual(premium);
    expect(gatePost({ ...premium, type: 0 }, null)).toEqual({ ...premium, type: 0 });
  });

  it('gives anonymous and plain readers no body, a lock and a preview of at most 150 characters', () => {
    for (const role of [null, 'user'] as const) {
      const gated = gatePost(premium, role);
      expect(gated).not.toHaveProperty('body');
      expect(gated.locked).toBe(true);
      expect(Array.from(gated.preview ?? '').length).toBeLessThanOrEqual(153);
      expect(long.startsWith((gated.preview ?? '').replace(/\.\.\.$/, ''))).toBe(true);
    }
    expect(canReadPremium('user')).toBe(false);
  });

  it('never previews more than half of a short premium body', () => {
    const gated = gatePost({ ...premium, body: '<p>The fourth breath is the one that counts.</p>' }, 'user');
    expect(gated.preview).toBe('The fourth breath is...');
  });

  it('previews plain text, whole words only', () => {
    expect(previewOf('<b>Hi</b> &amp; 😀😀😀', 6)).toBe('Hi &...');
    expect(previewOf('<p>Rest after dinner, then walk.</p>', 16)).toBe('Rest after...');
  });
});
