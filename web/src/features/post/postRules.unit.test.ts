import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http';
import {
  backLinkText,
  bodyParagraphs,
  cleanPostPath,
  isLocked,
  LOGIN_TO_READ,
  postEvent,
  postFailureText,
  postGate,
  readPostQuery,
  UPGRADE_TO_READ,
} from './postRules';

const free = { type: 0, body: 'Read me' };
const premiumOpen = { type: 1, body: 'Premium words' };
const premiumLocked = { type: 1, locked: true };

describe('premium gating', () => {
  it('keeps the spec texts', () => {
    expect(LOGIN_TO_READ).toBe('Please login to read more...');
    expect(UPGRADE_TO_READ).toBe('This is a premium post. Upgrade to read more.');
  });

  it('treats a locked flag or a premium post without body as locked', () => {
    expect(isLocked(free)).toBe(false);
    expect(isLocked(premiumOpen)).toBe(false);
    expect(isLocked(premiumLocked)).toBe(true);
    expect(isLocked({ type: 1, body: '' })).toBe(true);
    expect(isLocked({ type: 0, locked: true })).toBe(true);
    expect(isLocked({ type: 0, body: '' })).toBe(false);
  });

  it('opens what the server sent whole, whoever reads', () => {
    expect(postGate(free, false, null)).toBe('open');
    expect(postGate(premiumOpen, true, 'premium')).toBe('open');
  });

  it('asks signed-out readers to log in and users to upgrade', () => {
    expect(postGate(premiumLocked, false, null)).toBe('login');
    expect(postGate(premiumLocked, true, 'user')).toBe('upgrade');
  });

  it('says plainly when a premium reader or admin still gets a locked post', () => {
    expect(postGate(premiumLocked, true, 'premium')).toBe('unavailable');
    expect(postGate(premiumLocked, true, 'admin')).toBe('unavailable');
  });
});

describe('backLinkText', () => {
  it('uses the plural post name', () => {
    expect(backLinkText('posts')).toBe('Back to all posts');
    expect(backLinkText('reminders')).toBe('Back to all reminders');
  });
});

describe('bodyParagraphs', () => {
  it('splits plain text at blank lines and keeps single line breaks', () => {
    expect(bodyParagraphs('One\nline two\n\nThree\r\n\r\n\r\nFour')).toEqual([
      'One\nline two',
      'Three',
      'Four',
    ]);
  });

  it('turns markup into text without keeping tags', () => {
    expect(bodyParagraphs('<p>Hello <b>you</b></p><p>A &amp; B<br>next</p><script>x</script>')).toEqual([
      'Hello you',
      'A & B\nnext',
      'x',
    ]);
  });

  it('gives nothing for a missing body', () => {
    expect(bodyParagraphs(undefined)).toEqual([]);
    expect(bodyParagraphs('  \n\n ')).toEqual([]);
  });
});

describe('post query', () => {
  it('reads uid, userid and a', () => {
    expect(readPostQuery('?uid=abc&userid=u1&a=like')).toEqual({ uid: 'abc', userid: 'u1', action: 'like' });
    expect(readPostQuery('?a=share')).toEqual({ uid: null, userid: null, action: 'share' });
    expect(readPostQuery('?a=other&uid=')).toEqual({ uid: null, userid: null, action: null });
  });

  it('drops the link parameters from the address, keeping the rest', () => {
    expect(cleanPostPath('/post/1', '?uid=abc&userid=u1&a=like')).toBe('/post/1');
    expect(cleanPostPath('/post/1', '?uid=abc&utm=x', '#comments')).toBe('/post/1?utm=x#comments');
  });
});

describe('postEvent', () => {
  it('sends the post id as value and the token when there is one', () => {
    expect(postEvent('t', 'email_like_click', 'p1', { userid: 'u1' })).toEqual({
      token: 't',
      eventType: 'email_like_click',
      eventValue: 'p1',
      metadata: { userid: 'u1' },
    });
    expect(postEvent(null, 'web_like_click', 'p1')).toEqual({
      eventType: 'web_like_click',
      eventValue: 'p1',
      metadata: {},
    });
  });
});

describe('postFailureText', () => {
  it('tells a missing post from an outage and keeps a refusal in the server words', () => {
    expect(postFailureText(new ApiError('Not found', 404), 'post')).toBe('This post could not be found.');
    expect(postFailureText(new ApiError('The content service is not available yet', 503), 'post')).toBe(
      "This post can't be loaded right now.",
    );
    expect(postFailureText(new Error('boom'), 'reminder')).toBe("This reminder can't be loaded right now.");
    expect(postFailureText(new ApiError('Invalid post id', 400), 'post')).toBe('Invalid post id');
  });
});
