import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../../app/hooks';
import { notifyError } from '../../../../shared/notify';
import { fetchSubjectTemplates, updateTemplate } from '../../api';
import { templatesList } from '../../listDefinitions';
import { longDate, PAGE_SIZE } from '../../paging';
import { selectTopics } from '../../topics';
import type { AdminTemplate } from '../../types';
import { FormDialog } from '../FormDialog';
import { EDIT_FAILURE, editColumn, useFormSubmit } from '../formHelpers';
import { adminGridProps } from '../gridProps';
import { ImageUpload } from '../ImageUpload';
import { mutate } from '../mutate';
import { PagedTable } from '../PagedTable';
import { StatusSwitch } from '../StatusSwitch';
import { type SubjectItem, SubjectsEditor } from '../SubjectsEditor';
import { BodyField, TemplateTypeSelect, TopicSelect } from '../TemplateFields';

interface SubjectRow {
  _id: string;
  templateId: string;
  heading: string;
  subjectTitle: string;
  subjectStatus: 'Active' | 'Pause';
  emails_sent: number;
  emails_open: number;
  email_open_rate: number;
}

export function TemplatesSection() {
  const dispatch = useAppDispatch();
  const topics = useAppSelector(selectTopics);
  const [editing, setEditing] = useState<AdminTemplate | null>(null);
  const [subjectTemplates, setSubjectTemplates] = useState<AdminTemplate[]>([]);
  const loadSubjects = useCallback(async () => {
    try {
      setSubjectTemplates((await fetchSubjectTemplates()).data ?? []);
    } catch {
      notifyError('Something Bad Happen', 'subjects-failed');
    }
  }, []);
  useEffect(() => {
    void loadSubjects();
  }, [loadSubjects]);
  const saved = () => {
    dispatch(templatesList.actions.reloaded());
    void loadSubjects();
  };

  const columns: GridColDef<AdminTemplate>[] = [
    { field: 'heading', headerName: 'Heading', flex: 1, minWidth: 180 },
    {
      field: 'topic',
      headerName: 'Topic',
      width: 120,
      valueFormatter: (v: string) => topics.find((t) => t._id === v)?.topic ?? v,
    },
    {
      field: 'type',
      headerName: 'Type',
      width: 90,
      valueFormatter: (v: number) => (v === 1 ? 'Premium' : 'Free'),
    },
    {
      field: 'status',
      headerName: 'Status',
      width: 90,
      valueFormatter: (v: boolean) => (v ? 'Active' : 'Paused'),
    },
    {
      field: 'subjects',
      headerName: 'Subjects',
      width: 90,
      valueFormatter: (v: unknown[]) => v?.length ?? 0,
    },
    { field: 'totallikes', headerName: 'Likes', width: 80 },
    { field: 'totalcomments', headerName: 'Comments', width: 100 },
    { field: 'emails_sent', headerName: 'Emails Sent', width: 110 },
    { field: 'emails_open', headerName: 'Emails Opened', width: 120 },
    { field: 'email_open_rate', headerName: 'Open Rate %', width: 110 },
    { field: 'total_reads', headerName: 'Reads', width: 80 },
    { field: 'createdAt', headerName: 'Created On', width: 160, valueFormatter: longDate },
    editColumn<AdminTemplate>((row) => row.heading, setEditing),
  ];

  return (
    <Stack spacing={2}>
      <Box>
        <Button variant="contained" component={RouterLink} to="/create">
          Add Template
        </Button>
      </Box>
      <PagedTable list={templatesList} columns={columns} label="Templates" hidden={{ emails_open: false }} />
      <SubjectAnalysis templates={subjectTemplates} onChanged={saved} />
      {editing && <EditTemplateDialog template={editing} onClose={() => setEditing(null)} onSaved={saved} />}
    </Stack>
  );
}

/** Per subject line: subjectLevelAnalysis, with each subject's Active / Pause status editable. */
function SubjectAnalysis({ templates, onChanged }: { templates: AdminTemplate[]; onChanged: () => void }) {
  const [page, setPage] = useState(0);
  const rows: SubjectRow[] = templates.flatMap((t) =>
    (t.subjectLevelAnalysis ?? []).map((s) => ({
      ...s,
      _id: `${t._id}:${s.id}`,
      templateId: t._id,
      heading: t.heading,
    })),
  );
  const toggle = async (row: SubjectRow, active: boolean) => {
    const template = templates.find((t) => t._id === row.templateId);
    if (!template) return;
    const subjects = template.subjects.map((s) =>
      s.id === row._id.split(':')[1]
        ? { id: s.id, title: s.title, status: active }
        : { id: s.id, title: s.title, status: s.status },
    );
    const result = await mutate(() => updateTemplate(template._id, { subjects }), {
      success: 'Template Edit Successfully',
      ...EDIT_FAILURE,
    });
    if (result) onChanged();
  };
  const columns: GridColDef<SubjectRow>[] = [
    { field: 'heading', headerName: 'Template', flex: 1, minWidth: 160 },
    { field: 'subjectTitle', headerName: 'Subject', flex: 1, minWidth: 160 },
    {
      field: 'subjectStatus',
      headerName: 'Status',
      width: 130,
      renderCell: ({ row }) => (
        <Stack direction="row" sx={{ alignItems: 'center' }}>
          <Switch
            size="small"
            checked={row.subjectStatus === 'Active'}
            onChange={(e) => void toggle(row, e.target.checked)}
            slotProps={{ input: { 'aria-label': `${row.subjectTitle} status` } }}
          />
          {row.subjectStatus}
        </Stack>
      ),
    },
    { field: 'emails_sent', headerName: 'Emails Sent', width: 110 },
    { field: 'emails_open', headerName: 'Emails Opened', width: 120 },
    { field: 'email_open_rate', headerName: 'Open Rate %', width: 110 },
  ];
  return (
    <Stack spacing={1}>
      <Typography variant="h6" component="h3">
        Subject line analysis
      </Typography>
      <DataGrid<SubjectRow>
        aria-label="Subject line analysis"
        rows={rows}
        columns={columns}
        getRowId={(r) => r._id}
        paginationModel={{ page, pageSize: PAGE_SIZE }}
        onPaginationModelChange={(m) => setPage(m.page)}
        {...adminGridProps(page)}
        sx={{ minHeight: 200 }}
      />
    </Stack>
  );
}

function EditTemplateDialog({
  template,
  onClose,
  onSaved,
}: {
  template: AdminTemplate;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [heading, setHeading] = useState(template.heading);
  const [body, setBody] = useState(template.body);
  const [topic, setTopic] = useState(template.topic);
  const [type, setType] = useState<0 | 1>(template.type);
  const [status, setStatus] = useState(template.status);
  const [image, setImage] = useState(template.image);
  const [subjects, setSubjects] = useState<SubjectItem[]>(template.subjects.map((s) => ({ ...s })));
  const [subjectInput, setSubjectInput] = useState('');
  const { busy, run } = useFormSubmit(onSaved, onClose);
  const submit = () => {
    const info = {
      heading,
      body,
      topic,
      type,
      status,
      subjects,
      subject: subjectInput,
      ...(image !== template.image ? { image } : {}),
    };
    return run(() => updateTemplate(template._id, info), {
      success: 'Template Edit Successfully',
      ...EDIT_FAILURE,
    });
  };
  return (
    <FormDialog open title="Edit Template" busy={busy} onClose={onClose} onSubmit={() => void submit()}>
      <TopicSelect value={topic} onChange={setTopic} />
      <SubjectsEditor
        subjects={subjects}
        onChange={setSubjects}
        input={subjectInput}
        onInput={setSubjectInput}
        withStatus
      />
      <ImageUpload label="Upload Image" value={image} onChange={setImage} />
      <TextField label="Heading" required value={heading} onChange={(e) => setHeading(e.target.value)} />
      <BodyField value={body} onChange={setBody} />
      <TemplateTypeSelect value={type} onChange={setType} />
      <StatusSwitch checked={status} onChange={setStatus} />
    </FormDialog>
  );
}
