import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeLatest } from 'redux-saga/effects';
import { rootReducer } from '../../app/store';
import { errorMessage } from '../../shared/http';
import { notifyError } from '../../shared/notify';
import { needsFetch, nextServerPage, PAGE_SIZE } from './paging';

export interface PagedListState<Row> {
  /** Rows appended page by page, in server order. */
  rows: Row[];
  total: number;
  /** The 0-based page shown. */
  page: number;
  /** The page shown before the advance under way (restored if it fails, admin.md §4). */
  previousPage: number;
  loadedOnce: boolean;
  loading: boolean;
  /** The last load failed: the table stops asking until the admin pages, filters or an edit reloads it. */
  failed: boolean;
  /** The list's filter (the e-mail search of users and transactions); changing it starts over. */
  filter: string;
}

export interface ListPage<Row> {
  total: number;
  data: Row[];
}

export interface PagedListConfig<Row> {
  name: string;
  /** Fetches 1-based server page `page` (10 rows). */
  fetchPage: (page: number, filter: string) => Promise<ListPage<Row>>;
  /** The toast of a failed load (admin.md §8). */
  failureMessage: string;
}

/** One admin table's slice and saga: pages of 10 appended as the admin pages forward (admin.md §2, §4). */
export function createPagedList<Row>(config: PagedListConfig<Row>) {
  const initialState: PagedListState<Row> = {
    rows: [],
    total: 0,
    page: 0,
    previousPage: 0,
    loadedOnce: false,
    loading: false,
    failed: false,
    filter: '',
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
      loadStarted(state) {
        state.loading = true;
      },
      pageLoaded(state, action: PayloadAction<ListPage<Row>>) {
        // biome-ignore lint/suspicious/noExplicitAny: immer's draft of a generic row type
        state.rows = [...state.rows, ...(action.payload.data as any[])];
        state.total = action.payload.total;
        state.loadedOnce = true;
        state.loading = false;
        state.failed = false;
      },
      pageFailed(state) {
        state.page = state.previousPage;
        state.loading = false;
        state.failed = true;
      },
      /** Starts over from page 1 with a filter (or after an add or edit changed the rows). */
      reloaded(state, action: PayloadAction<string | undefined>) {
        state.rows = [];
        state.total = 0;
        state.page = 0;
        state.previousPage = 0;
        state.loadedOnce = false;
        state.failed = false;
        state.filter = action.payload ?? state.filter;
      },
    },
  });
  const injected = slice.injectInto(rootReducer);
  // The slice is injected at run time, so the reader's RootState does not name it: select from any state.
  const selectList = (state: object) => injected.selectSlice(state as never) as PagedListState<Row>;
  const { pageRequested, loadStarted, pageLoaded, pageFailed, reloaded } = slice.actions;

  function* load(): SagaIterator {
    const list: PagedListState<Row> = yield select(selectList);
    if (!needsFetch(list.rows.length, list.page, list.loadedOnce)) return;
    yield put(loadStarted());
    try {
      const result: ListPage<Row> = yield call(
        config.fetchPage,
        nextServerPage(list.rows.length, PAGE_SIZE),
        list.filter,
      );
      yield put(pageLoaded({ total: result.total ?? 0, data: result.data ?? [] }));
    } catch (error) {
      yield call([console, console.error], `${config.name}: load failed`, errorMessage(error));
      yield put(pageFailed());
      yield call(notifyError, config.failureMessage, `${config.name}-failed`);
    }
  }

  function* saga(): SagaIterator {
    yield takeLatest([pageRequested.type, reloaded.type], load);
  }

  return { slice, selectList, actions: { pageRequested, reloaded, pageLoaded, pageFailed }, saga };
}

export type PagedList<Row> = ReturnType<typeof createPagedList<Row>>;
