import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { addSubject } from '../rules';
import { CloseIcon } from './icons';

export interface SubjectItem {
  id?: string;
  title: string;
  /** true = Active, false = Pause (paused subjects are not sent). */
  status: boolean;
}

interface SubjectsEditorProps {
  subjects: SubjectItem[];
  onChange: (subjects: SubjectItem[]) => void;
  input: string;
  onInput: (text: string) => void;
  /** The edit form shows each subject's Active / Pause switch. */
  withStatus?: boolean;
}

/** admin.md §2: subject input with Add (Enter adds too), the 'All Subjects' list and removal per item. */
export function SubjectsEditor({ subjects, onChange, input, onInput, withStatus }: SubjectsEditorProps) {
  const add = () => {
    onChange(addSubject(subjects, input, (title) => ({ title, status: true })));
    onInput('');
  };
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1}>
        <TextField
          fullWidth
          size="small"
          label="Subject"
          value={input}
          onChange={(e) => onInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <Button variant="outlined" onClick={add}>
          Add
        </Button>
      </Stack>
      <Typography variant="subtitle2" component="h3">
        All Subjects
      </Typography>
      {subjects.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No Subject Present...
        </Typography>
      ) : (
        <List dense aria-label="All Subjects" sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
          {subjects.map((subject, index) => (
            <ListItem
              key={subject.id ?? subject.title}
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={`Remove ${subject.title}`}
                  onClick={() => onChange(subjects.filter((_, i) => i !== index))}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              }
            >
              {withStatus && (
                <Switch
                  size="small"
                  checked={subject.status}
                  slotProps={{
                    input: { 'aria-label': `${subject.title}: ${subject.status ? 'Active' : 'Pause'}` },
                  }}
                  onChange={(e) =>
                    onChange(subjects.map((s, i) => (i === index ? { ...s, status: e.target.checked } : s)))
                  }
                />
              )}
              <ListItemText
                primary={subject.title}
                secondary={withStatus ? (subject.status ? 'Active' : 'Pause') : undefined}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Stack>
  );
}
