import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';
import { useAppSelector } from '../../../app/hooks';
import { selectTopics } from '../topics';

export function TopicSelect({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const topics = useAppSelector(selectTopics);
  return (
    <FormControl fullWidth required>
      <InputLabel id="template-topic-label">Topic</InputLabel>
      <Select
        labelId="template-topic-label"
        label="Topic"
        value={topics.some((t) => t._id === value) ? value : ''}
        onChange={(e) => onChange(e.target.value)}
      >
        {topics.map((t) => (
          <MenuItem key={t._id} value={t._id}>
            {t.topic}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/** admin.md §2: Free Template = 0, Premium Template = 1. */
export function TemplateTypeSelect({ value, onChange }: { value: 0 | 1; onChange: (type: 0 | 1) => void }) {
  return (
    <FormControl fullWidth required>
      <InputLabel id="template-type-label">Type</InputLabel>
      <Select
        labelId="template-type-label"
        label="Type"
        value={value}
        onChange={(e) => onChange(Number(e.target.value) as 0 | 1)}
      >
        <MenuItem value={0}>Free Template</MenuItem>
        <MenuItem value={1}>Premium Template</MenuItem>
      </Select>
    </FormControl>
  );
}

/** The body textarea with its character counter. */
export function BodyField({ value, onChange }: { value: string; onChange: (body: string) => void }) {
  return (
    <TextField
      label="Body"
      required
      multiline
      minRows={6}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      helperText={`${value.length} characters`}
    />
  );
}
