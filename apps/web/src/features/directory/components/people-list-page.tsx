import UploadFileIcon from '@mui/icons-material/UploadFile';
import VisibilityIcon from '@mui/icons-material/Visibility';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { UserListItem } from '@parley/domain/people';
import { routeTo } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DataList } from '../../../components/data-list';
import type { DataColumn } from '../../../components/data-list-types';
import { PageHeading } from '../../../components/page-heading';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { PEOPLE_TEXT } from '../../../lib/ui-text';
import { peopleListQuery, subjectsQuery } from '../api';
import type { PeopleKind } from '../list-cache';
import { InvitationChip, StatusChip } from './person-chips';
import { PersonCreateDialog } from './person-create-dialog';

export function viewPath(kind: PeopleKind, id: number): string {
  switch (kind) {
    case 'admins':
      return routeTo('admins.view', { id });
    case 'teachers':
      return routeTo('teachers.view', { id });
    case 'parents':
      return routeTo('parents.view', { id });
    case 'students':
      return routeTo('students.view', { id });
  }
}

/** The column that links a person to others: a teacher's subjects, a parent's children, a student's parents. */
const RELATED_LABEL: Partial<Record<PeopleKind, string>> = {
  teachers: PEOPLE_TEXT.columns.subjects,
  parents: PEOPLE_TEXT.columns.children,
  students: PEOPLE_TEXT.columns.parents,
};

function useRelatedNames(kind: PeopleKind): (row: UserListItem) => string[] {
  const subjects = useQuery({ ...subjectsQuery, enabled: kind === 'teachers' });
  const students = useQuery({ ...peopleListQuery('students'), enabled: kind === 'parents' });
  const parents = useQuery({ ...peopleListQuery('parents'), enabled: kind === 'students' });
  return useMemo(() => {
    const source =
      kind === 'teachers'
        ? subjects.data
        : kind === 'parents'
          ? students.data
          : kind === 'students'
            ? parents.data
            : [];
    const names = new Map((source ?? []).map((item) => [item.id, item.name]));
    return (row: UserListItem) => {
      const ids =
        (kind === 'teachers' ? row.subjectIds : kind === 'parents' ? row.studentIds : row.parentIds) ?? [];
      return ids.map((id) => names.get(id) ?? `#${id}`);
    };
  }, [kind, subjects.data, students.data, parents.data]);
}

/** /admins, /teachers, /parents, /students: the list pattern with an add dialog. */
export function PeopleListPage({ kind }: { kind: PeopleKind }) {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const list = useQuery(peopleListQuery(kind));
  const relatedNames = useRelatedNames(kind);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    if (list.isError) showSnackbar(serverMessage(list.error, PEOPLE_TEXT.loadFailed), 'error');
  }, [list.isError, list.error, showSnackbar]);

  const relatedLabel = RELATED_LABEL[kind];
  const columns = useMemo<DataColumn<UserListItem>[]>(() => {
    const all: Array<DataColumn<UserListItem> | null> = [
      {
        key: 'status',
        label: PEOPLE_TEXT.columns.status,
        render: (row) => <StatusChip person={row} />,
        sortValue: (row) => row.statusLabel,
        searchText: (row) => row.statusLabel,
        width: 120,
      },
      {
        key: 'name',
        label: PEOPLE_TEXT.columns.name,
        render: (row) => (
          <Link component={RouterLink} to={viewPath(kind, row.id)} underline="hover" color="inherit">
            {row.title ? `${row.title} ${row.name}` : row.name}
          </Link>
        ),
        sortValue: (row) => row.name,
        searchText: (row) => `${row.title ?? ''} ${row.name}`,
      },
      {
        key: 'email',
        label: PEOPLE_TEXT.columns.email,
        render: (row) => row.email,
        sortValue: (row) => row.email,
        searchText: (row) => row.email,
      },
      relatedLabel
        ? {
            key: 'related',
            label: relatedLabel,
            render: (row) => relatedNames(row).join(', ') || '—',
            sortValue: (row) => relatedNames(row).join(', '),
            searchText: (row) => relatedNames(row).join(' '),
          }
        : null,
      {
        key: 'invitation',
        label: PEOPLE_TEXT.columns.invitation,
        render: (row) => <InvitationChip invitation={row.invitation} />,
        sortValue: (row) => row.invitation,
        searchText: (row) => (row.invitation === 'accepted' ? PEOPLE_TEXT.accepted : PEOPLE_TEXT.pending),
        width: 140,
      },
      {
        key: 'actions',
        label: PEOPLE_TEXT.columns.actions,
        align: 'right',
        width: 90,
        render: (row) => (
          <Tooltip title={PEOPLE_TEXT.view}>
            <IconButton
              aria-label={PEOPLE_TEXT.viewPerson(row.name)}
              component={RouterLink}
              to={viewPath(kind, row.id)}
              size="small"
            >
              <VisibilityIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ),
      },
    ];
    return all.filter((column): column is DataColumn<UserListItem> => column !== null);
  }, [kind, relatedLabel, relatedNames]);

  const nameOf = useCallback((row: UserListItem) => row.name, []);
  const bulkRoute =
    kind === 'teachers'
      ? routeTo('teachers.bulkadd')
      : kind === 'admins'
        ? null
        : routeTo('students.bulkadd');

  return (
    <>
      <PageHeading>{PEOPLE_TEXT.titles[kind]}</PageHeading>
      <DataList
        label={PEOPLE_TEXT.titles[kind]}
        rows={list.data ?? (list.isError ? [] : undefined)}
        columns={columns}
        rowKey={(row) => row.id}
        nameOf={nameOf}
        onOpen={(row) => navigate(viewPath(kind, row.id))}
        onRefresh={() => list.refetch()}
        refreshing={list.isFetching}
        onAdd={() => setAdding(true)}
        addLabel={PEOPLE_TEXT.addLabels[kind]}
        actions={
          bulkRoute ? (
            <Button component={RouterLink} to={bulkRoute} startIcon={<UploadFileIcon />} variant="outlined">
              {PEOPLE_TEXT.bulkAdd}
            </Button>
          ) : null
        }
        emptyText={PEOPLE_TEXT.empty[kind]}
        renderCard={(row) => (
          <Stack spacing={0.5}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
              {/* Wrapped, not cut off: a long name or address stays whole on a 320 px phone (WCAG 1.4.10). */}
              <Typography sx={{ fontWeight: 600, minWidth: 0 }}>
                {row.title ? `${row.title} ${row.name}` : row.name}
              </Typography>
              <StatusChip person={row} />
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {row.email}
            </Typography>
            {relatedLabel ? (
              <Typography variant="body2">
                {`${relatedLabel}: ${relatedNames(row).join(', ') || '—'}`}
              </Typography>
            ) : null}
            <div>
              <InvitationChip invitation={row.invitation} />
            </div>
          </Stack>
        )}
      />
      <PersonCreateDialog kind={kind} open={adding} onClose={() => setAdding(false)} />
    </>
  );
}
