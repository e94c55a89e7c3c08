import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { type FormEvent, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../../app/hooks';
import { transactionsList } from '../../listDefinitions';
import { longDate } from '../../paging';
import type { Transaction } from '../../types';
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

/** admin.md §2: read-only, paged, with an optional e-mail filter. */
export function TransactionsSection() {
  const dispatch = useAppDispatch();
  const list = useAppSelector(transactionsList.selectList);
  const [email, setEmail] = useState(list.filter);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch(transactionsList.actions.reloaded(email.trim()));
  };
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} component="form" onSubmit={submit} role="search">
        <TextField
          size="small"
          label="Filter by email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Button type="submit" variant="outlined">
          Filter
        </Button>
      </Stack>
      <PagedTable
        list={transactionsList}
        columns={columns}
        label="Transactions"
        hidden={{ _id: false, amount: false }}
      />
    </Stack>
  );
}
