import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeLatest } from 'redux-saga/effects';
import { rootReducer } from '../../app/store';
import { errorMessage } from '../../shared/http';
import { notifyError } from '../../shared/notify';
import { PAGE_SIZE } from './paging';

/** A list's filters and sort as the URL holds them ('q', 'role', 'sort', 'order'...); blank values left out. */
export type ListQuery = Record<string, string>;

export interface PagedListState<Row> {
  /** The pages held, by 0-based number: pages are kept as the admin pages forward, a jump loads only its page. */
  pages: Record<number, Row[]>;
  total: number;
  /** The 0-based page shown. */
  page: number;
  /** The page shown before the advance under way (restored if it fails, admin.md §4). */
  previousPage: number;
  loadedOnce: boolean;
  loading: boolean;
  /** The last load failed: the table shows an error with Retry until the admin retries, pages or filters. */
  failed: boolean;
  /** The filters and sort the pages were loaded with; changing them starts over. */
  query: ListQuery;
  pageSize: number;
}

export interface ListPage<Row> {
  total: number;
  data: Row[];
}

export interface PagedListConfig<Row> {
  name: string;
  /** Fetches 1-based server page `page` of `limit` rows, filtered and sorted by `query`. */
  fetchPage: (page: number, limit: number, query: ListQuery) => Promise<ListPage<Row>>;
  /** The toast of a failed load (admin.md §8). */
  failureMessage: string;
}

const sameQuery = (a: ListQuery, b: ListQuery) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
};

/** One admin table's slice and saga: server pages of 10 (or the size chosen) kept as the admin pages (admin.md §2, §4). */
export function createPagedList<Row>(config: PagedListConfig<Row>) {
  const initialState: PagedListState<Row> = {
    pages: {},
    total: 0,
    page: 0,
    previousPage: 0,
    loadedOnce: false,
    loading: false,
    failed: false,
    query: {},
    pageSize: PAGE_SIZE,
  };
  const slice = createSlice({
    name: config.name,
    initialState: initialState as PagedListState<Row>,
    reducers: {
      pageRequested(state, action: PayloadAction<number>) {
        state.previousPage = state.page;
        state.page = action.payload;
        state.failed = false;
      },
      /** The URL's view of the list: other filters, sort or page size start over; then the page asked. */
      viewChanged(state, action: PayloadAction<{ query: ListQuery; pageSize: number; page: number }>) {
        const { query, pageSize, page } = action.payload;
        if (!sameQuery(state.query, query) || state.pageSize !== pageSize) {
          state.pages = {};
          state.total = 0;
          state.loadedOnce = false;
          state.query = query;
          state.pageSize = pageSize;
          state.previousPage = 0;
        } else state.previousPage = state.page;
        state.page = page;
        state.failed = false;
      },
      loadStarted(state) {
        state.loading = true;
      },
      pageLoaded(state, action: PayloadAction<ListPage<Row> & { page?: number }>) {
        // biome-ignore lint/suspicious/noExplicitAny: immer's draft of a generic row type
        state.pages[action.payload.page ?? state.page] = action.payload.data as any[];
        state.total = action.payload.total;
        state.loadedOnce = true;
        state.loading = false;
        state.failed = false;
      },
      pageFailed(state) {
        state.page = state.loadedOnce ? state.previousPage : state.page;
        state.loading = false;
        state.failed = true;
      },
      /** Loads the shown page again from the server (after an add or edit changed the rows, or Retry). */
      reloaded(state) {
        state.pages = {};
        state.loadedOnce = false;
        state.failed = false;
      },
    },
  });
  const injected = slice.injectInto(rootReducer);
  // The slice is injected at run time, so the reader's RootState does not name it: select from any state.
  const selectList = (state: object) => injected.selectSlice(state as never) as PagedListState<Row>;
  const { pageRequested, viewChanged, loadStarted, pageLoaded, pageFailed, reloaded } = slice.actions;

  function* load(): SagaIterator {
    const list: PagedListState<Row> = yield select(selectList);
    if (list.pages[list.page]) return;
    yield put(loadStarted());
    try {
      const result: ListPage<Row> = yield call(config.fetchPage, list.page + 1, list.pageSize, list.query);
      yield put(pageLoaded({ total: result.total ?? 0, data: result.data ?? [], page: list.page }));
    } catch (error) {
      yield call([console, console.error], `${config.name}: load failed`, errorMessage(error));
      yield put(pageFailed());
      yield call(notifyError, config.failureMessage, `${config.name}-failed`);
    }
  }

  function* saga(): SagaIterator {
    yield takeLatest([pageRequested.type, viewChanged.type, reloaded.type], load);
  }

  return {
    slice,
    selectList,
    failureMessage: config.failureMessage,
    actions: { pageRequested, viewChanged, reloaded, pageLoaded, pageFailed },
    saga,
  };
}

export type PagedList<Row> = ReturnType<typeof createPagedList<Row>>;
