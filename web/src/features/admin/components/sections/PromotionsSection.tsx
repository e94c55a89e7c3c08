import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { useAppDispatch } from '../../../../app/hooks';
import { addPromotion, updatePromotion } from '../../api';
import { promotionsList } from '../../listDefinitions';
import { longDate } from '../../paging';
import type { Promotion } from '../../types';
import { FormDialog } from '../FormDialog';
import { EDIT_FAILURE, editColumn, useFormSubmit } from '../formHelpers';
import { ImageUpload } from '../ImageUpload';
import { PagedTable } from '../PagedTable';
import { StatusSwitch } from '../StatusSwitch';

/** admin.md §5 and §9: promotion text limits. */
const LIMITS = { heading: 150, body: 500, btntext: 100 } as const;

export function PromotionsSection() {
  const dispatch = useAppDispatch();
  const [editing, setEditing] = useState<Promotion | 'new' | null>(null);
  const columns: GridColDef<Promotion>[] = [
    {
      field: 'image',
      headerName: 'Image',
      width: 90,
      renderCell: ({ row }) =>
        row.image || row.imageurl ? (
          <Box component="img" src={row.image || row.imageurl} alt="" sx={{ maxHeight: 40, maxWidth: 70 }} />
        ) : null,
    },
    { field: 'heading', headerName: 'Heading', flex: 1, minWidth: 180 },
    { field: 'body', headerName: 'Body', flex: 1, minWidth: 180 },
    { field: 'btntext', headerName: 'Button Text', width: 120 },
    { field: 'btnurl', headerName: 'Button Url', width: 160 },
    {
      field: 'expires',
      headerName: 'Expires',
      width: 150,
      valueFormatter: (v: string | null) => (v ? longDate(v) : 'Infinite'),
    },
    {
      field: 'status',
      headerName: 'Status',
      width: 90,
      valueFormatter: (v: boolean) => (v ? 'active' : 'paused'),
    },
    { field: 'createdAt', headerName: 'Created On', width: 160, valueFormatter: longDate },
    editColumn<Promotion>((row) => row.heading, setEditing),
  ];
  return (
    <Stack spacing={2}>
      <Box>
        <Button variant="contained" onClick={() => setEditing('new')}>
          Add Promotion
        </Button>
      </Box>
      <PagedTable
        list={promotionsList}
        columns={columns}
        label="Promotions"
        hidden={{ btnurl: false, createdAt: false }}
      />
      {editing && (
        <PromotionDialog
          promotion={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => dispatch(promotionsList.actions.reloaded())}
        />
      )}
    </Stack>
  );
}

function PromotionDialog({
  promotion,
  onClose,
  onSaved,
}: {
  promotion: Promotion | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form, setForm] = useState({
    image: promotion?.image ?? '',
    imageurl: promotion?.imageurl ?? '',
    heading: promotion?.heading ?? '',
    body: promotion?.body ?? '',
    btntext: promotion?.btntext ?? '',
    btnurl: promotion?.btnurl ?? '',
    expires: promotion?.expires ? promotion.expires.slice(0, 10) : '',
    status: promotion?.status ?? true,
  });
  const { busy, run } = useFormSubmit(onSaved, onClose);
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const submit = () => {
    const fields = { ...form, expires: form.expires || null };
    return promotion
      ? run(() => updatePromotion(promotion._id, fields), {
          success: 'Promotion Edit Successfully',
          ...EDIT_FAILURE,
        })
      : run(() => addPromotion(fields), {
          success: 'Promotion Added Successfully',
          failure: { serverElse: 'Something Bad Happen' },
        });
  };
  const counter = (key: keyof typeof LIMITS) => `${form[key].length}/${LIMITS[key]}`;
  return (
    <FormDialog
      open
      title={promotion ? 'Edit Promotion' : 'Add Promotion'}
      busy={busy}
      onClose={onClose}
      onSubmit={() => void submit()}
    >
      <ImageUpload label="Upload Image" value={form.image} onChange={(v) => set('image', v)} />
      <TextField label="Image Url" value={form.imageurl} onChange={(e) => set('imageurl', e.target.value)} />
      <TextField
        label="Heading"
        required
        value={form.heading}
        onChange={(e) => set('heading', e.target.value)}
        slotProps={{ htmlInput: { maxLength: LIMITS.heading } }}
        helperText={counter('heading')}
      />
      <TextField
        label="Body"
        multiline
        minRows={3}
        value={form.body}
        onChange={(e) => set('body', e.target.value)}
        slotProps={{ htmlInput: { maxLength: LIMITS.body } }}
        helperText={counter('body')}
      />
      <TextField
        label="Button Text"
        value={form.btntext}
        onChange={(e) => set('btntext', e.target.value)}
        slotProps={{ htmlInput: { maxLength: LIMITS.btntext } }}
        helperText={counter('btntext')}
      />
      <TextField label="Button Url" value={form.btnurl} onChange={(e) => set('btnurl', e.target.value)} />
      <TextField
        label="Expires"
        type="date"
        value={form.expires}
        onChange={(e) => set('expires', e.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
        helperText="Blank means Infinite"
      />
      <StatusSwitch checked={form.status} onChange={(v) => set('status', v)} on="active" off="paused" />
    </FormDialog>
  );
}
