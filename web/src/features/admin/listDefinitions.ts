import {
  fetchCheckins,
  fetchEventLogs,
  fetchPromotions,
  fetchReports,
  fetchTemplates,
  fetchTransactions,
  fetchUsers,
} from './api';
import { createPagedList } from './lists';
import type {
  AdminTemplate,
  AdminUser,
  CheckinQuestion,
  EventLog,
  Promotion,
  Report,
  Transaction,
} from './types';

/** admin.md §8: the admin lists' load failures. */
const BAD = 'Something Bad Happen';
const WRONG = 'Something went wrong';

export const usersList = createPagedList<AdminUser>({
  name: 'users',
  fetchPage: fetchUsers,
  failureMessage: BAD,
});
export const templatesList = createPagedList<AdminTemplate>({
  name: 'templates',
  fetchPage: fetchTemplates,
  failureMessage: BAD,
});
export const promotionsList = createPagedList<Promotion>({
  name: 'promotions',
  fetchPage: fetchPromotions,
  failureMessage: BAD,
});
export const transactionsList = createPagedList<Transaction>({
  name: 'transactions',
  fetchPage: fetchTransactions,
  failureMessage: BAD,
});
/** 'adminCheckin': the reader already has a 'checkin' slice (the wellbeing score). */
export const checkinList = createPagedList<CheckinQuestion>({
  name: 'adminCheckin',
  fetchPage: fetchCheckins,
  failureMessage: WRONG,
});
export const reportList = createPagedList<Report>({
  name: 'report',
  fetchPage: fetchReports,
  failureMessage: WRONG,
});
export const eventLogsList = createPagedList<EventLog>({
  name: 'eventlogs',
  fetchPage: fetchEventLogs,
  failureMessage: WRONG,
});

export const ALL_LISTS = [
  usersList,
  templatesList,
  promotionsList,
  transactionsList,
  checkinList,
  reportList,
  eventLogsList,
] as const;
