import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { EVENT_GROUPS, isTicketedGroup } from '@parley/domain/event-groups';
import type { EventDetail } from '@parley/domain/events';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { Controller, type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { useIsMobile } from '../../../components/use-is-mobile';
import { ApiError } from '../../../lib/api-client';
import { peopleSearchQuery } from '../../../lib/people-search';
import { LIST_TEXT } from '../../../lib/ui-text';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '../../../lib/use-debounced-value';
import { useFormOnOpen } from '../../../lib/use-form-on-open';
import {
  emptyFamilyBooking,
  type FamilyBookingField,
  type FamilyBookingValues,
  type FamilyOption,
  familyBookingRequest,
  familyOptions,
  freeSlots,
  sharedDate,
  studentsMayBook,
  subjectOptions,
  ADMIN_BOOKING_TEXT as T,
  teacherOptions,
} from '../admin-booking';
import { familyPersonQuery, recipientsQuery, updateSlotByAdmin } from '../api';
import { useBookingChange } from './booking-actions';
import { useSlotColumns } from './use-slot-columns';

/** Checked with familyBookingRequest: the form says what the request would lack. */
function familyResolver(event: EventDetail): Resolver<FamilyBookingValues> {
  return (values) => {
    const result = familyBookingRequest(values, event);
    if (result.ok) return { values, errors: {} };
    const errors: FieldErrors<FamilyBookingValues> = {};
    for (const [field, message] of Object.entries(result.errors)) {
      errors[field as FamilyBookingField] = { type: 'required', message };
    }
    return { values: {}, errors };
  };
}

/** The server's field names (update-slot-by-admin and its items) on the form's fields. */
const SERVER_FIELDS: Record<string, keyof FamilyBookingValues> = {
  parentId: 'person',
  studentId: 'studentId',
  'items.0.studentId': 'studentId',
  'items.0.slotId': 'slotId',
  slotId: 'slotId',
  subjectId: 'subjectId',
  'items.0.guests': 'guests',
  'items.0.gownSize': 'gownSize',
};

/**
 * Book on a family's behalf: a parent (and one of their children) or, outside parent-teacher evenings, a
 * student; then a teacher and a free time (parent-teacher) or a slot with places, and for ticketed and
 * graduation events the guests and gown size. Sent with update-slot-by-admin.
 */
export function BookForFamilyDialog({
  event,
  open,
  onClose,
}: {
  event: EventDetail;
  open: boolean;
  onClose: () => void;
}) {
  const titleId = useId();
  const isMobile = useIsMobile();
  const run = useBookingChange(event.id);
  const group = event.eventTypeGroupInt;
  const parentTeacher = group === EVENT_GROUPS.parentTeacher;
  const withStudents = studentsMayBook(group);
  const resolver = useMemo(() => familyResolver(event), [event]);
  const {
    control,
    handleSubmit,
    reset,
    setValue,
    setError,
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<FamilyBookingValues>({ resolver, defaultValues: emptyFamilyBooking() });

  useFormOnOpen(open, reset, emptyFamilyBooking());

  const person = watch('person');
  const studentId = watch('studentId');
  const teacherId = watch('teacherId');
  const slotId = watch('slotId');

  const parentId = person?.role === 'parent' ? person.id : 0;
  const parent = useQuery({ ...familyPersonQuery('parents', parentId), enabled: open && parentId > 0 });
  const childId = Number(studentId) || 0;
  const child = useQuery({
    ...familyPersonQuery('students', childId),
    enabled: open && parentTeacher && childId > 0,
  });

  // The event's recipients come first: those matching what is typed, found by the server (decision 035).
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (open) setTyped(''); // each opening starts with an empty box
  }, [open]);
  const search = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const invited = useQuery({
    ...recipientsQuery(event.id, { q: search, notBooked: 0, page: 1 }),
    enabled: open,
  });
  // Then the school's other parents (and students) matching it: never the whole directory.
  const parents = useQuery({ ...peopleSearchQuery('parents', search), enabled: open });
  const students = useQuery({ ...peopleSearchQuery('students', search), enabled: open && withStudents });
  const people = useMemo(
    () => familyOptions(group, invited.data?.items ?? [], parents.data?.items, students.data?.items),
    [group, invited.data, parents.data, students.data],
  );
  const children = parent.data?.children ?? [];
  const studies = child.data?.studies;
  const teachers = useMemo(() => teacherOptions(event, studies), [event, studies]);
  // The chosen teacher's column (or a general event's columns), asked for when needed (decision 035).
  const columns = useSlotColumns(event, teacherId ? Number(teacherId) : null, open);
  const slots = useMemo(
    () =>
      parentTeacher
        ? teacherId
          ? freeSlots(columns, { teacherId: Number(teacherId) })
          : []
        : freeSlots(columns),
    [columns, parentTeacher, teacherId],
  );
  const subjects = useMemo(
    () => subjectOptions(studies, teacherId ? Number(teacherId) : null),
    [studies, teacherId],
  );

  // One child: chosen for the admin.
  useEffect(() => {
    const only = parent.data?.children;
    if (open && only?.length === 1 && only[0] && studentId === '') {
      setValue('studentId', String(only[0].id), { shouldValidate: isSubmitted });
    }
  }, [open, parent.data, studentId, setValue, isSubmitted]);

  // A time taken meanwhile (the event reloads after a 409) is no longer offered: clear the choice.
  useEffect(() => {
    if (slotId && !slots.some((slot) => String(slot.slotId) === slotId)) setValue('slotId', '');
  }, [slots, slotId, setValue]);

  const clear = (...fields: Array<Exclude<keyof FamilyBookingValues, 'person'>>) => {
    for (const field of fields) setValue(field, '');
  };

  const submit = handleSubmit(async (values) => {
    const request = familyBookingRequest(values, event);
    if (!request.ok) return;
    const result = await run(
      () => updateSlotByAdmin(event.id, request.body),
      (error) => {
        if (!(error instanceof ApiError) || !error.errors) return;
        for (const [field, messages] of Object.entries(error.errors)) {
          const target = SERVER_FIELDS[field];
          if (target && messages[0]) setError(target, { type: 'server', message: messages[0] });
        }
      },
    );
    if (result) onClose();
  });

  const noChildren = person?.role === 'parent' && parent.isSuccess && children.length === 0;

  return (
    <Dialog
      open={open}
      onClose={isSubmitting ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      fullScreen={isMobile}
      slotProps={{ paper: { sx: isMobile ? undefined : { maxWidth: 560 } } }}
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{T.bookTitle}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {T.bookHelp}
          </Typography>
          <Stack spacing={2}>
            <Controller
              control={control}
              name="person"
              render={({ field }) => (
                <Autocomplete<FamilyOption>
                  options={people}
                  loading={parents.isLoading || students.isLoading}
                  groupBy={(option) => option.group}
                  getOptionLabel={(option) => `${option.name} (${option.email})`}
                  getOptionKey={(option) => option.key}
                  isOptionEqualToValue={(a, b) => a.key === b.key}
                  renderOption={({ key, ...props }, option) => (
                    <Box component="li" key={key} {...props}>
                      <div>
                        <Typography variant="body2">{option.name}</Typography>
                        <Typography variant="caption" color="text.secondary">
                          {option.notBooked ? `${option.email} · ${T.notBookedYet}` : option.email}
                        </Typography>
                      </div>
                    </Box>
                  )}
                  value={field.value}
                  onInputChange={(_event, value, reason) => {
                    // A choice fills the box with its label (not a search); the form's reset empties it.
                    if (reason !== 'reset' || value === '') setTyped(value);
                  }}
                  onChange={(_event, next) => {
                    field.onChange(next);
                    clear('studentId', 'teacherId', 'slotId', 'subjectId');
                  }}
                  onBlur={field.onBlur}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      required
                      label={withStudents ? T.parentOrStudent : T.parent}
                      error={Boolean(errors.person)}
                      helperText={errors.person?.message}
                    />
                  )}
                />
              )}
            />
            {person?.role === 'parent' ? (
              noChildren ? (
                <Alert severity={parentTeacher ? 'warning' : 'info'}>{T.noChildren}</Alert>
              ) : (
                <Controller
                  control={control}
                  name="studentId"
                  render={({ field }) => (
                    <TextField
                      select
                      required={parentTeacher}
                      label={T.child}
                      value={field.value}
                      onChange={(e) => {
                        field.onChange(e.target.value);
                        clear('subjectId');
                      }}
                      onBlur={field.onBlur}
                      disabled={!parent.isSuccess}
                      error={Boolean(errors.studentId)}
                      helperText={errors.studentId?.message}
                    >
                      {parentTeacher ? null : <MenuItem value="">{T.noChild}</MenuItem>}
                      {children.map((item) => (
                        <MenuItem key={item.id} value={String(item.id)}>
                          {item.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              )
            ) : null}
            {parentTeacher ? (
              <Controller
                control={control}
                name="teacherId"
                render={({ field }) => (
                  <TextField
                    select
                    required
                    label={T.teacher}
                    value={field.value}
                    onChange={(e) => {
                      field.onChange(e.target.value);
                      clear('slotId', 'subjectId');
                    }}
                    onBlur={field.onBlur}
                    disabled={teachers.length === 0}
                    error={Boolean(errors.teacherId)}
                    helperText={
                      errors.teacherId?.message ?? (teachers.length === 0 ? T.noFreeSlots : undefined)
                    }
                  >
                    {teachers.map((teacher) => (
                      <MenuItem key={teacher.teacherId} value={String(teacher.teacherId)}>
                        {teacher.hint ? `${teacher.name} — ${teacher.hint}` : teacher.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            ) : null}
            <Controller
              control={control}
              name="slotId"
              render={({ field }) => (
                <TextField
                  select
                  required
                  label={T.time}
                  value={field.value}
                  onChange={(e) => field.onChange(e.target.value)}
                  onBlur={field.onBlur}
                  disabled={slots.length === 0}
                  error={Boolean(errors.slotId)}
                  helperText={
                    errors.slotId?.message ??
                    (columns.loading
                      ? T.findingTimes
                      : !parentTeacher && slots.length === 0
                        ? T.noFreeSlots
                        : sharedDate(slots))
                  }
                >
                  {slots.map((slot) => (
                    <MenuItem key={slot.slotId} value={String(slot.slotId)}>
                      {slot.label}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            {parentTeacher && subjects.length > 0 ? (
              <Controller
                control={control}
                name="subjectId"
                render={({ field }) => (
                  <TextField
                    select
                    label={T.subject}
                    value={field.value}
                    onChange={(e) => field.onChange(e.target.value)}
                    onBlur={field.onBlur}
                    error={Boolean(errors.subjectId)}
                    helperText={errors.subjectId?.message}
                  >
                    <MenuItem value="">{T.noSubject}</MenuItem>
                    {subjects.map((subject) => (
                      <MenuItem key={subject.id} value={String(subject.id)}>
                        {subject.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            ) : null}
            {isTicketedGroup(group) ? (
              <Controller
                control={control}
                name="guests"
                render={({ field }) => (
                  <TextField
                    select
                    label={T.guests}
                    value={field.value}
                    onChange={(e) => field.onChange(e.target.value)}
                    onBlur={field.onBlur}
                    error={Boolean(errors.guests)}
                    helperText={errors.guests?.message}
                  >
                    {(event.guestCountOptions.length > 0 ? event.guestCountOptions : [0]).map((count) => (
                      <MenuItem key={count} value={String(count)}>
                        {count}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            ) : null}
            {group === EVENT_GROUPS.ceremony ? (
              <Controller
                control={control}
                name="gownSize"
                render={({ field }) => (
                  <TextField
                    select
                    label={T.gown}
                    value={field.value}
                    onChange={(e) => field.onChange(e.target.value)}
                    onBlur={field.onBlur}
                    error={Boolean(errors.gownSize)}
                    helperText={errors.gownSize?.message}
                  >
                    <MenuItem value="">{T.noGown}</MenuItem>
                    {event.gownOptions.map((gown) => (
                      <MenuItem key={gown.id} value={gown.id}>
                        {gown.name}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={isSubmitting}>
            {LIST_TEXT.cancel}
          </Button>
          <Button
            type="submit"
            variant="contained"
            loading={isSubmitting}
            disabled={noChildren && parentTeacher}
          >
            {T.book}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
