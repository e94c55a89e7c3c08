import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { errorMessage } from '../../../shared/http';
import { notifyError, notifySuccess, notifyWarning } from '../../../shared/notify';
import { generateContent } from '../api';
import {
  AI_PROMPT_MAX,
  fallbackSubjects,
  parseSubjectLines,
  promptError,
  useSelectedSubjects,
} from '../rules';

/** The AI helper dialogs' frame: a title, the helper's content, and Cancel / Use buttons. */
function HelperDialog({
  open,
  onClose,
  title,
  useText,
  onUse,
  spacing,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  useText: string;
  onUse: () => void;
  spacing: number;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={spacing} sx={{ pt: 1 }}>
          {children}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={onUse}>
          {useText}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface BodyDialogProps {
  open: boolean;
  onClose: () => void;
  onUse: (content: string) => void;
}

/** 'Generate Body': a prompt (the site's body prompt prefix is added by the server) and the generated text. */
export function GenerateBodyDialog({ open, onClose, onUse }: BodyDialogProps) {
  const [prompt, setPrompt] = useState('');
  const [content, setContent] = useState('');
  const [busy, setBusy] = useState(false);
  const generate = async () => {
    const error = promptError(prompt);
    if (error) {
      notifyError(error);
      return;
    }
    setBusy(true);
    try {
      const res = await generateContent(prompt, 'body');
      setContent(res.content);
      notifySuccess('Content generated successfully!');
    } catch (failure) {
      notifyError(errorMessage(failure, 'Failed to generate content. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  const use = () => {
    if (!content.trim()) {
      notifyError('Please generate content first');
      return;
    }
    onUse(content);
    onClose();
  };
  return (
    <HelperDialog
      open={open}
      onClose={onClose}
      title="Generate Body"
      useText="Use Content"
      onUse={use}
      spacing={2}
    >
      <TextField
        label="Prompt"
        multiline
        minRows={3}
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
        helperText={`${prompt.length}/${AI_PROMPT_MAX}`}
        error={prompt.length > AI_PROMPT_MAX}
      />
      <Button variant="outlined" onClick={() => void generate()} disabled={busy || !prompt.trim()}>
        {busy ? <CircularProgress size={20} aria-label="Generating" /> : 'Generate'}
      </Button>
      <TextField
        label="Generated Content"
        multiline
        minRows={5}
        value={content}
        onChange={(e) => setContent(e.target.value)}
      />
    </HelperDialog>
  );
}

interface SubjectsDialogProps {
  open: boolean;
  onClose: () => void;
  /** The post's body: subject lines are generated from it. */
  content: string;
  heading: string;
  existing: string[];
  onUse: (subjects: string[]) => void;
}

/** 'Generate Subjects': lines generated from the body (the site's subjects prompt prefix added by the server). */
export function GenerateSubjectsDialog({
  open,
  onClose,
  content,
  heading,
  existing,
  onUse,
}: SubjectsDialogProps) {
  const [lines, setLines] = useState<string[]>([]);
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) {
      setLines([]);
      setSelected([]);
    }
  }, [open]);
  const generate = async () => {
    if (!content.trim()) {
      notifyError('Please generate content first');
      return;
    }
    const error = promptError(content);
    if (error) {
      notifyError(error);
      return;
    }
    setBusy(true);
    try {
      const res = await generateContent(content, 'subjects');
      const generated = parseSubjectLines(res.content);
      if (generated.length === 0) throw new Error('no lines');
      setLines(generated);
      notifySuccess('Subject lines generated successfully!');
    } catch {
      setLines(fallbackSubjects(heading));
      notifyWarning('Using fallback subject lines');
    } finally {
      setSelected([]);
      setBusy(false);
    }
  };
  const use = () => {
    const result = useSelectedSubjects(selected, existing);
    if (!result.ok) {
      notifyError(result.message);
      return;
    }
    onUse(result.subjects);
    onClose();
  };
  return (
    <HelperDialog
      open={open}
      onClose={onClose}
      title="Generate Subjects"
      useText="Use Selected"
      onUse={use}
      spacing={1}
    >
      <Button variant="outlined" onClick={() => void generate()} disabled={busy}>
        {busy ? <CircularProgress size={20} aria-label="Generating" /> : 'Generate'}
      </Button>
      {lines.map((line) => (
        <FormControlLabel
          key={line}
          label={line}
          control={
            <Checkbox
              checked={selected.includes(line)}
              onChange={(e) =>
                setSelected((s) => (e.target.checked ? [...s, line] : s.filter((x) => x !== line)))
              }
            />
          }
        />
      ))}
    </HelperDialog>
  );
}
