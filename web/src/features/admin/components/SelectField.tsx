import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useId } from 'react';

interface SelectFieldProps<V extends string | number> {
  label: string;
  value: V;
  options: ReadonlyArray<{ value: V; label: string }>;
  onChange: (value: V) => void;
  required?: boolean;
  size?: 'small' | 'medium';
}

/** A labelled single select (the forms' time, type, status, scale and topic selects). */
export function SelectField<V extends string | number>({
  label,
  value,
  options,
  onChange,
  required,
  size,
}: SelectFieldProps<V>) {
  const labelId = useId();
  const known = options.some((o) => o.value === value);
  return (
    <FormControl fullWidth required={required} size={size}>
      <InputLabel id={labelId}>{label}</InputLabel>
      <Select
        labelId={labelId}
        label={label}
        value={known ? value : ''}
        onChange={(e) => {
          const picked = options.find((o) => String(o.value) === String(e.target.value));
          if (picked) onChange(picked.value);
        }}
      >
        {options.map((o) => (
          <MenuItem key={String(o.value)} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
