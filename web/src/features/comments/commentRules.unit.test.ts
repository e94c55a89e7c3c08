import { describe, expect, it } from 'vitest';
import {
  appendPage,
  COMMENT_PAGE_SIZE,
  canComment,
  canSendComment,
  commentAuthorName,
  commentCounter,
  formatCommentDate,
  hasMoreComments,
  isOwnComment,
  NAME_UPDATED,
  nameFormErrors,
} from './commentRules';
import type { PostComment } from './types';

const comment = (id: string, email = 'a@example.com'): PostComment => ({
  _id: id,
  message: `m${id}`,
  createdAt: '2024-03-05T12:00:00.000Z',
  userDetails: { email, firstname: 'Ada', lastname: 'Lovelace' },
});

describe('canComment (reader.md §5)', () => {
  const base = { isLogin: true, commentsOn: true, postType: 0, role: 'user' };

  it('lets a signed-in reader comment on a free post', () => {
    expect(canComment(base)).toBe(true);
  });

  it('needs login and the comments setting', () => {
    expect(canComment({ ...base, isLogin: false })).toBe(false);
    expect(canComment({ ...base, commentsOn: false })).toBe(false);
    expect(canComment({ ...base, role: 'admin', commentsOn: false })).toBe(false);
  });

  it('keeps premium posts for premium readers and admins', () => {
    expect(canComment({ ...base, postType: 1 })).toBe(false);
    expect(canComment({ ...base, postType: 1, role: 'premium' })).toBe(true);
    expect(canComment({ ...base, postType: 1, role: 'admin' })).toBe(true);
    expect(canComment({ ...base, postType: 1, role: null })).toBe(false);
  });
});

describe('comment counter', () => {
  it('counts to 5000 and turns red at 5000', () => {
    expect(commentCounter(0)).toEqual({ text: '0/5000', atLimit: false });
    expect(commentCounter(4999)).toEqual({ text: '4999/5000', atLimit: false });
    expect(commentCounter(5000)).toEqual({ text: '5000/5000', atLimit: true });
  });

  it('sends only a non-blank comment within the limit', () => {
    expect(canSendComment('  ')).toBe(false);
    expect(canSendComment('Hi')).toBe(true);
    expect(canSendComment('x'.repeat(5000))).toBe(true);
    expect(canSendComment('x'.repeat(5001))).toBe(false);
  });
});

describe('name form', () => {
  it('asks for both names with the spec message', () => {
    expect(nameFormErrors({ firstname: '', lastname: 'L' })).toEqual({ firstname: 'Please enter firstname' });
    expect(nameFormErrors({ firstname: 'F', lastname: '  ' })).toEqual({
      lastname: 'Please enter firstname',
    });
    expect(nameFormErrors({ firstname: ' ', lastname: '' })).toEqual({
      firstname: 'Please enter firstname',
      lastname: 'Please enter firstname',
    });
    expect(nameFormErrors({ firstname: 'Ada', lastname: 'Lovelace' })).toEqual({});
    expect(NAME_UPDATED).toBe('Name updated successfully');
  });
});

describe('show more paging', () => {
  it('uses pages of 5', () => {
    expect(COMMENT_PAGE_SIZE).toBe(5);
  });

  it('offers more while full pages come back and fewer than the total are shown', () => {
    expect(hasMoreComments({ lastPageSize: 5, loaded: 5 })).toBe(true);
    expect(hasMoreComments({ lastPageSize: 5, loaded: 5, total: 12 })).toBe(true);
    expect(hasMoreComments({ lastPageSize: 5, loaded: 5, total: 5 })).toBe(false);
    expect(hasMoreComments({ lastPageSize: 4, loaded: 9, total: 20 })).toBe(false);
    expect(hasMoreComments({ lastPageSize: 0, loaded: 0 })).toBe(false);
  });

  it('appends a page without repeating comments already shown', () => {
    const shown = [comment('new'), comment('1'), comment('2')];
    expect(appendPage(shown, [comment('2'), comment('3')]).map((c) => c._id)).toEqual(['new', '1', '2', '3']);
  });
});

describe('comment display', () => {
  it("shows the menu only on comments the server marks as the signed-in reader's", () => {
    expect(isOwnComment({ ...comment('1'), mine: true }, true)).toBe(true);
    expect(isOwnComment({ ...comment('1'), mine: false }, true)).toBe(false);
    expect(isOwnComment(comment('1'), true)).toBe(false);
    expect(isOwnComment({ ...comment('1'), mine: true }, false)).toBe(false);
  });

  it('names the author', () => {
    expect(commentAuthorName({ firstname: 'Ada', lastname: 'Lovelace' })).toBe('Ada Lovelace');
    expect(commentAuthorName({ firstname: 'Ada' })).toBe('Ada');
    expect(commentAuthorName(null)).toBe('Anonymous');
  });

  it('writes dates in en-GB long form', () => {
    expect(formatCommentDate('2024-03-05T12:00:00.000Z')).toBe('5 March 2024');
    expect(formatCommentDate('nonsense')).toBe('');
    expect(formatCommentDate(undefined)).toBe('');
  });
});
