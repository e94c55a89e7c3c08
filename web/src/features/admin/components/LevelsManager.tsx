import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { notifyError } from '../../../shared/notify';
import { type Level, putLevel, removeLevel } from '../rules';
import { CloseIcon } from './icons';

/** admin.md §4-5: add, edit and delete levels; sorted by count, counts unique, at least one level. */
export function LevelsManager({
  levels,
  onChange,
}: {
  levels: Level[];
  onChange: (levels: Level[]) => void;
}) {
  const [title, setTitle] = useState('');
  const [count, setCount] = useState('');
  const [editing, setEditing] = useState<number | undefined>(undefined);
  const apply = (result: ReturnType<typeof putLevel>) => {
    if (!result.ok) {
      notifyError(result.message);
      return false;
    }
    onChange(result.levels);
    return true;
  };
  const save = () => {
    if (apply(putLevel(levels, { title, count }, editing))) {
      setTitle('');
      setCount('');
      setEditing(undefined);
    }
  };
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2" component="h3">
        Levels
      </Typography>
      <List dense aria-label="Levels" sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {levels.map((level, index) => (
          <ListItem
            key={`${level.count}-${level.title}`}
            secondaryAction={
              <IconButton
                edge="end"
                aria-label={`Delete level ${level.title}`}
                onClick={() => apply(removeLevel(levels, index))}
              >
                <CloseIcon fontSize="small" />
              </IconButton>
            }
          >
            <ListItemText primary={`${level.title}: ${level.count}`} />
            <Button
              size="small"
              aria-label={`Edit level ${level.title}`}
              onClick={() => {
                setEditing(index);
                setTitle(level.title);
                setCount(String(level.count));
              }}
            >
              Edit
            </Button>
          </ListItem>
        ))}
      </List>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          size="small"
          label="Level Title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
        <TextField
          size="small"
          label="Level Count"
          type="number"
          value={count}
          onChange={(e) => setCount(e.target.value)}
          slotProps={{ htmlInput: { min: 0, step: 1 } }}
        />
        <Button variant="outlined" onClick={save}>
          {editing === undefined ? 'Add Level' : 'Update Level'}
        </Button>
      </Stack>
    </Stack>
  );
}
