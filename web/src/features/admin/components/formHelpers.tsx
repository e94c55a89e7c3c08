import Button from '@mui/material/Button';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { useState } from 'react';
import { type MutationTexts, mutate } from './mutate';

/** The Actions column: an Edit button per row, named after the row for screen readers. */
export function editColumn<Row extends GridValidRowModel>(
  name: (row: Row) => string,
  onEdit: (row: Row) => void,
): GridColDef<Row> {
  return {
    field: 'actions',
    headerName: 'Actions',
    width: 90,
    sortable: false,
    renderCell: ({ row }) => (
      <Button size="small" onClick={() => onEdit(row)} aria-label={`Edit ${name(row)}`}>
        Edit
      </Button>
    ),
  };
}

/** An add or edit form's submit: busy while the call runs, its toast, then the list reloads and the form closes. */
export function useFormSubmit(onSaved: () => void, onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const run = async <T,>(call: () => Promise<T>, texts: MutationTexts): Promise<void> => {
    setBusy(true);
    const result = await mutate(call, texts);
    setBusy(false);
    if (result) {
      onSaved();
      onClose();
    }
  };
  return { busy, run };
}

/** admin.md §8: a failed edit of a user, template or promotion says 'Something Bad happen!' in a success style. */
export const EDIT_FAILURE: Pick<MutationTexts, 'failure' | 'failureStyle'> = {
  failure: { fixed: 'Something Bad happen!' },
  failureStyle: 'success',
};
