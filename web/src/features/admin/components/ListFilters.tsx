import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ListQuery } from '../lists';

/** One filter of an admin list, held in the URL under `key`. */
export interface FilterSpec {
  key: string;
  label: string;
  /** text: applied as the admin types (after a pause); select and date: at once. */
  kind: 'text' | 'select' | 'date';
  options?: Array<{ value: string; label: string }>;
}

/** The URL keys a list's view uses besides its filters. */
export const VIEW_KEYS = ['sort', 'order', 'size', 'page'] as const;

/** The list's filters and sort as the URL holds them (only the keys this list knows; blanks left out). */
export function queryFromParams(params: URLSearchParams, filters: FilterSpec[]): ListQuery {
  const query: ListQuery = {};
  for (const key of [...filters.map((f) => f.key), 'sort', 'order']) {
    const value = params.get(key)?.trim();
    if (value) query[key] = value;
  }
  return query;
}

/** Sets (or with '' removes) URL keys of the list's view; a filter change goes back to the first page. */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const update = (
    changes: Record<string, string>,
    options: { replace?: boolean; keepPage?: boolean } = {},
  ) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!options.keepPage && !('page' in changes)) next.delete('page');
    setParams(next, { replace: options.replace });
  };
  return { params, update };
}

const TYPING_PAUSE_MS = 300;

function TextFilter({
  spec,
  value,
  onChange,
}: {
  spec: FilterSpec;
  value: string;
  onChange: (v: string) => void;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onChange(text.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <TextField
      size="small"
      label={spec.label}
      value={text}
      onChange={(e) => setText(e.target.value)}
      sx={{ minWidth: 200 }}
    />
  );
}

/** The filter bar of an admin list: every filter lives in the URL, so Back and a shared link keep it. */
export function ListFilters({ filters, label }: { filters: FilterSpec[]; label: string }) {
  const { params, update } = useListParams();
  const active = filters.some((f) => params.get(f.key));
  return (
    <Stack
      role="search"
      aria-label={`Filter ${label}`}
      direction="row"
      useFlexGap
      spacing={1}
      sx={{ flexWrap: 'wrap', alignItems: 'center' }}
    >
      {filters.map((spec) => {
        const value = params.get(spec.key) ?? '';
        if (spec.kind === 'text')
          return (
            <TextFilter
              key={spec.key}
              spec={spec}
              value={value}
              onChange={(v) => update({ [spec.key]: v }, { replace: true })}
            />
          );
        if (spec.kind === 'date')
          return (
            <TextField
              key={spec.key}
              size="small"
              type="date"
              label={spec.label}
              value={value}
              onChange={(e) => update({ [spec.key]: e.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ width: 160 }}
            />
          );
        return (
          <TextField
            key={spec.key}
            select
            size="small"
            label={spec.label}
            value={value}
            onChange={(e) => update({ [spec.key]: e.target.value })}
            sx={{ minWidth: 140 }}
          >
            <MenuItem value="">Any</MenuItem>
            {(spec.options ?? []).map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
        );
      })}
      {active && (
        <Button onClick={() => update(Object.fromEntries(filters.map((f) => [f.key, ''])))}>
          Clear filters
        </Button>
      )}
    </Stack>
  );
}
