import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useAppDispatch } from '../../../../app/hooks';
import { notifyError } from '../../../../shared/notify';
import { addReport, updateReport } from '../../api';
import { reportList } from '../../listDefinitions';
import { longDate } from '../../paging';
import { parseIdList } from '../../rules';
import type { Report } from '../../types';
import { FormDialog } from '../FormDialog';
import { editColumn, useFormSubmit } from '../formHelpers';
import { ImageUpload } from '../ImageUpload';
import { PagedTable } from '../PagedTable';
import { StatusSwitch } from '../StatusSwitch';

const idsText = (ids: string[]) => (ids ?? []).join(', ');

export function ReportSection() {
  const dispatch = useAppDispatch();
  const [editing, setEditing] = useState<Report | 'new' | null>(null);
  const columns: GridColDef<Report>[] = [
    {
      field: '_id',
      headerName: 'Id',
      width: 220,
      renderCell: ({ row }) => (
        <Link component={RouterLink} to={`/report/${row._id}`}>
          {row._id}
        </Link>
      ),
    },
    { field: 'name', headerName: 'Report Name', flex: 1, minWidth: 160 },
    {
      field: 'logo',
      headerName: 'Logo',
      width: 90,
      renderCell: ({ row }) =>
        row.logo ? (
          <Box component="img" src={row.logo} alt={`${row.name} logo`} sx={{ maxHeight: 40, maxWidth: 70 }} />
        ) : null,
    },
    { field: 'monitoredUsers', headerName: 'Monitored Users', width: 180, valueFormatter: idsText },
    { field: 'accessUsers', headerName: 'Access Users', width: 180, valueFormatter: idsText },
    {
      field: 'status',
      headerName: 'Status',
      width: 90,
      valueFormatter: (v: boolean) => (v ? 'Active' : 'Hidden'),
    },
    { field: 'createdAt', headerName: 'Created On', width: 160, valueFormatter: longDate },
    { field: 'updatedAt', headerName: 'Updated On', width: 160, valueFormatter: longDate },
    editColumn<Report>((row) => row.name, setEditing),
  ];
  return (
    <Stack spacing={2}>
      <Box>
        <Button variant="contained" onClick={() => setEditing('new')}>
          Add Report
        </Button>
      </Box>
      {/* admin.md §2: default visible columns Id, Report Name, Logo, Monitored Users, Access Users, Status. */}
      <PagedTable
        list={reportList}
        columns={columns}
        label="Reports"
        hidden={{ createdAt: false, updatedAt: false }}
      />
      {editing && (
        <ReportDialog
          report={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => dispatch(reportList.actions.reloaded())}
        />
      )}
    </Stack>
  );
}

/** The edit form lists the saved ids with a cross each, and takes more as comma-separated text. */
function IdListField({
  label,
  ids,
  onIds,
  text,
  onText,
}: {
  label: string;
  ids: string[];
  onIds: (ids: string[]) => void;
  text: string;
  onText: (text: string) => void;
}) {
  return (
    <Stack spacing={1}>
      {ids.length > 0 && (
        <Typography variant="caption" color="text.secondary" component="p">
          {label}
        </Typography>
      )}
      {ids.length > 0 && (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }} role="group" aria-label={label}>
          {ids.map((id) => {
            const remove = () => onIds(ids.filter((x) => x !== id));
            // The chip is one button ("Remove <id>"): its cross, a click, Enter or Delete removes the id.
            return (
              <Chip key={id} label={id} aria-label={`Remove ${id}`} onClick={remove} onDelete={remove} />
            );
          })}
        </Stack>
      )}
      <TextField
        label={`${label} (comma separated ids)`}
        value={text}
        onChange={(e) => onText(e.target.value)}
        multiline
      />
    </Stack>
  );
}

function ReportDialog({
  report,
  onClose,
  onSaved,
}: {
  report: Report | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState(report?.name ?? '');
  const [logo, setLogo] = useState(report?.logo ?? '');
  const [monitored, setMonitored] = useState<string[]>(report?.monitoredUsers ?? []);
  const [access, setAccess] = useState<string[]>(report?.accessUsers ?? []);
  const [monitoredText, setMonitoredText] = useState('');
  const [accessText, setAccessText] = useState('');
  const [status, setStatus] = useState(report?.status ?? true);
  const { busy, run } = useFormSubmit(onSaved, onClose);
  const submit = async () => {
    if (!name.trim() || !logo.trim()) {
      notifyError(!name.trim() ? 'Please enter the report name' : 'Please add a logo');
      return;
    }
    const fields = {
      name: name.trim(),
      logo: logo.trim(),
      monitoredUsers: parseIdList([...monitored, monitoredText].join(',')),
      accessUsers: parseIdList([...access, accessText].join(',')),
      status,
    };
    await (report
      ? run(() => updateReport(report._id, fields), {
          success: 'Report updated successfully',
          failure: { serverElse: 'Something went wrong!' },
        })
      : run(() => addReport(fields), {
          success: 'Report Added Successfully',
          failure: { serverElse: 'Something went wrong!' },
        }));
  };
  return (
    <FormDialog
      open
      title={report ? 'Edit Report' : 'Add Report'}
      busy={busy}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <TextField label="Report Name" required value={name} onChange={(e) => setName(e.target.value)} />
      <ImageUpload label="Upload Logo" value={logo} onChange={setLogo} />
      <TextField
        label="Logo Url"
        value={logo.startsWith('data:') ? '' : logo}
        onChange={(e) => setLogo(e.target.value)}
        helperText={logo.startsWith('data:') ? 'An uploaded logo is set' : undefined}
      />
      <IdListField
        label="Monitored Users"
        ids={monitored}
        onIds={setMonitored}
        text={monitoredText}
        onText={setMonitoredText}
      />
      <IdListField
        label="Access Users"
        ids={access}
        onIds={setAccess}
        text={accessText}
        onText={setAccessText}
      />
      <StatusSwitch checked={status} onChange={setStatus} off="Hidden" />
      <Typography variant="caption" color="text.secondary">
        Hidden reports are shown to admins only.
      </Typography>
    </FormDialog>
  );
}
