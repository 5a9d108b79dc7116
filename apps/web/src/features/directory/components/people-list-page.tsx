import UploadFileIcon from '@mui/icons-material/UploadFile';
import VisibilityIcon from '@mui/icons-material/Visibility';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  DIRECTORY_SORTS,
  type DirectoryItem,
  type DirectoryQuery,
  type DirectorySort,
} from '@parley/domain/people';
import { routeTo } from '@parley/domain/routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DataList } from '../../../components/data-list';
import type { DataColumn, ListRequest } from '../../../components/data-list-types';
import { FIRST_REQUEST } from '../../../components/data-table';
import { PageHeading } from '../../../components/page-heading';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { PEOPLE_TEXT } from '../../../lib/ui-text';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '../../../lib/use-debounced-value';
import { peoplePageQuery } from '../api';
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

/** The table's request as the server reads it: pages from 1, a sort it knows (else by name). */
function pageRequest(request: ListRequest, q: string): DirectoryQuery {
  const sort = (DIRECTORY_SORTS as readonly string[]).includes(request.sort.key)
    ? (request.sort.key as DirectorySort)
    : 'name';
  return {
    q: q.trim(),
    page: request.page + 1,
    pageSize: request.pageSize,
    sort,
    dir: request.sort.direction,
  };
}

/** /admins, /teachers, /parents, /students: the list pattern with an add dialog. */
export function PeopleListPage({ kind }: { kind: PeopleKind }) {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const [request, setRequest] = useState(FIRST_REQUEST);
  // What is typed shows at once; the server is asked once typing pauses, the page shown kept meanwhile.
  const q = useDebouncedValue(request.query, SEARCH_DEBOUNCE_MS);
  const list = useQuery({
    ...peoplePageQuery(kind, pageRequest(request, q)),
    placeholderData: keepPreviousData,
  });
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    if (list.isError) showSnackbar(serverMessage(list.error, PEOPLE_TEXT.loadFailed), 'error');
  }, [list.isError, list.error, showSnackbar]);

  const relatedLabel = RELATED_LABEL[kind];
  const columns = useMemo<DataColumn<DirectoryItem>[]>(() => {
    const all: Array<DataColumn<DirectoryItem> | null> = [
      {
        key: 'status',
        label: PEOPLE_TEXT.columns.status,
        render: (row) => <StatusChip person={row} />,
        sortValue: (row) => row.statusLabel,
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
      },
      {
        key: 'email',
        label: PEOPLE_TEXT.columns.email,
        render: (row) => row.email,
        sortValue: (row) => row.email,
      },
      relatedLabel
        ? {
            key: 'related',
            label: relatedLabel,
            render: (row) => row.related.join(', ') || '—',
          }
        : null,
      {
        key: 'invitation',
        label: PEOPLE_TEXT.columns.invitation,
        render: (row) => <InvitationChip invitation={row.invitation} />,
        sortValue: (row) => row.invitation,
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
    return all.filter((column): column is DataColumn<DirectoryItem> => column !== null);
  }, [kind, relatedLabel]);

  const nameOf = useCallback((row: DirectoryItem) => row.name, []);
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
        rows={list.data?.items ?? (list.isError ? [] : undefined)}
        server={{ request, onRequest: setRequest, total: list.data?.total ?? 0 }}
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
              <Typography variant="body2">{`${relatedLabel}: ${row.related.join(', ') || '—'}`}</Typography>
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
