import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';

/** The status toggle of the add and edit forms, labelled with the state it shows (Active / Paused, Active / Hidden). */
export function StatusSwitch({
  checked,
  onChange,
  on = 'Active',
  off = 'Paused',
}: {
  checked: boolean;
  onChange: (value: boolean) => void;
  on?: string;
  off?: string;
}) {
  return (
    <FormControlLabel
      control={<Switch checked={checked} onChange={(e) => onChange(e.target.checked)} />}
      label={`Status: ${checked ? on : off}`}
    />
  );
}
