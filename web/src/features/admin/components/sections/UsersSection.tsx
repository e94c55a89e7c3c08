import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { type FormEvent, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../../app/hooks';
import { notifyError } from '../../../../shared/notify';
import { AdminDeleteUser } from '../../../account-deletion/components/AdminDeleteUser';
import { addUsers, updateUser } from '../../api';
import { fetchText, saveFile } from '../../download';
import { usersList } from '../../listDefinitions';
import { longDate } from '../../paging';
import { DEFAULT_NOTIFICATION_TIME, exportRangeError, NOTIFICATION_TIMES } from '../../rules';
import { selectTopics } from '../../topics';
import type { AdminUser } from '../../types';
import { FormDialog } from '../FormDialog';
import { EDIT_FAILURE, editColumn, useFormSubmit } from '../formHelpers';
import type { FilterSpec } from '../ListFilters';
import { PagedTable } from '../PagedTable';
import { SelectField } from '../SelectField';

const STATUSES = ['active', 'autoactive', 'autppause', 'manual'] as const;
const TIME_OPTIONS = NOTIFICATION_TIMES.map((t) => ({ value: t, label: t }));
const USER_TYPES = [
  { value: 0 as const, label: 'Normal' },
  { value: 1 as const, label: 'Cold' },
];

const STATUS_OPTIONS = STATUSES.map((v) => ({ value: v, label: v }));
const ROLE_OPTIONS = ['user', 'premium', 'admin'].map((v) => ({ value: v, label: v }));
const TYPE_OPTIONS = USER_TYPES.map((t) => ({ value: String(t.value), label: t.label }));

export function UsersSection() {
  const dispatch = useAppDispatch();
  const list = useAppSelector(usersList.selectList);
  const topics = useAppSelector(selectTopics);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const reload = () => dispatch(usersList.actions.reloaded());

  const columns: GridColDef<AdminUser>[] = [
    editColumn<AdminUser>((row) => row.email, setEditing),
    { field: 'email', headerName: 'Email', flex: 1, minWidth: 200 },
    { field: 'firstname', headerName: 'First Name', width: 120 },
    { field: 'lastname', headerName: 'Last Name', width: 120 },
    { field: 'role', headerName: 'Role', width: 90 },
    {
      field: 'type',
      headerName: 'Type',
      width: 90,
      valueFormatter: (v: number) => (v === 1 ? 'cold' : 'normal'),
    },
    { field: 'notification_time', headerName: 'Notification Time', width: 140 },
    { field: 'notification_status', headerName: 'Notification Status', width: 150 },
    {
      field: 'active',
      headerName: 'Active',
      width: 90,
      valueGetter: (_v, row) => (row.notiinfo?.active ? 'Yes' : 'No'),
    },
    { field: 'timeZone', headerName: 'Time Zone', width: 150 },
    { field: 'emails_sent', headerName: 'Emails Sent', width: 110 },
    { field: 'emails_open', headerName: 'Emails Opened', width: 120 },
    { field: 'email_open_rate', headerName: 'Open Rate %', width: 110 },
    { field: 'last_email_open', headerName: 'Last Email Open', width: 160, valueFormatter: longDate },
    { field: 'last_app_login', headerName: 'Last App Login', width: 160, valueFormatter: longDate },
    { field: 'createdAt', headerName: 'Created On', width: 160, valueFormatter: longDate },
    { field: '_id', headerName: 'Id', width: 220 },
  ];
  const filters: FilterSpec[] = [
    { key: 'q', label: 'Search by email or name', kind: 'text' },
    { key: 'role', label: 'Role', kind: 'select', options: ROLE_OPTIONS },
    {
      key: 'topic',
      label: 'Topic',
      kind: 'select',
      options: topics.map((t) => ({ value: t._id, label: t.topic })),
    },
    { key: 'status', label: 'Notification status', kind: 'select', options: STATUS_OPTIONS },
    { key: 'type', label: 'Type', kind: 'select', options: TYPE_OPTIONS },
    { key: 'timeZone', label: 'Time zone', kind: 'text' },
    { key: 'from', label: 'Signed up from', kind: 'date' },
    { key: 'to', label: 'Signed up to', kind: 'date' },
  ];

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <Button variant="contained" onClick={() => setAdding(true)}>
          Add Users
        </Button>
      </Stack>
      <UserExport total={list.total} />
      <PagedTable
        list={usersList}
        columns={columns}
        label="Users"
        filters={filters}
        sortable={['email', 'firstname', 'lastname', 'last_app_login', 'createdAt']}
        defaultSort={{ field: 'createdAt', order: 'desc' }}
        onOpen={setEditing}
        hidden={{
          firstname: false,
          lastname: false,
          timeZone: false,
          emails_open: false,
          last_email_open: false,
          last_app_login: false,
          _id: false,
        }}
      />
      <AddUsersDialog open={adding} onClose={() => setAdding(false)} onAdded={reload} />
      {editing && <EditUserDialog user={editing} onClose={() => setEditing(null)} onSaved={reload} />}
    </Stack>
  );
}

function UserExport({ total }: { total: number }) {
  const [from, setFrom] = useState('1');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<string>) => {
    setBusy(true);
    try {
      saveFile('users.csv', await call());
    } catch {
      notifyError('Something Bad Happen');
    } finally {
      setBusy(false);
    }
  };
  const exportRange = (event: FormEvent) => {
    event.preventDefault();
    const error = exportRangeError(from, to, total);
    if (error) {
      notifyError(error);
      return;
    }
    void run(() =>
      fetchText('POST', '/api/user/getpaginationluserdata', { from: Number(from || 1), to: Number(to) }),
    );
  };
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      component="form"
      onSubmit={exportRange}
      aria-label="Export users"
      sx={{ alignItems: { sm: 'center' } }}
    >
      <Button
        variant="outlined"
        disabled={busy}
        onClick={() => void run(() => fetchText('GET', '/api/user/getalluserdata'))}
      >
        Export All
      </Button>
      <Typography variant="body2">or by range:</Typography>
      <Stack direction="row" spacing={1}>
        <TextField
          size="small"
          label="From"
          type="number"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          sx={{ width: 110 }}
        />
        <TextField
          size="small"
          label="To"
          type="number"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          sx={{ width: 110 }}
        />
      </Stack>
      <Button type="submit" variant="outlined" disabled={busy}>
        Export Range
      </Button>
    </Stack>
  );
}

function TopicsSelect({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const topics = useAppSelector(selectTopics);
  return (
    <FormControl fullWidth>
      <InputLabel id="user-topics-label">Topics</InputLabel>
      <Select
        labelId="user-topics-label"
        label="Topics"
        multiple
        value={value}
        onChange={(e) =>
          onChange(typeof e.target.value === 'string' ? e.target.value.split(',') : e.target.value)
        }
        renderValue={(ids) => ids.map((id) => topics.find((t) => t._id === id)?.topic ?? id).join(', ')}
      >
        {topics.map((t) => (
          <MenuItem key={t._id} value={t._id}>
            <Checkbox checked={value.includes(t._id)} />
            <ListItemText primary={t.topic} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

function TimeSelect({ value, onChange }: { value: string; onChange: (time: string) => void }) {
  return <SelectField label="Notification Time" value={value} options={TIME_OPTIONS} onChange={onChange} />;
}

function TypeSelect({ value, onChange }: { value: 0 | 1; onChange: (type: 0 | 1) => void }) {
  return <SelectField<0 | 1> label="Type" value={value} options={USER_TYPES} onChange={onChange} />;
}

function AddUsersDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const [emails, setEmails] = useState('');
  const [time, setTime] = useState(DEFAULT_NOTIFICATION_TIME);
  const [topics, setTopics] = useState<string[]>([]);
  const [type, setType] = useState<0 | 1>(0);
  const { busy, run } = useFormSubmit(() => {
    setEmails('');
    onAdded();
  }, onClose);
  const submit = () =>
    run(() => addUsers({ emails, notiinfo: { time, active: true }, topics, type }), {
      success: 'Users Added Successfully',
      failure: { serverElse: 'Something Bad Happen' },
    });
  return (
    <FormDialog open={open} title="Add Users" busy={busy} onClose={onClose} onSubmit={() => void submit()}>
      <TextField
        label="Emails (space separated)"
        value={emails}
        onChange={(e) => setEmails(e.target.value)}
        multiline
        minRows={2}
        required
      />
      <TimeSelect value={time} onChange={setTime} />
      <TopicsSelect value={topics} onChange={setTopics} />
      <TypeSelect value={type} onChange={setType} />
    </FormDialog>
  );
}

function EditUserDialog({
  user,
  onClose,
  onSaved,
}: {
  user: AdminUser;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [firstname, setFirstname] = useState(user.firstname);
  const [lastname, setLastname] = useState(user.lastname);
  const [time, setTime] = useState(
    NOTIFICATION_TIMES.includes(user.notiinfo?.time) ? user.notiinfo.time : DEFAULT_NOTIFICATION_TIME,
  );
  const [active, setActive] = useState(user.notiinfo?.active ?? true);
  const [status, setStatus] = useState(user.notification_status);
  const [topics, setTopics] = useState<string[]>(user.topics ?? []);
  const [type, setType] = useState<0 | 1>(user.type);
  const { busy, run } = useFormSubmit(onSaved, onClose);
  const submit = async () => {
    const info = {
      ...(firstname.trim() ? { firstname: firstname.trim() } : {}),
      ...(lastname.trim() ? { lastname: lastname.trim() } : {}),
      notiinfo: { time, active },
      notification_status: status,
      topics,
      type,
    };
    // admin.md §8 names no success text for a user edit; a failure shows 'Something Bad happen!' in a success style.
    await run(() => updateUser(user._id, info), { success: '', ...EDIT_FAILURE });
  };
  return (
    <FormDialog
      open
      title={`Edit ${user.email}`}
      busy={busy}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <TextField label="First Name" value={firstname} onChange={(e) => setFirstname(e.target.value)} />
      <TextField label="Last Name" value={lastname} onChange={(e) => setLastname(e.target.value)} />
      <TimeSelect value={time} onChange={setTime} />
      <SelectField
        label="Notification Status"
        value={status}
        options={STATUSES.map((v) => ({ value: v, label: v }))}
        onChange={setStatus}
      />
      <FormControlLabel
        control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />}
        label="Active"
      />
      <TopicsSelect value={topics} onChange={setTopics} />
      <TypeSelect value={type} onChange={setType} />
      {user.role !== 'admin' && (
        <AdminDeleteUser
          userId={user._id}
          email={user.email}
          onDeleted={() => {
            onClose();
            onSaved();
          }}
        />
      )}
    </FormDialog>
  );
}
