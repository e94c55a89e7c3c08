import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  DataGrid,
  type GridColDef,
  type GridColumnVisibilityModel,
  type GridSortModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { PagedList } from '../lists';
import { PAGE_SIZE, PAGE_SIZES } from '../paging';
import { adminGridProps } from './gridProps';
import { type FilterSpec, ListFilters, queryFromParams, useListParams } from './ListFilters';

interface PagedTableProps<Row extends GridValidRowModel> {
  list: PagedList<Row>;
  columns: GridColDef<Row>[];
  /** Columns hidden until the admin shows them (the columns button of the toolbar). */
  hidden?: GridColumnVisibilityModel;
  label: string;
  /** The list's filters (held in the URL). */
  filters?: FilterSpec[];
  /** The columns the server sorts by; the others do not offer sorting. */
  sortable?: string[];
  /** The server's order when the URL names none (shown as the sorted column). */
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  /** Opens a row's detail (its edit form): a click on the row or Enter on it. */
  onOpen?: (row: Row) => void;
}

const pageSizeOf = (value: string | null) => {
  const n = Number(value);
  return PAGE_SIZES.includes(n) ? n : PAGE_SIZE;
};

/**
 * A server-paged admin table (admin.md §2): pages of 10 by default (or 25, 50, 100), the range text
 * 'from - to of total', first/last and a jump to a page, server-side sorting, selectable columns, filters; the page,
 * size, sort and filters live in the URL. A failed load is an error with Retry, never an empty table.
 */
export function PagedTable<Row extends GridValidRowModel & { _id: string }>({
  list,
  columns,
  hidden,
  label,
  filters = [],
  sortable = [],
  defaultSort,
  onOpen,
}: PagedTableProps<Row>) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(list.selectList);
  const { params, update } = useListParams();
  const query = queryFromParams(params, filters);
  const queryKey = JSON.stringify(query);
  const pageSize = pageSizeOf(params.get('size'));
  const page = Math.max(0, (Number(params.get('page')) || 1) - 1);
  useEffect(() => {
    dispatch(list.actions.viewChanged({ query: JSON.parse(queryKey), pageSize, page }));
  }, [dispatch, list.actions, queryKey, pageSize, page]);

  // One model per sort: the grid takes a new model for a new sort, and goes back to the first page.
  const sortField = query.sort ?? defaultSort?.field;
  const sortOrder = query.sort ? (query.order === 'asc' ? 'asc' : 'desc') : defaultSort?.order;
  const sortModel: GridSortModel = useMemo(
    () => (sortField ? [{ field: sortField, sort: sortOrder ?? 'desc' }] : []),
    [sortField, sortOrder],
  );
  const cols = useMemo(
    () => columns.map((c) => ({ ...c, sortable: sortable.includes(c.field) })),
    [columns, sortable],
  );
  const lastPage = Math.max(1, Math.ceil(state.total / state.pageSize));
  const rows = state.pages[state.page] ?? [];
  const failedHere = state.failed && !state.pages[state.page];

  return (
    <Stack spacing={1.5}>
      {filters.length > 0 && <ListFilters filters={filters} label={label} />}
      {failedHere ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => dispatch(list.actions.reloaded())}>
              Retry
            </Button>
          }
        >
          {list.failureMessage}: the {label.toLowerCase()} could not be loaded.
        </Alert>
      ) : (
        <Box sx={{ width: '100%', overflowX: 'auto' }}>
          <DataGrid<Row>
            aria-label={label}
            rows={rows}
            getRowId={(row) => row._id}
            columns={cols}
            rowCount={state.total}
            loading={state.loading}
            paginationMode="server"
            paginationModel={{ page: state.page, pageSize: state.pageSize }}
            onPaginationModelChange={(model) => {
              if (model.pageSize !== state.pageSize)
                update({ size: model.pageSize === PAGE_SIZE ? '' : String(model.pageSize) });
              else if (model.page !== state.page) update({ page: model.page ? String(model.page + 1) : '' });
            }}
            sortingMode="server"
            sortModel={sortModel}
            onSortModelChange={(model) => {
              const first = model[0];
              const shown = sortModel[0];
              // The grid also reports the model it was given (when its columns change): only a change is a sort.
              if (first?.field === shown?.field && first?.sort === shown?.sort) return;
              update(first?.sort ? { sort: first.field, order: first.sort } : { sort: '', order: '' });
            }}
            initialState={{ columns: { columnVisibilityModel: hidden ?? {} } }}
            {...adminGridProps(state.page, state.pageSize)}
            disableColumnFilter
            onRowClick={onOpen ? ({ row }) => onOpen(row) : undefined}
            getRowHeight={() => 'auto'}
            sx={{
              minHeight: 200,
              '& .MuiDataGrid-cell': { py: 1 },
              ...(onOpen ? { '& .MuiDataGrid-row': { cursor: 'pointer' } } : {}),
            }}
          />
        </Box>
      )}
      {lastPage > 1 && !failedHere && (
        <JumpToPage lastPage={lastPage} onJump={(p) => update({ page: p > 1 ? String(p) : '' })} />
      )}
    </Stack>
  );
}

function JumpToPage({ lastPage, onJump }: { lastPage: number; onJump: (page: number) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > lastPage) {
      setError(`Enter a page from 1 to ${lastPage}`);
      return;
    }
    setError('');
    onJump(n);
  };
  return (
    <Stack
      component="form"
      direction="row"
      spacing={1}
      onSubmit={submit}
      aria-label="Go to page"
      sx={{ alignItems: 'flex-start', justifyContent: 'flex-end' }}
    >
      <TextField
        size="small"
        type="number"
        label={`Page (1-${lastPage})`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        error={Boolean(error)}
        helperText={error || undefined}
        slotProps={{ htmlInput: { min: 1, max: lastPage } }}
        sx={{ width: 140 }}
      />
      <Button type="submit" variant="outlined">
        Go
      </Button>
    </Stack>
  );
}
