import Box from '@mui/material/Box';
import {
  DataGrid,
  type GridColDef,
  type GridColumnVisibilityModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { PagedList } from '../lists';
import { PAGE_SIZE, rowsOfPage } from '../paging';
import { adminGridProps } from './gridProps';

interface PagedTableProps<Row extends GridValidRowModel> {
  list: PagedList<Row>;
  columns: GridColDef<Row>[];
  /** Columns hidden until the admin shows them (the columns button of the toolbar). */
  hidden?: GridColumnVisibilityModel;
  label: string;
}

/**
 * A server-paged admin table (admin.md §2): pages of 10 appended as the admin pages forward, the range text
 * 'from - to of total', and selectable columns.
 */
export function PagedTable<Row extends GridValidRowModel & { _id: string }>({
  list,
  columns,
  hidden,
  label,
}: PagedTableProps<Row>) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(list.selectList);
  const { pageRequested } = list.actions;
  useEffect(() => {
    if (!state.loadedOnce && !state.loading && !state.failed) dispatch(pageRequested(0));
  }, [dispatch, pageRequested, state.loadedOnce, state.loading, state.failed]);
  return (
    <Box sx={{ width: '100%', overflowX: 'auto' }}>
      <DataGrid<Row>
        aria-label={label}
        rows={rowsOfPage(state.rows, state.page)}
        getRowId={(row) => row._id}
        columns={columns}
        rowCount={state.total}
        loading={state.loading}
        paginationMode="server"
        paginationModel={{ page: state.page, pageSize: PAGE_SIZE }}
        onPaginationModelChange={(model) => {
          if (model.page !== state.page) dispatch(pageRequested(model.page));
        }}
        initialState={{ columns: { columnVisibilityModel: hidden ?? {} } }}
        {...adminGridProps(state.page)}
        disableColumnFilter
        disableColumnSorting
        getRowHeight={() => 'auto'}
        sx={{ minHeight: 200, '& .MuiDataGrid-cell': { py: 1 } }}
      />
    </Box>
  );
}
