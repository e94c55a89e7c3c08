import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { type FormEvent, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../../app/hooks';
import { notifyError } from '../../../../shared/notify';
import { addTopic } from '../../api';
import { longDate, PAGE_SIZE } from '../../paging';
import { selectTopics, topicsNeeded } from '../../topics';
import type { Topic } from '../../types';
import { adminGridProps } from '../gridProps';
import { mutate } from '../mutate';

const columns: GridColDef<Topic>[] = [
  { field: 'topic', headerName: 'Topic', flex: 1, minWidth: 160 },
  { field: 'default', headerName: 'Default', width: 100, valueFormatter: (v: boolean) => (v ? 'Yes' : 'No') },
  { field: '_id', headerName: 'Id', width: 220 },
  { field: 'createdAt', headerName: 'Created On', width: 170, valueFormatter: longDate },
];

/** admin.md §2: the topics (all of them come in one call) and the add-topic form. */
export function TopicsSection() {
  const dispatch = useAppDispatch();
  const topics = useAppSelector(selectTopics);
  const [name, setName] = useState('');
  const [page, setPage] = useState(0);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      notifyError('Please enter valid topic name');
      return;
    }
    const added = await mutate(() => addTopic(name.trim()), {
      success: 'New Topic Added Successfully',
      failure: { serverElse: 'Something Bad Happen' },
    });
    if (added) {
      setName('');
      dispatch(topicsNeeded({ force: true }));
    }
  };
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} component="form" onSubmit={submit} aria-label="Add topic">
        <TextField size="small" label="Topic Name" value={name} onChange={(e) => setName(e.target.value)} />
        <Button type="submit" variant="contained">
          Add Topic
        </Button>
      </Stack>
      <DataGrid<Topic>
        aria-label="Topics"
        rows={topics}
        getRowId={(t) => t._id}
        columns={columns}
        paginationModel={{ page, pageSize: PAGE_SIZE }}
        onPaginationModelChange={(m) => setPage(m.page)}
        initialState={{ columns: { columnVisibilityModel: { _id: false } } }}
        {...adminGridProps(page)}
        sx={{ minHeight: 200 }}
      />
    </Stack>
  );
}
