import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import FilterListIcon from '@mui/icons-material/FilterList';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type {
  AddRecipientsRequest,
  EventDetail,
  EventMessageType,
  RecipientItem,
  RecipientsPreview,
} from '@parley/domain/events';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Pager } from '../../../components/pager';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { TextField } from '../../../components/text-field';
import { serverMessage } from '../../../lib/api-client';
import { peopleSearchQuery } from '../../../lib/people-search';
import { EVENTS_TEXT, LIST_TEXT } from '../../../lib/ui-text';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '../../../lib/use-debounced-value';
import { ADMIN_BOOKING_TEXT } from '../admin-booking';
import {
  addRecipients,
  afterEventChange,
  type PersonRef,
  recipientCountsQuery,
  recipientsQuery,
  removeRecipient,
  sendToOne,
} from '../api';

type Pending = { body: AddRecipientsRequest; preview: RecipientsPreview };

function PickPeopleDialog({
  open,
  onClose,
  onPreview,
}: {
  open: boolean;
  onClose: () => void;
  onPreview: (ids: number[]) => void;
}) {
  const titleId = useId();
  // The school's parents and students whose name or email holds what is typed (decision 035).
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const parents = useQuery({ ...peopleSearchQuery('parents', search), enabled: open });
  const students = useQuery({ ...peopleSearchQuery('students', search), enabled: open });
  const [picked, setPicked] = useState<Array<PersonRef & { role: string }>>([]);
  const options = useMemo(
    () => [
      ...(parents.data?.items ?? []).map((person) => ({ ...person, role: EVENTS_TEXT.parent })),
      ...(students.data?.items ?? []).map((person) => ({ ...person, role: EVENTS_TEXT.student })),
    ],
    [parents.data, students.data],
  );
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: 560 } } }}
    >
      <DialogTitle id={titleId}>{EVENTS_TEXT.pickPeople}</DialogTitle>
      <DialogContent>
        <Autocomplete
          multiple
          options={options}
          loading={parents.isFetching || students.isFetching}
          filterOptions={(found) => found}
          onInputChange={(_event, text) => setTyped(text)}
          groupBy={(option) => option.role}
          getOptionLabel={(option) => `${option.name} (${option.email})`}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          value={picked}
          onChange={(_event, next) => setPicked(next)}
          filterSelectedOptions
          renderInput={(params) => <TextField {...params} label={EVENTS_TEXT.pickLabel} margin="normal" />}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{LIST_TEXT.cancel}</Button>
        <Button
          variant="contained"
          disabled={picked.length === 0}
          onClick={() => {
            onPreview([...new Set(picked.map((person) => person.id))]);
            setPicked([]);
          }}
        >
          {EVENTS_TEXT.preview}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function PreviewDialog({
  pending,
  saving,
  onCancel,
  onConfirm,
}: {
  pending: Pending | null;
  saving: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const titleId = useId();
  const preview = pending?.preview;
  const count = preview?.toAddCount ?? 0;
  const unnamed = count - (preview?.toAdd.length ?? 0);
  return (
    <Dialog
      open={pending !== null}
      onClose={saving ? undefined : onCancel}
      aria-labelledby={titleId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: 560 } } }}
    >
      <DialogTitle id={titleId}>{EVENTS_TEXT.previewTitle}</DialogTitle>
      <DialogContent>
        {preview ? (
          <Stack spacing={1}>
            <Alert severity={count > 0 ? 'info' : 'success'}>
              {count > 0 ? EVENTS_TEXT.willAdd(count) : EVENTS_TEXT.nothingToAdd}{' '}
              {preview.alreadyAddedCount > 0 ? EVENTS_TEXT.alreadyAdded(preview.alreadyAddedCount) : ''}
            </Alert>
            {count > 0 ? (
              // Scrolls when long: focusable and named, so a keyboard can scroll it too (WCAG 2.1.1).
              <Typography
                variant="body2"
                tabIndex={0}
                role="region"
                aria-label={EVENTS_TEXT.peopleToAdd}
                sx={{ maxHeight: 240, overflow: 'auto' }}
              >
                {preview.toAdd.map((person) => person.name).join(', ')}
                {unnamed > 0 ? ` ${EVENTS_TEXT.andMore(unnamed)}` : ''}
              </Typography>
            ) : null}
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={saving}>
          {LIST_TEXT.cancel}
        </Button>
        <Button variant="contained" onClick={onConfirm} disabled={count === 0} loading={saving}>
          {EVENTS_TEXT.confirmAdd(count)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function MessageOneMenu({ event, recipient }: { event: EventDetail; recipient: RecipientItem }) {
  const showSnackbar = useSnackbar();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const send = async (type: EventMessageType) => {
    setAnchor(null);
    try {
      const result = await sendToOne(event.id, recipient.id, type);
      showSnackbar(result.message, 'success');
    } catch (error) {
      showSnackbar(serverMessage(error, EVENTS_TEXT.sendFailed), 'error');
    }
  };
  return (
    <>
      <Tooltip title={EVENTS_TEXT.sendTo(recipient.name)}>
        <IconButton
          size="small"
          aria-label={EVENTS_TEXT.sendTo(recipient.name)}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <SendIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => void send('inviteToBook')}>{EVENTS_TEXT.inviteToBook}</MenuItem>
        <MenuItem onClick={() => void send('reminder')}>{EVENTS_TEXT.reminder}</MenuItem>
      </Menu>
    </>
  );
}

/** Who is invited to book: add all parents, all students or picked people (preview, then confirm). */
export function RecipientsCard({ event }: { event: EventDetail }) {
  const showSnackbar = useSnackbar();
  const [picking, setPicking] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [query, setQuery] = useState('');
  const [notBookedOnly, setNotBookedOnly] = useState(false);
  const [page, setPage] = useState(1);

  const preview = async (body: AddRecipientsRequest) => {
    setBusy(true);
    try {
      setPending({ body, preview: await addRecipients(event.id, body, false) });
    } catch (error) {
      showSnackbar(serverMessage(error, EVENTS_TEXT.saveFailed), 'error');
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const result = await addRecipients(event.id, pending.body, true);
      showSnackbar(result.message, 'success');
      setPending(null);
      await afterEventChange(event.id);
    } catch (error) {
      showSnackbar(serverMessage(error, EVENTS_TEXT.saveFailed), 'error');
    } finally {
      setBusy(false);
    }
  };

  const remove = async (recipient: RecipientItem) => {
    try {
      const result = await removeRecipient(event.id, recipient.id);
      showSnackbar(result.message, 'success');
      await afterEventChange(event.id);
    } catch (error) {
      showSnackbar(serverMessage(error, EVENTS_TEXT.saveFailed), 'error');
    }
  };

  // The list a page at a time, searched on the server (decision 035): an evening of thousands of
  // families sends only what is shown. The search waits for typing to pause.
  const search = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const list = useQuery(recipientsQuery(event.id, { q: search, notBooked: notBookedOnly ? 1 : 0, page }));
  const counts = useQuery(recipientCountsQuery(event.id));
  const shown = list.data?.items ?? [];
  const people = counts.data?.people ?? event.recipientCount;
  const notBooked = counts.data?.notBookedFamilies ?? 0;
  const filtered = search !== '' || notBookedOnly;
  // The last on a page removed: back to the last page there is.
  if (list.data && !list.isPlaceholderData && list.data.items.length === 0 && page > 1)
    setPage(Math.max(1, Math.ceil(list.data.total / list.data.pageSize)));

  return (
    <SectionCard
      title={`${EVENTS_TEXT.recipients} (${people})`}
      action={
        <Chip
          size="small"
          label={`${counts.data?.bookedPeople ?? 0} ${EVENTS_TEXT.hasBooked.toLowerCase()}`}
        />
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {EVENTS_TEXT.recipientsHelp}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1, mb: 2 }} useFlexGap>
        <Button
          variant="outlined"
          startIcon={<GroupAddIcon />}
          disabled={busy}
          onClick={() => void preview({ all: 'parents' })}
        >
          {EVENTS_TEXT.addAllParents}
        </Button>
        <Button
          variant="outlined"
          startIcon={<GroupAddIcon />}
          disabled={busy}
          onClick={() => void preview({ all: 'students' })}
        >
          {EVENTS_TEXT.addAllStudents}
        </Button>
        <Button
          variant="outlined"
          startIcon={<PersonAddIcon />}
          disabled={busy}
          onClick={() => setPicking(true)}
        >
          {EVENTS_TEXT.pickPeople}
        </Button>
      </Stack>
      {list.isError || counts.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {ADMIN_BOOKING_TEXT.recipientsFailed}
        </Alert>
      ) : null}
      {people === 0 ? (
        <Typography color="text.secondary">{EVENTS_TEXT.noRecipients}</Typography>
      ) : (
        <>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}
          >
            {people > 8 ? (
              <TextField
                size="small"
                type="search"
                label={LIST_TEXT.search}
                value={query}
                onChange={(e) => {
                  setQuery(e.target.value);
                  setPage(1);
                }}
              />
            ) : null}
            <Chip
              label={ADMIN_BOOKING_TEXT.notBookedFilter(notBooked)}
              color={notBookedOnly ? 'primary' : 'default'}
              variant={notBookedOnly ? 'filled' : 'outlined'}
              icon={notBookedOnly ? <FilterListIcon /> : undefined}
              onClick={() => {
                setNotBookedOnly((on) => !on);
                setPage(1);
              }}
              aria-pressed={notBookedOnly}
            />
          </Stack>
          {notBookedOnly && notBooked === 0 ? (
            <Typography color="text.secondary" sx={{ mb: 1 }}>
              {ADMIN_BOOKING_TEXT.everyoneBooked}
            </Typography>
          ) : null}
          <TableContainer sx={{ maxHeight: 360 }}>
            <Table size="small" stickyHeader aria-label={EVENTS_TEXT.recipients}>
              <TableHead>
                <TableRow>
                  <TableCell>{EVENTS_TEXT.columns.name}</TableCell>
                  <TableCell align="right">{EVENTS_TEXT.columns.actions}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((recipient) => (
                  <TableRow key={recipient.id}>
                    <TableCell>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <Typography variant="body2">{recipient.name}</Typography>
                        <Chip
                          size="small"
                          variant="outlined"
                          color={recipient.booked ? 'success' : 'default'}
                          label={recipient.booked ? EVENTS_TEXT.hasBooked : EVENTS_TEXT.notBooked}
                        />
                      </Stack>
                      <Typography variant="caption" color="text.secondary">
                        {`${recipient.email} · ${recipient.roles
                          .map((role) => (role === 'parent' ? EVENTS_TEXT.parent : EVENTS_TEXT.student))
                          .join(', ')}`}
                      </Typography>
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <MessageOneMenu event={event} recipient={recipient} />
                      <Tooltip title={EVENTS_TEXT.remove}>
                        <IconButton
                          size="small"
                          aria-label={EVENTS_TEXT.removeRecipient(recipient.name)}
                          onClick={() => void remove(recipient)}
                        >
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {list.data && list.data.total > list.data.pageSize ? (
            <Pager
              page={list.data.page}
              pageSize={list.data.pageSize}
              total={list.data.total}
              onPage={setPage}
            />
          ) : null}
          {filtered && list.data?.total === 0 && !(notBookedOnly && notBooked === 0) ? (
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {LIST_TEXT.noMatches}
            </Typography>
          ) : null}
        </>
      )}
      <PickPeopleDialog
        open={picking}
        onClose={() => setPicking(false)}
        onPreview={(userIds) => {
          setPicking(false);
          void preview({ userIds });
        }}
      />
      <PreviewDialog
        pending={pending}
        saving={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
    </SectionCard>
  );
}
