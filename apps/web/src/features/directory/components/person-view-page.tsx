import { zodResolver } from '@hookform/resolvers/zod';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { type PersonDetail, STATUS_ICONS, STATUS_LABELS } from '@parley/domain/people';
import { ROLE_LABELS } from '@parley/domain/roles';
import { routeTo } from '@parley/domain/routes';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider, type Resolver, useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormAlert } from '../../../components/form-alert';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { alertLines, applyFieldErrors } from '../../../lib/form-errors';
import { queryClient } from '../../../lib/query-client';
import { PEOPLE_TEXT } from '../../../lib/ui-text';
import { ActivityCard } from '../../audit/components/activity-card';
import {
  invalidateDirectory,
  KIND_ROLE,
  patchStatusInLists,
  personQuery,
  ROLE_KIND,
  removePerson,
  sendInvite,
  updatePerson,
  updateUserNames,
} from '../api';
import type { PeopleKind } from '../list-cache';
import { type PersonFormValues, personBody, personFields, personSchema, personValues } from '../person-form';
import { viewPath } from './people-list-page';
import { InvitationChip, StatusChip } from './person-chips';
import { PersonFields } from './person-fields';
import { RevokeBookingLinks } from './revoke-booking-links';

const LIST_ROUTES = {
  admins: routeTo('admins'),
  teachers: routeTo('teachers'),
  parents: routeTo('parents'),
  students: routeTo('students'),
} as const;

/** Stacked links stay at least 24 px tall (WCAG 2.5.8 target size). */
const TARGET = { display: 'inline-flex', alignItems: 'center', minHeight: 24 } as const;

/** /admins/view/:id, /teachers/view/:id, /parents/view/:id, /students/view/:id */
export function PersonViewPage({ kind }: { kind: PeopleKind }) {
  const { id } = useParams();
  const numericId = Number(id);
  // A new person, a new page: nothing typed for one person is carried to another.
  return <PersonView key={`${kind}-${numericId}`} kind={kind} id={numericId} />;
}

function PersonView({ kind, id }: { kind: PeopleKind; id: number }) {
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({ ...personQuery(kind, id), enabled: valid });

  if (!valid || (query.isError && query.error instanceof ApiError && query.error.status === 404)) {
    return <Missing kind={kind} text={PEOPLE_TEXT.notFound} />;
  }
  if (query.isError) {
    return <Missing kind={kind} text={serverMessage(query.error, PEOPLE_TEXT.detailFailed)} />;
  }
  if (!query.data) return <PageSkeleton />;
  const person = query.data;

  return (
    <>
      <PageHeading>{person.title ? `${person.title} ${person.name}` : person.name}</PageHeading>
      <Stack direction="row" spacing={1} useFlexGap sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <Chip size="small" label={PEOPLE_TEXT.singular[kind]} color="primary" />
        {kind === 'admins' ? null : <StatusChip person={person} />}
        <InvitationChip invitation={person.invitation} />
        {person.roles
          .filter((role) => role !== KIND_ROLE[kind])
          .map((role) => (
            <Chip
              key={role}
              size="small"
              variant="outlined"
              label={`${PEOPLE_TEXT.alsoRoles}: ${ROLE_LABELS[role]}`}
              component={RouterLink}
              to={viewPath(ROLE_KIND[role], person.id)}
              clickable
            />
          ))}
      </Stack>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <SectionCard title={PEOPLE_TEXT.details}>
            <PersonEditForm kind={kind} person={person} />
          </SectionCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Stack spacing={2}>
            <AccountCard kind={kind} person={person} />
            <RevokeBookingLinks kind={kind} person={person} />
            <RelatedCard kind={kind} person={person} />
          </Stack>
        </Grid>
        <Grid size={12}>
          <ActivityCard about="person" id={person.id} refreshKey={query.dataUpdatedAt} />
        </Grid>
      </Grid>
    </>
  );
}

function Missing({ kind, text }: { kind: PeopleKind; text: string }) {
  return (
    <Stack spacing={2} sx={{ maxWidth: 560 }}>
      <PageHeading>{PEOPLE_TEXT.singular[kind]}</PageHeading>
      <Alert severity="warning">{text}</Alert>
      <div>
        <Button component={RouterLink} to={LIST_ROUTES[kind]} variant="outlined">
          {PEOPLE_TEXT.backToList(PEOPLE_TEXT.titles[kind].toLowerCase())}
        </Button>
      </div>
    </Stack>
  );
}

function PersonEditForm({ kind, person }: { kind: PeopleKind; person: PersonDetail }) {
  const showSnackbar = useSnackbar();
  const fields = personFields(kind, 'edit');
  const form = useForm<PersonFormValues>({
    resolver: zodResolver(personSchema(kind, 'edit')) as unknown as Resolver<PersonFormValues>,
    mode: 'onTouched',
    defaultValues: personValues(kind, person),
  });
  const {
    handleSubmit,
    reset,
    setError,
    formState: { isValid, isDirty },
  } = form;

  const mutation = useMutation({
    mutationFn: async (values: PersonFormValues) => {
      const body = personBody(values);
      if (kind === 'admins') {
        await updateUserNames(person.id, {
          title: body.title,
          firstName: body.firstName,
          lastName: body.lastName,
        });
        return { message: PEOPLE_TEXT.saved };
      }
      return updatePerson(kind, person.id, body as Parameters<typeof updatePerson>[2]);
    },
    onSuccess: (result, values) => {
      showSnackbar(result.message, 'success');
      reset(values.title === undefined ? values : { ...values, title: values.title ?? '' });
      void invalidateDirectory();
    },
    onError: (error) => applyFieldErrors(error, setError, fields),
  });

  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={handleSubmit(
          (values) => mutation.mutate(values),
          (e) =>
            console.error(
              'INVALID',
              JSON.stringify(
                Object.fromEntries(
                  Object.entries(e).map(([k, v]) => [
                    k,
                    (v as { message?: string })?.message ??
                      JSON.stringify(v, (key, val) => (key === 'ref' ? undefined : val)),
                  ]),
                ),
              ),
            ),
        )}
      >
        <FormAlert
          lines={mutation.isError ? alertLines(mutation.error, fields, PEOPLE_TEXT.saveFailed) : []}
        />
        <PersonFields
          kind={kind}
          mode="edit"
          readOnlyEmail={kind === 'admins' ? person.email : undefined}
          linked={kind === 'parents' ? person.children : person.parents}
        />
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={!isValid || !isDirty || mutation.isPending}>
            {PEOPLE_TEXT.save}
          </Button>
        </Box>
      </form>
    </FormProvider>
  );
}

function AccountCard({ kind, person }: { kind: PeopleKind; person: PersonDetail }) {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const [confirming, setConfirming] = useState<'deactivate' | 'remove' | null>(null);
  const roleLabel = PEOPLE_TEXT.singular[kind].toLowerCase();

  const status = useMutation({
    mutationFn: (next: 0 | 1) => {
      if (kind === 'admins') throw new Error('Admins have no status call');
      return updatePerson(kind, person.id, { status: next });
    },
    onSuccess: (result, next) => {
      setConfirming(null);
      patchStatusInLists(person.id, next);
      queryClient.setQueryData(
        personQuery(kind, person.id).queryKey,
        (current) =>
          current && {
            ...current,
            status: next,
            statusLabel: STATUS_LABELS[next],
            statusIcon: STATUS_ICONS[next],
          },
      );
      void queryClient.invalidateQueries({ queryKey: ['person'], refetchType: 'none' });
      showSnackbar(result.message, 'success');
    },
    onError: (error) => {
      setConfirming(null);
      showSnackbar(serverMessage(error, PEOPLE_TEXT.saveFailed), 'error');
    },
  });

  const invite = useMutation({
    mutationFn: () => sendInvite(kind, person.id),
    onSuccess: (result) => showSnackbar(result.message, 'success'),
    onError: (error) => showSnackbar(serverMessage(error, PEOPLE_TEXT.saveFailed), 'error'),
  });

  const remove = useMutation({
    mutationFn: () => removePerson(kind, person.id),
    onSuccess: (result) => {
      showSnackbar(result.message, 'success');
      queryClient.removeQueries({ queryKey: personQuery(kind, person.id).queryKey });
      void invalidateDirectory();
      navigate(LIST_ROUTES[kind], { replace: true });
    },
    onError: (error) => {
      setConfirming(null);
      showSnackbar(serverMessage(error, PEOPLE_TEXT.saveFailed), 'error');
    },
  });

  const active = person.status === 1;

  return (
    <SectionCard title={PEOPLE_TEXT.account}>
      <Stack spacing={2} divider={<Divider flexItem />}>
        {kind === 'admins' ? null : (
          <Box>
            <Typography variant="subtitle2">{PEOPLE_TEXT.status}</Typography>
            <FormControlLabel
              control={
                <Switch
                  color="success"
                  checked={active}
                  disabled={status.isPending}
                  onChange={(event) =>
                    event.target.checked ? status.mutate(1) : setConfirming('deactivate')
                  }
                />
              }
              label={active ? PEOPLE_TEXT.active : PEOPLE_TEXT.inactive}
            />
          </Box>
        )}
        <Box>
          <Typography variant="subtitle2">{PEOPLE_TEXT.invitation}</Typography>
          <Stack
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', mt: 0.5, flexWrap: 'wrap' }}
            useFlexGap
          >
            <InvitationChip invitation={person.invitation} />
            {person.invitation === 'pending' ? (
              <Button
                size="small"
                startIcon={<SendIcon />}
                onClick={() => invite.mutate()}
                disabled={invite.isPending}
              >
                {PEOPLE_TEXT.sendInvite}
              </Button>
            ) : null}
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {person.invitation === 'accepted'
              ? PEOPLE_TEXT.invitationAccepted
              : PEOPLE_TEXT.invitationPending}
          </Typography>
        </Box>
        <Box>
          <Button
            color="error"
            variant="outlined"
            startIcon={<DeleteOutlineIcon />}
            onClick={() => setConfirming('remove')}
          >
            {PEOPLE_TEXT.remove}
          </Button>
        </Box>
      </Stack>
      <ConfirmDialog
        open={confirming === 'deactivate'}
        title={PEOPLE_TEXT.deactivateTitle(person.name)}
        message={PEOPLE_TEXT.deactivateText}
        confirmLabel={PEOPLE_TEXT.deactivate}
        destructive
        pending={status.isPending}
        onConfirm={() => status.mutate(0)}
        onCancel={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={confirming === 'remove'}
        title={PEOPLE_TEXT.removeTitle(person.name, roleLabel)}
        message={kind === 'admins' ? PEOPLE_TEXT.removeAdminText : PEOPLE_TEXT.removeText}
        confirmLabel={PEOPLE_TEXT.remove}
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(null)}
      />
    </SectionCard>
  );
}

type LinkItem = {
  key: string | number;
  primary: string;
  secondary?: string;
  to?: string;
  secondaryTo?: string | undefined;
};

function LinkList({ items, empty }: { items: LinkItem[]; empty: string }) {
  if (items.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {empty}
      </Typography>
    );
  }
  return (
    <List dense disablePadding>
      {items.map((item) => (
        <ListItem key={item.key} disableGutters>
          <ListItemText
            primary={
              item.to ? (
                <Link component={RouterLink} to={item.to} underline="hover" sx={TARGET}>
                  {item.primary}
                </Link>
              ) : (
                item.primary
              )
            }
            secondary={
              item.secondaryTo ? (
                <Link
                  component={RouterLink}
                  to={item.secondaryTo}
                  underline="hover"
                  color="inherit"
                  sx={TARGET}
                >
                  {item.secondary}
                </Link>
              ) : (
                item.secondary
              )
            }
          />
        </ListItem>
      ))}
    </List>
  );
}

/** Who and what this person is linked to, as links: subjects, children, parents, teachers. */
function RelatedCard({ kind, person }: { kind: PeopleKind; person: PersonDetail }) {
  if (kind === 'teachers') {
    return (
      <SectionCard title={PEOPLE_TEXT.teachesSubjects}>
        <LinkList
          empty={PEOPLE_TEXT.noSubjects}
          items={person.subjects.map((subject) => ({
            key: subject.id,
            primary: subject.name,
            to: routeTo('subjects.view', { id: subject.id }),
          }))}
        />
        {person.videoConferenceUrl ? (
          <Typography variant="body2" sx={{ mt: 1, wordBreak: 'break-all' }}>
            {`${PEOPLE_TEXT.videoConference}: `}
            <Link href={person.videoConferenceUrl} target="_blank" rel="noopener noreferrer">
              {person.videoConferenceUrl}
            </Link>
          </Typography>
        ) : null}
      </SectionCard>
    );
  }
  if (kind === 'parents') {
    return (
      <SectionCard title={PEOPLE_TEXT.children}>
        <LinkList
          empty={PEOPLE_TEXT.noStudents}
          items={person.children.map((child) => ({
            key: child.id,
            primary: child.name,
            secondary: child.email,
            to: routeTo('students.view', { id: child.id }),
          }))}
        />
      </SectionCard>
    );
  }
  if (kind === 'students') {
    return (
      <>
        <SectionCard title={PEOPLE_TEXT.parents}>
          <LinkList
            empty={PEOPLE_TEXT.noParents}
            items={person.parents.map((parent) => ({
              key: parent.id,
              primary: parent.name,
              secondary: parent.email,
              to: routeTo('parents.view', { id: parent.id }),
            }))}
          />
        </SectionCard>
        <SectionCard title={PEOPLE_TEXT.studies}>
          <LinkList
            empty={PEOPLE_TEXT.noStudies}
            items={person.studies.map((study) => ({
              key: study.subjectId,
              primary: study.subjectName,
              to: routeTo('subjects.view', { id: study.subjectId }),
              secondary: study.teacherName ?? PEOPLE_TEXT.noTeacher,
              secondaryTo: study.teacherId ? routeTo('teachers.view', { id: study.teacherId }) : undefined,
            }))}
          />
        </SectionCard>
      </>
    );
  }
  return null;
}
