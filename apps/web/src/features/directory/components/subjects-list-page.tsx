import { zodResolver } from '@hookform/resolvers/zod';
import VisibilityIcon from '@mui/icons-material/Visibility';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { routeTo } from '@parley/domain/routes';
import { type SubjectRequest, subjectRequest } from '@parley/domain/school';
import type { z } from '@parley/domain/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DataList } from '../../../components/data-list';
import type { DataColumn } from '../../../components/data-list-types';
import { FormAlert } from '../../../components/form-alert';
import { FormTextField } from '../../../components/form-text-field';
import { PageHeading } from '../../../components/page-heading';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { alertLines, applyFieldErrors } from '../../../lib/form-errors';
import { LIST_TEXT, PEOPLE_TEXT, SUBJECT_TEXT } from '../../../lib/ui-text';
import { createSubject, invalidateDirectory, type Subject, subjectsQuery } from '../api';

type FormInput = z.input<typeof subjectRequest>;
type FormOutput = z.output<typeof subjectRequest>;

function SubjectCreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const titleId = useId();
  const showSnackbar = useSnackbar();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isValid },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(subjectRequest),
    mode: 'onTouched',
    defaultValues: { name: '' },
  });
  const mutation = useMutation({
    mutationFn: (body: SubjectRequest) => createSubject(body),
    onSuccess: (result) => {
      showSnackbar(result.message, 'success');
      void invalidateDirectory();
      reset({ name: '' });
      mutation.reset();
      onClose();
    },
    onError: (error) => applyFieldErrors(error, setError, ['name']),
  });
  const close = () => {
    if (mutation.isPending) return;
    reset({ name: '' });
    mutation.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby={titleId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: 500 } } }}
    >
      <form noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <DialogTitle id={titleId}>{SUBJECT_TEXT.newTitle}</DialogTitle>
        <DialogContent>
          <FormAlert
            lines={mutation.isError ? alertLines(mutation.error, ['name'], PEOPLE_TEXT.saveFailed) : []}
          />
          <FormTextField
            label={SUBJECT_TEXT.name}
            registration={register('name')}
            error={errors.name?.message}
            autoFocus
            autoComplete="off"
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={mutation.isPending}>
            {LIST_TEXT.cancel}
          </Button>
          <Button type="submit" variant="contained" disabled={!isValid || mutation.isPending}>
            {PEOPLE_TEXT.create}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** /subjects: the list pattern; counts of teachers and students per subject. */
export function SubjectsListPage() {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const list = useQuery(subjectsQuery);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    if (list.isError) showSnackbar(serverMessage(list.error, PEOPLE_TEXT.loadFailed), 'error');
  }, [list.isError, list.error, showSnackbar]);

  const columns = useMemo<DataColumn<Subject>[]>(
    () => [
      {
        key: 'name',
        label: SUBJECT_TEXT.columns.name,
        render: (row) => (
          <Link
            component={RouterLink}
            to={routeTo('subjects.view', { id: row.id })}
            underline="hover"
            color="inherit"
          >
            {row.name}
          </Link>
        ),
        sortValue: (row) => row.name,
        searchText: (row) => row.name,
      },
      {
        key: 'teacherCount',
        label: SUBJECT_TEXT.columns.teachers,
        render: (row) => row.teacherCount,
        sortValue: (row) => row.teacherCount,
        align: 'right',
        width: 130,
      },
      {
        key: 'studentCount',
        label: SUBJECT_TEXT.columns.students,
        render: (row) => row.studentCount,
        sortValue: (row) => row.studentCount,
        align: 'right',
        width: 130,
      },
      {
        key: 'createdAt',
        label: SUBJECT_TEXT.columns.created,
        render: (row) => row.createdAtLabel,
        sortValue: (row) => row.createdAt,
        searchText: (row) => row.createdAtLabel,
        width: 160,
      },
      {
        key: 'actions',
        label: SUBJECT_TEXT.columns.actions,
        align: 'right',
        width: 90,
        render: (row) => (
          <Tooltip title={PEOPLE_TEXT.view}>
            <IconButton
              aria-label={PEOPLE_TEXT.viewPerson(row.name)}
              component={RouterLink}
              to={routeTo('subjects.view', { id: row.id })}
              size="small"
            >
              <VisibilityIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ),
      },
    ],
    [],
  );
  const nameOf = useCallback((row: Subject) => row.name, []);

  return (
    <>
      <PageHeading>{SUBJECT_TEXT.title}</PageHeading>
      <DataList
        label={SUBJECT_TEXT.title}
        rows={list.data ?? (list.isError ? [] : undefined)}
        columns={columns}
        rowKey={(row) => row.id}
        nameOf={nameOf}
        onOpen={(row) => navigate(routeTo('subjects.view', { id: row.id }))}
        onRefresh={() => list.refetch()}
        refreshing={list.isFetching}
        onAdd={() => setAdding(true)}
        addLabel={SUBJECT_TEXT.add}
        emptyText={SUBJECT_TEXT.empty}
        renderCard={(row) => (
          <Stack spacing={0.5}>
            <Typography sx={{ fontWeight: 600 }}>{row.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {SUBJECT_TEXT.counts(row.teacherCount, row.studentCount)}
            </Typography>
          </Stack>
        )}
      />
      <SubjectCreateDialog open={adding} onClose={() => setAdding(false)} />
    </>
  );
}
