import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { InviteRequest, ParentRequest, StudentRequest, TeacherRequest } from '@parley/domain/people';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { FormProvider, type Resolver, useForm } from 'react-hook-form';
import { FormAlert } from '../../../components/form-alert';
import { useSnackbar } from '../../../components/snackbar';
import { useIsMobile } from '../../../components/use-is-mobile';
import { alertLines, applyFieldErrors } from '../../../lib/form-errors';
import { LIST_TEXT, PEOPLE_TEXT } from '../../../lib/ui-text';
import {
  createParent,
  createStudent,
  createTeacher,
  invalidateDirectory,
  inviteAdmin,
  type Saved,
} from '../api';
import type { PeopleKind } from '../list-cache';
import {
  emptyPersonValues,
  type PersonFormValues,
  personBody,
  personFields,
  personSchema,
} from '../person-form';
import { PersonFields } from './person-fields';

/** Spec §9 gives the add-event dialog 500 px; the person forms are a little wider for the pickers. */
export const PERSON_DIALOG_MAX_WIDTH = 560;

function create(kind: PeopleKind, values: PersonFormValues): Promise<Saved> {
  const body = personBody(values);
  switch (kind) {
    case 'admins':
      return inviteAdmin(body as InviteRequest);
    case 'teachers':
      return createTeacher(body as TeacherRequest);
    case 'parents':
      return createParent(body as ParentRequest);
    case 'students':
      return createStudent(body as StudentRequest);
  }
}

type Props = { kind: PeopleKind; open: boolean; onClose: () => void };

/**
 * Add a teacher, parent or student, or invite an admin. Create stays disabled until the form is valid;
 * a failed create keeps the dialog open with everything typed and the server's errors on the fields.
 */
export function PersonCreateDialog({ kind, open, onClose }: Props) {
  const titleId = useId();
  const isMobile = useIsMobile();
  const showSnackbar = useSnackbar();
  const fields = personFields(kind, 'create');
  const form = useForm<PersonFormValues>({
    resolver: zodResolver(personSchema(kind, 'create')) as unknown as Resolver<PersonFormValues>,
    mode: 'onTouched',
    defaultValues: emptyPersonValues(kind),
  });
  const {
    handleSubmit,
    reset,
    setError,
    formState: { isValid },
  } = form;

  const mutation = useMutation({
    mutationFn: (values: PersonFormValues) => create(kind, values),
    onSuccess: (result) => {
      showSnackbar(result.message, 'success');
      void invalidateDirectory();
      reset(emptyPersonValues(kind));
      mutation.reset();
      onClose();
    },
    onError: (error) => applyFieldErrors(error, setError, fields),
  });

  const close = () => {
    if (mutation.isPending) return;
    reset(emptyPersonValues(kind));
    mutation.reset();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby={titleId}
      fullWidth
      fullScreen={isMobile}
      slotProps={{ paper: { sx: isMobile ? undefined : { maxWidth: PERSON_DIALOG_MAX_WIDTH } } }}
    >
      <FormProvider {...form}>
        <form noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
          <DialogTitle id={titleId}>{PEOPLE_TEXT.newTitles[kind]}</DialogTitle>
          <DialogContent>
            <FormAlert
              lines={mutation.isError ? alertLines(mutation.error, fields, PEOPLE_TEXT.createFailed) : []}
            />
            <PersonFields kind={kind} mode="create" />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={close} disabled={mutation.isPending}>
              {LIST_TEXT.cancel}
            </Button>
            <Button type="submit" variant="contained" disabled={!isValid || mutation.isPending}>
              {kind === 'admins' ? PEOPLE_TEXT.invite : PEOPLE_TEXT.create}
            </Button>
          </DialogActions>
        </form>
      </FormProvider>
    </Dialog>
  );
}
