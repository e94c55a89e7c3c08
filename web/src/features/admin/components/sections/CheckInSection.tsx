import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { useAppDispatch } from '../../../../app/hooks';
import { notifyError } from '../../../../shared/notify';
import { addCheckin, fetchAllCheckins, updateCheckin } from '../../api';
import { checkinsCsv } from '../../csv';
import { saveFile } from '../../download';
import { checkinList } from '../../listDefinitions';
import { longDate } from '../../paging';
import type { CheckinQuestion } from '../../types';
import { FormDialog } from '../FormDialog';
import { editColumn, useFormSubmit } from '../formHelpers';
import { PagedTable } from '../PagedTable';
import { SelectField } from '../SelectField';
import { StatusSwitch } from '../StatusSwitch';
import { ChipListInput } from '../TagsInput';

export function CheckInSection() {
  const dispatch = useAppDispatch();
  const [editing, setEditing] = useState<CheckinQuestion | 'new' | null>(null);
  const columns: GridColDef<CheckinQuestion>[] = [
    { field: '_id', headerName: 'Id', width: 220 },
    { field: 'body', headerName: 'Body', flex: 1, minWidth: 200 },
    { field: 'order', headerName: 'Order', width: 80 },
    { field: 'scale', headerName: 'Scale', width: 90 },
    { field: 'tags', headerName: 'Tags', width: 160, valueFormatter: (v: string[]) => (v ?? []).join(', ') },
    {
      field: 'status',
      headerName: 'Status',
      width: 90,
      valueFormatter: (v: boolean) => (v ? 'Active' : 'Paused'),
    },
    { field: 'createdAt', headerName: 'Created On', width: 160, valueFormatter: longDate },
    editColumn<CheckinQuestion>((row) => row.body, setEditing),
  ];
  const downloadAll = async () => {
    try {
      const all = await fetchAllCheckins();
      saveFile('CheckIns.csv', checkinsCsv(all.data ?? []));
    } catch {
      notifyError('Something went wrong');
    }
  };
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1}>
        <Button variant="contained" onClick={() => setEditing('new')}>
          Add Check-In Question
        </Button>
        <Button variant="outlined" onClick={() => void downloadAll()}>
          Download all
        </Button>
      </Stack>
      {/* admin.md §2: default visible columns Body, Order, Scale, Tags, Status. */}
      <PagedTable
        list={checkinList}
        columns={columns}
        label="Check-in questions"
        hidden={{ _id: false, createdAt: false }}
      />
      {editing && (
        <CheckinDialog
          question={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => dispatch(checkinList.actions.reloaded())}
        />
      )}
    </Stack>
  );
}

function CheckinDialog({
  question,
  onClose,
  onSaved,
}: {
  question: CheckinQuestion | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  // admin.md §3: a new question is scale normal, status active, order 0.
  const [body, setBody] = useState(question?.body ?? '');
  const [order, setOrder] = useState(String(question?.order ?? 0));
  const [scale, setScale] = useState<'normal' | 'reverse'>(question?.scale ?? 'normal');
  const [tags, setTags] = useState<string[]>(question?.tags ?? []);
  const [status, setStatus] = useState(question?.status ?? true);
  const { busy, run } = useFormSubmit(onSaved, onClose);
  const submit = async () => {
    if (!body.trim() || order.trim() === '') {
      notifyError(!body.trim() ? 'Please enter the question' : 'Order must be a number');
      return;
    }
    const fields = { body: body.trim(), order: Number(order), scale, tags, status };
    await (question
      ? run(() => updateCheckin(question._id, fields), {
          success: 'Question updated successfully',
          failure: { fixed: 'Error updating question' },
        })
      : run(() => addCheckin(fields), {
          success: 'Check-In Question Added Successfully',
          failure: { serverElse: 'Something went wrong!' },
        }));
  };
  return (
    <FormDialog
      open
      title={question ? 'Edit Check-In Question' : 'Add Check-In Question'}
      busy={busy}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <TextField
        label="Body"
        required
        multiline
        minRows={2}
        value={body}
        onChange={(e) => setBody(e.target.value)}
      />
      <TextField
        label="Order"
        required
        type="number"
        value={order}
        onChange={(e) => setOrder(e.target.value)}
        slotProps={{ htmlInput: { min: 0, step: 1 } }}
      />
      <SelectField<'normal' | 'reverse'>
        label="Scale"
        required
        value={scale}
        options={[
          { value: 'normal', label: 'normal' },
          { value: 'reverse', label: 'reverse' },
        ]}
        onChange={setScale}
      />
      <ChipListInput label="Tag" values={tags} onChange={setTags} />
      <Box>
        <StatusSwitch checked={status} onChange={setStatus} />
      </Box>
    </FormDialog>
  );
}
