import Backdrop from '@mui/material/Backdrop';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { errorMessage } from '../../../shared/http';
import { notifyError, notifySuccess } from '../../../shared/notify';
import { addTemplate } from '../api';
import { selectTopics, topicsNeeded } from '../topics';
import { GenerateBodyDialog, GenerateSubjectsDialog } from './AiDialogs';
import { ImageUpload } from './ImageUpload';
import { StatusSwitch } from './StatusSwitch';
import { type SubjectItem, SubjectsEditor } from './SubjectsEditor';
import { BodyField, TemplateTypeSelect, TopicSelect } from './TemplateFields';

/** admin.md §2: /create, 'Create a new post'. */
export function CreatePostPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const topics = useAppSelector(selectTopics);
  const [topic, setTopic] = useState('');
  const [subjects, setSubjects] = useState<SubjectItem[]>([]);
  const [subjectInput, setSubjectInput] = useState('');
  const [image, setImage] = useState('');
  const [heading, setHeading] = useState('');
  const [body, setBody] = useState('');
  const [type, setType] = useState<0 | 1>(0);
  const [status, setStatus] = useState(true);
  const [submitting, setSubmitting] = useState(false);
  const [dialog, setDialog] = useState<'body' | 'subjects' | null>(null);

  useEffect(() => {
    dispatch(topicsNeeded());
  }, [dispatch]);
  // admin.md §3: the topic defaults to a fixed one; ours is the topic marked default, else the first.
  useEffect(() => {
    if (!topic && topics.length > 0) setTopic((topics.find((t) => t.default) ?? topics[0])?._id ?? '');
  }, [topic, topics]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    try {
      await addTemplate({
        subject: subjectInput,
        subjects: subjects.map((s) => s.title),
        heading,
        image,
        body,
        topic,
        status,
        type,
      });
      notifySuccess('Template Added Successfully');
      navigate('/');
    } catch (error) {
      notifyError(errorMessage(error, 'Something Bad Happen'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Container maxWidth="md" component="main" id="main" sx={{ py: 3 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
        <Typography variant="h5" component="h1">
          Create a new post
        </Typography>
        <Button component={RouterLink} to="/dashboard?section=templates">
          Dashboard
        </Button>
      </Stack>
      <Paper
        component="form"
        onSubmit={submit}
        noValidate
        sx={{ p: { xs: 2, sm: 3 } }}
        aria-label="Create a new post"
      >
        <Stack spacing={2}>
          <TopicSelect value={topic} onChange={setTopic} />
          <SubjectsEditor
            subjects={subjects}
            onChange={setSubjects}
            input={subjectInput}
            onInput={setSubjectInput}
          />
          <ImageUpload label="Upload Image" value={image} onChange={setImage} />
          <Stack direction="row" spacing={1}>
            <Button variant="outlined" onClick={() => setDialog('body')}>
              Generate Body
            </Button>
            <Button variant="outlined" onClick={() => setDialog('subjects')}>
              Generate Subjects
            </Button>
          </Stack>
          <TextField label="Heading" required value={heading} onChange={(e) => setHeading(e.target.value)} />
          <BodyField value={body} onChange={setBody} />
          <TemplateTypeSelect value={type} onChange={setType} />
          <StatusSwitch checked={status} onChange={setStatus} />
          <Box>
            <Button type="submit" variant="contained" disabled={submitting}>
              Submit
            </Button>
          </Box>
        </Stack>
      </Paper>
      <GenerateBodyDialog open={dialog === 'body'} onClose={() => setDialog(null)} onUse={setBody} />
      <GenerateSubjectsDialog
        open={dialog === 'subjects'}
        onClose={() => setDialog(null)}
        content={body}
        heading={heading}
        existing={subjects.map((s) => s.title)}
        onUse={(titles) => setSubjects((s) => [...s, ...titles.map((title) => ({ title, status: true }))])}
      />
      <Backdrop open={submitting} sx={{ zIndex: (t) => t.zIndex.modal + 1, color: '#fff' }}>
        <CircularProgress color="inherit" aria-label="Saving" />
      </Backdrop>
    </Container>
  );
}
