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
  it('keeps the pages as the admin pages forward', () => {
    let state = reducer(undefined, list.actions.pageRequested(0));
    state = reducer(state, list.actions.pageLoaded({ total: 15, data: rows(0, 10) }));
    state = reducer(state, list.actions.pageRequested(1));
    state = reducer(state, list.actions.pageLoaded({ total: 15, data: rows(10, 5) }));
    expect(Object.values(state.pages).flat()).toHaveLength(15);
    expect(state.page).toBe(1);
  });

  it('restores the page number when an advance fails, and stops asking until the admin acts', () => {
    let state = reducer(undefined, list.actions.pageLoaded({ total: 15, data: rows(0, 10) }));
    state = reducer(state, list.actions.pageRequested(1));
    state = reducer(state, list.actions.pageFailed());
    expect(state.page).toBe(0);
    expect(state.failed).toBe(true);
    state = reducer(state, list.actions.reloaded());
    expect(state).toMatchObject({ pages: {}, page: 0, failed: false, loadedOnce: false });
  });

  it('starts over when the filters, sort or page size change, and keeps the pages when only the page does', () => {
    let state = reducer(undefined, list.actions.viewChanged({ query: {}, pageSize: 10, page: 0 }));
    state = reducer(state, list.actions.pageLoaded({ total: 300, data: rows(0, 10) }));
    state = reducer(state, list.actions.viewChanged({ query: {}, pageSize: 10, page: 29 }));
    expect(state.pages[0]).toHaveLength(10);
    expect(state.page).toBe(29);
    state = reducer(state, list.actions.viewChanged({ query: { role: 'admin' }, pageSize: 10, page: 0 }));
    expect(state).toMatchObject({ pages: {}, total: 0, query: { role: 'admin' }, page: 0 });
    state = reducer(state, list.actions.pageLoaded({ total: 3, data: rows(0, 3) }));
    state = reducer(state, list.actions.viewChanged({ query: { role: 'admin' }, pageSize: 25, page: 0 }));
    expect(state).toMatchObject({ pages: {}, pageSize: 25 });
  });
});
