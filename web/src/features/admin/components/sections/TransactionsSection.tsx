import type { GridColDef } from '@mui/x-data-grid';
import { transactionsList } from '../../listDefinitions';
import { longDate } from '../../paging';
import type { Transaction } from '../../types';
import type { FilterSpec } from '../ListFilters';
import { PagedTable } from '../PagedTable';

const columns: GridColDef<Transaction>[] = [
  { field: 'email', headerName: 'Email', flex: 1, minWidth: 200 },
  { field: 'subscriptionId', headerName: 'Subscription Id', width: 200 },
  { field: 'status', headerName: 'Status', width: 110 },
  { field: 'amount', headerName: 'Amount', width: 110, valueFormatter: (v: number) => (v / 100).toFixed(2) },
  { field: 'endAt', headerName: 'Ends On', width: 170, valueFormatter: longDate },
  { field: 'createdAt', headerName: 'Created On', width: 170, valueFormatter: longDate },
  { field: '_id', headerName: 'Id', width: 220 },
];

const STATUS_OPTIONS = [
  'active',
  'created',
  'authenticated',
  'pending',
  'halted',
  'cancelled',
  'completed',
  'paused',
  'expired',
].map((v) => ({ value: v, label: v }));
const FILTERS: FilterSpec[] = [
  { key: 'email', label: 'Filter by email', kind: 'text' },
  { key: 'status', label: 'Status', kind: 'select', options: STATUS_OPTIONS },
  { key: 'from', label: 'Created from', kind: 'date' },
  { key: 'to', label: 'Created to', kind: 'date' },
];

/** admin.md §2: read-only, paged, with an optional e-mail filter (and status and date, newest or oldest first). */
export function TransactionsSection() {
  return (
    <PagedTable
      list={transactionsList}
      columns={columns}
      label="Transactions"
      filters={FILTERS}
      sortable={['createdAt']}
      defaultSort={{ field: 'createdAt', order: 'desc' }}
      hidden={{ _id: false, amount: false }}
    />
  );
}
