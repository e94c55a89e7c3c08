import { describe, expect, it } from 'vitest';
import { emailShareHref, LINK_COPIED, postUrl, shareText, whatsAppShareHref } from './shareLinks';

describe('share links', () => {
  it('point at the post page', () => {
    expect(postUrl('https://nudge.example', 'abc123')).toBe('https://nudge.example/post/abc123');
    expect(postUrl('https://nudge.example/', 'a b')).toBe('https://nudge.example/post/a%20b');
  });

  it('carry the title and the link', () => {
    expect(shareText('https://n.example/post/1', ' Sleep well ')).toBe(
      'Sleep well\nhttps://n.example/post/1',
    );
    expect(shareText('https://n.example/post/1', '')).toBe('https://n.example/post/1');
  });

  it('open an e-mail with subject and body', () => {
    expect(emailShareHref('https://n.example/post/1', 'Rest & repair')).toBe(
      'mailto:?subject=Rest%20%26%20repair&body=Rest%20%26%20repair%0Ahttps%3A%2F%2Fn.example%2Fpost%2F1',
    );
    expect(emailShareHref('https://n.example/post/1', '')).toBe(
      'mailto:?body=https%3A%2F%2Fn.example%2Fpost%2F1',
    );
  });

  it('open WhatsApp with the text', () => {
    expect(whatsAppShareHref('https://n.example/post/1', 'Walk')).toBe(
      'https://wa.me/?text=Walk%0Ahttps%3A%2F%2Fn.example%2Fpost%2F1',
    );
  });

  it('confirm a copy with the spec text', () => {
    expect(LINK_COPIED).toBe('Link copied to clipboard');
  });
});
