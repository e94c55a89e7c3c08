import TextField from '@mui/material/TextField';
import { useAppSelector } from '../../../app/hooks';
import { selectTopics } from '../topics';
import { SelectField } from './SelectField';

export function TopicSelect({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const topics = useAppSelector(selectTopics);
  return (
    <SelectField
      label="Topic"
      required
      value={value}
      options={topics.map((t) => ({ value: t._id, label: t.topic }))}
      onChange={onChange}
    />
  );
}

/** admin.md §2: Free Template = 0, Premium Template = 1. */
const TEMPLATE_TYPES = [
  { value: 0 as const, label: 'Free Template' },
  { value: 1 as const, label: 'Premium Template' },
];

export function TemplateTypeSelect({ value, onChange }: { value: 0 | 1; onChange: (type: 0 | 1) => void }) {
  return (
    <SelectField<0 | 1> label="Type" required value={value} options={TEMPLATE_TYPES} onChange={onChange} />
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
