import { describe, expect, it } from 'vitest';
import { createPagedList } from './lists';

const list = createPagedList<{ _id: string }>({
  name: 'pagingUnderTest',
  fetchPage: async () => ({ total: 0, data: [] }),
  failureMessage: 'Something Bad Happen',
});
const { reducer } = list.slice;
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ _id: String(from + i) }));

describe('an admin list', () => {
  it('appends pages as the admin pages forward', () => {
    let state = reducer(undefined, list.actions.pageRequested(0));
    state = reducer(state, list.actions.pageLoaded({ total: 15, data: rows(0, 10) }));
    state = reducer(state, list.actions.pageRequested(1));
    state = reducer(state, list.actions.pageLoaded({ total: 15, data: rows(10, 5) }));
    expect(state.rows).toHaveLength(15);
    expect(state.page).toBe(1);
  });

  it('restores the page number when an advance fails, and stops asking until the admin acts', () => {
    let state = reducer(undefined, list.actions.pageLoaded({ total: 15, data: rows(0, 10) }));
    state = reducer(state, list.actions.pageRequested(1));
    state = reducer(state, list.actions.pageFailed());
    expect(state.page).toBe(0);
    expect(state.failed).toBe(true);
    state = reducer(state, list.actions.reloaded('a@x.com'));
    expect(state).toMatchObject({ rows: [], page: 0, failed: false, loadedOnce: false, filter: 'a@x.com' });
  });
});
