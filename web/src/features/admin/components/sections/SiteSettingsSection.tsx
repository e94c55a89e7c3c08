import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useState } from 'react';
import { useAppDispatch } from '../../../../app/hooks';
import { notifyError, notifySuccess } from '../../../../shared/notify';
import { applySettingsToDocument } from '../../../settings/applyToDocument';
import { DEFAULT_SETTINGS } from '../../../settings/defaults';
import { mergeSettings } from '../../../settings/merge';
import { settingsReceived } from '../../../settings/slice';
import { fetchServerSettings, saveSiteSettings } from '../../api';
import { changedSettings, pickerValue, SETTINGS_GROUPS, type SettingsField } from '../../settingsForm';
import type { ServerSiteSettings } from '../../types';
import { LevelsManager } from '../LevelsManager';
import { SelectField } from '../SelectField';

export function SiteSettingsSection() {
  const dispatch = useAppDispatch();
  const [loaded, setLoaded] = useState<ServerSiteSettings | null>(null);
  const [form, setForm] = useState<ServerSiteSettings | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    fetchServerSettings()
      .then((res) => {
        setLoaded(res.settings);
        setForm(res.settings);
      })
      .catch(() => notifyError('Something Bad Happen', 'settings-failed'));
  }, []);
  if (!form || !loaded) return <CircularProgress aria-label="Loading settings" />;

  const set = (key: keyof ServerSiteSettings, value: unknown) =>
    setForm((f) => (f ? { ...f, [key]: value } : f));
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const res = await saveSiteSettings(changedSettings(loaded, form));
      // admin.md §4: the saved settings replace the stored ones; the reader's app takes them at once.
      dispatch(settingsReceived(res.settings));
      applySettingsToDocument(mergeSettings(DEFAULT_SETTINGS, res.settings));
      setLoaded(res.settings);
      setForm(res.settings);
      notifySuccess('Site Settings Updated');
    } catch (error) {
      // admin.md §8: a failed save is only logged.
      console.error('Site settings not saved:', error);
    } finally {
      setBusy(false);
    }
  };

  const field = (f: SettingsField) => {
    const value = form[f.key];
    if (f.kind === 'flag')
      return (
        <FormControlLabel
          key={f.key}
          control={<Switch checked={Boolean(value)} onChange={(e) => set(f.key, e.target.checked)} />}
          label={f.label}
        />
      );
    if (f.kind === 'days')
      return (
        <Box key={f.key} sx={{ maxWidth: 240 }}>
          <TextField
            size="small"
            type="number"
            label={f.label}
            value={String(value ?? '')}
            slotProps={{ htmlInput: { min: 1, step: 1 } }}
            onChange={(e) => set(f.key, e.target.value === '' ? null : Number(e.target.value))}
          />
        </Box>
      );
    if (f.kind === 'colour')
      return (
        <Stack key={f.key} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Box
            component="input"
            type="color"
            aria-label={`${f.label} picker`}
            value={pickerValue(String(value))}
            onChange={(e: React.ChangeEvent<HTMLInputElement>) => set(f.key, e.target.value)}
            sx={{ width: 44, height: 40, p: 0, border: 'none', background: 'none' }}
          />
          <TextField
            size="small"
            label={f.label}
            value={String(value)}
            onChange={(e) => set(f.key, e.target.value)}
          />
        </Stack>
      );
    return (
      <TextField
        key={f.key}
        size="small"
        fullWidth
        label={f.label}
        value={String(value ?? '')}
        multiline={f.kind === 'long'}
        minRows={f.kind === 'long' ? 3 : undefined}
        onChange={(e) => set(f.key, e.target.value)}
      />
    );
  };

  return (
    <Stack component="form" spacing={2} onSubmit={save} aria-label="Site Settings">
      {SETTINGS_GROUPS.map((group) => (
        <Paper key={group.title} component="fieldset" variant="outlined" sx={{ p: 2, m: 0 }}>
          <Typography component="legend" variant="subtitle1" sx={{ px: 0.5, fontWeight: 600 }}>
            {group.title}
          </Typography>
          <Stack spacing={1.5}>
            {group.fields.map(field)}
            {group.title === 'Other' && (
              <>
                <Box sx={{ maxWidth: 240 }}>
                  <SelectField<'feed' | 'login'>
                    size="small"
                    label="Logout Redirect"
                    value={form.logoutredirect}
                    options={[
                      { value: 'feed', label: 'feed' },
                      { value: 'login', label: 'login' },
                    ]}
                    onChange={(v) => set('logoutredirect', v)}
                  />
                </Box>
                <LevelsManager levels={form.levels} onChange={(levels) => set('levels', levels)} />
              </>
            )}
          </Stack>
        </Paper>
      ))}
      <Box>
        <Button type="submit" variant="contained" disabled={busy}>
          Save Settings
        </Button>
      </Box>
    </Stack>
  );
}
