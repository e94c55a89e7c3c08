import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { addTag } from '../rules';

/** Chips with removal, added one at a time (Enter or Add); empty and duplicate entries are ignored. */
export function ChipListInput({
  label,
  values,
  onChange,
  add = addTag,
}: {
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  add?: (values: string[], input: string) => string[];
}) {
  const [input, setInput] = useState('');
  const commit = () => {
    onChange(add(values, input));
    setInput('');
  };
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1}>
        <TextField
          size="small"
          fullWidth
          label={label}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
        <Button variant="outlined" onClick={commit} aria-label={`Add ${label}`}>
          Add
        </Button>
      </Stack>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
        {values.map((value) => (
          <Chip key={value} label={value} onDelete={() => onChange(values.filter((v) => v !== value))} />
        ))}
      </Stack>
    </Stack>
  );
}
