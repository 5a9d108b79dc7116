import { zodResolver } from '@hookform/resolvers/zod';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { routeTo } from '@parley/domain/routes';
import { type SubjectRequest, subjectRequest } from '@parley/domain/school';
import type { z } from '@parley/domain/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormAlert } from '../../../components/form-alert';
import { FormTextField } from '../../../components/form-text-field';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { alertLines, applyFieldErrors } from '../../../lib/form-errors';
import { queryClient } from '../../../lib/query-client';
import { PEOPLE_TEXT, SUBJECT_TEXT } from '../../../lib/ui-text';
import { deleteSubject, invalidateDirectory, renameSubject, type SubjectDetail, subjectQuery } from '../api';

type FormInput = z.input<typeof subjectRequest>;
type FormOutput = z.output<typeof subjectRequest>;

/** /subjects/view/:id: rename, delete, and the teachers of the subject. */
export function SubjectViewPage() {
  const { id } = useParams();
  const numericId = Number(id);
  return <SubjectView key={numericId} id={numericId} />;
}

function SubjectView({ id }: { id: number }) {
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({ ...subjectQuery(id), enabled: valid });

  if (!valid || query.isError) {
    const text =
      !valid || (query.error instanceof ApiError && query.error.status === 404)
        ? SUBJECT_TEXT.notFound
        : serverMessage(query.error, PEOPLE_TEXT.detailFailed);
    return (
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <PageHeading>{SUBJECT_TEXT.singular}</PageHeading>
        <Alert severity="warning">{text}</Alert>
        <div>
          <Button component={RouterLink} to={routeTo('subjects')} variant="outlined">
            {PEOPLE_TEXT.backToList(SUBJECT_TEXT.title.toLowerCase())}
          </Button>
        </div>
      </Stack>
    );
  }
  if (!query.data) return <PageSkeleton />;
  const subject = query.data;

  return (
    <>
      <PageHeading>{subject.name}</PageHeading>
      <Typography color="text.secondary" sx={{ mt: -1, mb: 2 }}>
        {`${SUBJECT_TEXT.counts(subject.teacherCount, subject.studentCount)} · ${SUBJECT_TEXT.created(subject.createdAtLabel)}`}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <SectionCard title={SUBJECT_TEXT.rename}>
            <RenameForm subject={subject} />
          </SectionCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <SectionCard title={SUBJECT_TEXT.teachers}>
            {subject.teachers.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {SUBJECT_TEXT.noTeachers}
              </Typography>
            ) : (
              <List dense disablePadding>
                {subject.teachers.map((teacher) => (
                  <ListItem key={teacher.id} disableGutters>
                    <ListItemText
                      primary={
                        <Link
                          component={RouterLink}
                          to={routeTo('teachers.view', { id: teacher.id })}
                          underline="hover"
                        >
                          {teacher.name}
                        </Link>
                      }
                      secondary={teacher.email}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </SectionCard>
        </Grid>
      </Grid>
    </>
  );
}

function RenameForm({ subject }: { subject: SubjectDetail }) {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const [confirming, setConfirming] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isValid, isDirty },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(subjectRequest),
    mode: 'onTouched',
    defaultValues: { name: subject.name },
  });

  const rename = useMutation({
    mutationFn: (body: SubjectRequest) => renameSubject(subject.id, body),
    onSuccess: (result, body) => {
      showSnackbar(result.message, 'success');
      reset({ name: body.name });
      void invalidateDirectory();
    },
    onError: (error) => applyFieldErrors(error, setError, ['name']),
  });

  const remove = useMutation({
    mutationFn: () => deleteSubject(subject.id),
    onSuccess: (result) => {
      showSnackbar(result.message, 'success');
      queryClient.removeQueries({ queryKey: subjectQuery(subject.id).queryKey });
      void invalidateDirectory();
      navigate(routeTo('subjects'), { replace: true });
    },
    onError: (error) => {
      setConfirming(false);
      showSnackbar(serverMessage(error, PEOPLE_TEXT.saveFailed), 'error');
    },
  });

  return (
    <form noValidate onSubmit={handleSubmit((values) => rename.mutate(values))}>
      <FormAlert lines={rename.isError ? alertLines(rename.error, ['name'], PEOPLE_TEXT.saveFailed) : []} />
      <FormTextField
        label={SUBJECT_TEXT.name}
        registration={register('name')}
        error={errors.name?.message}
        autoComplete="off"
      />
      <Box sx={{ mt: 2, display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Button
          color="error"
          variant="outlined"
          startIcon={<DeleteOutlineIcon />}
          onClick={() => setConfirming(true)}
        >
          {SUBJECT_TEXT.delete}
        </Button>
        <Button type="submit" variant="contained" disabled={!isValid || !isDirty || rename.isPending}>
          {PEOPLE_TEXT.save}
        </Button>
      </Box>
      <ConfirmDialog
        open={confirming}
        title={SUBJECT_TEXT.deleteTitle(subject.name)}
        message={SUBJECT_TEXT.deleteText}
        confirmLabel={SUBJECT_TEXT.deleteConfirm}
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </form>
  );
}
