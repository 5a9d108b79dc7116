import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  BOOKING_TEXT,
  type BookingPage,
  type BookingResult,
  type BookingViewer,
  type MyBooking,
} from '@parley/domain/booking';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { NativeSelectField } from '../../../components/native-select-field';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { afterBookingChange, type BookingAccess, updateGownSize } from '../api';
import { BOOKING_UI } from '../booking-text';
import {
  currentBooking,
  formReady,
  freeLabel,
  initialPlaceForm,
  type PlaceForm,
  placeAction,
  placeSections,
} from '../places-logic';
import type { BookingChildRef } from '../pt-selection';
import { bookingErrorLines, useBookAction } from '../use-booking-actions';
import { TimeZoneNote } from './booking-header';
import { BookingSummary } from './booking-list';
import { ConfirmationStep } from './confirmation-step';
import type { ChangeRequest } from './pt-booking-flow';

type Props = {
  access: BookingAccess;
  page: BookingPage;
  viewer: BookingViewer;
  childList: readonly BookingChildRef[];
  changeRequest: ChangeRequest | null;
  onCancel: (booking: MyBooking) => void;
};

/**
 * Booking events (group 4): a slot of a section. Ticketed (2) and graduation (3): places with guests, and a
 * gown size for a graduation. One booking per person; an existing one is changed or cancelled.
 */
export function PlaceBooking({ access, page, viewer, childList, changeRequest, onCancel }: Props) {
  const { event } = page;
  const showSnackbar = useSnackbar();
  const ids = { child: useId(), guests: useId(), gown: useId(), slots: useId() };
  const asStudent = viewer.bookAs === 'student';
  const [childId, setChildId] = useState<number | null>(
    asStudent ? page.studentId : (childList[0]?.id ?? null),
  );
  const studentId = asStudent ? page.studentId : childId;
  const current = currentBooking(page.bookings, studentId);
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<PlaceForm>(() =>
    initialPlaceForm(null, event.guestCountOptions, placeSections(page.grid, null)),
  );
  const [result, setResult] = useState<BookingResult | null>(null);

  const withGuests = event.eventTypeGroupInt !== 4 && event.guestCountOptions.length > 0;
  const needsGown = event.eventTypeGroupInt === 3 && event.gownOptions.length > 0;
  const sections = placeSections(page.grid, editing ? current : null);

  const startEdit = (booking: MyBooking) => {
    setForm(initialPlaceForm(booking, event.guestCountOptions));
    setEditing(true);
    setResult(null);
  };

  const [seenChange, setSeenChange] = useState(changeRequest);
  if (changeRequest !== seenChange) {
    setSeenChange(changeRequest);
    if (changeRequest) {
      const { booking } = changeRequest;
      if (!asStudent && booking.studentId !== null) setChildId(booking.studentId);
      startEdit(booking);
    }
  }

  const done = (booked: BookingResult) => {
    setEditing(false);
    setResult(booked);
    setForm(initialPlaceForm(null, event.guestCountOptions, placeSections(page.grid, null)));
  };
  const book = useBookAction(access, event.id, null, done);
  const gown = useMutation({
    mutationFn: (query: { studentId: number; gownSizeId: string; userSlotId: number }) =>
      updateGownSize(access, { eventId: event.id, ...query }),
    onSuccess: async (saved) => {
      showSnackbar(saved.message || BOOKING_TEXT.gownSaved, 'success');
      setEditing(false);
      await afterBookingChange(access, saved);
    },
  });

  const action = placeAction(form, editing ? current : null, studentId);
  const save = () => {
    book.reset();
    gown.reset();
    if (action.kind === 'book')
      book.mutate({ items: action.items, cancelBookingIds: action.cancelBookingIds });
    if (action.kind === 'gown' && studentId !== null) {
      gown.mutate({ studentId, gownSizeId: action.gownSize, userSlotId: action.bookingId });
    }
  };
  const failure = book.error ?? gown.error;
  const showForm = editing || current === null;
  if (!asStudent && childList.length === 0) return <Alert severity="info">{BOOKING_TEXT.noChildren}</Alert>;

  return (
    <SectionCard title={editing ? BOOKING_UI.change : BOOKING_UI.book}>
      <Stack spacing={2}>
        {!asStudent && childList.length > 1 ? (
          <NativeSelectField
            id={ids.child}
            size="small"
            label={BOOKING_UI.bookingFor}
            value={childId ?? ''}
            onChange={(change) => {
              const next = Number(change.target.value);
              setChildId(next);
              setEditing(false);
              setResult(null);
              setForm(initialPlaceForm(null, event.guestCountOptions, placeSections(page.grid, null)));
            }}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ maxWidth: 320 }}
          >
            {childList.map((child) => (
              <option key={child.id} value={child.id}>
                {child.name}
              </option>
            ))}
          </NativeSelectField>
        ) : null}

        {result ? (
          <ConfirmationStep
            result={result}
            bookings={page.bookings.filter((booking) => result.created.includes(booking.id))}
            viewer={viewer}
            timeZone={event.timeZone}
          />
        ) : null}

        {current && !editing ? (
          <Stack spacing={1}>
            {result ? null : (
              <>
                <Typography>{BOOKING_UI.youBooked(current.timeLabel)}</Typography>
                <BookingSummary booking={current} />
              </>
            )}
            <Stack direction="row" spacing={1}>
              <Button variant="outlined" onClick={() => startEdit(current)}>
                {BOOKING_UI.change}
              </Button>
              <Button color="error" onClick={() => onCancel(current)}>
                {BOOKING_UI.cancel}
              </Button>
            </Stack>
          </Stack>
        ) : null}

        {showForm ? (
          <Stack spacing={2}>
            {failure ? (
              <Alert severity="warning" role="alert">
                {bookingErrorLines(failure).join(' ')}
              </Alert>
            ) : null}
            {sections.length === 0 ? (
              <Alert severity="info">{BOOKING_UI.noSlots}</Alert>
            ) : (
              <Box>
                <Typography id={ids.slots} variant="subtitle2" sx={{ fontWeight: 600 }}>
                  {BOOKING_UI.chooseTime}
                </Typography>
                <RadioGroup
                  aria-labelledby={ids.slots}
                  value={form.slotId === null ? '' : String(form.slotId)}
                  onChange={(change) => setForm({ ...form, slotId: Number(change.target.value) })}
                >
                  {sections.map((section) => (
                    <Box key={section.sectionId} sx={{ mt: 1 }}>
                      <Typography variant="body2" color="text.secondary">
                        {[section.dateLabel, section.location].filter(Boolean).join(' · ')}
                      </Typography>
                      {section.slots.map((slot) => (
                        <FormControlLabel
                          key={slot.id}
                          value={String(slot.id)}
                          disabled={!slot.selectable}
                          control={<Radio size="small" />}
                          label={`${slot.time} – ${slot.endTime} · ${slot.mine ? BOOKING_UI.cellShort.mine : freeLabel(slot.free)}`}
                          sx={{ display: 'flex' }}
                        />
                      ))}
                    </Box>
                  ))}
                </RadioGroup>
                <TimeZoneNote timeZone={event.timeZone} />
              </Box>
            )}
            {withGuests || needsGown ? (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
                {withGuests ? (
                  <NativeSelectField
                    id={ids.guests}
                    size="small"
                    label={BOOKING_UI.guests}
                    value={String(form.guests)}
                    onChange={(change) => setForm({ ...form, guests: Number(change.target.value) })}
                    slotProps={{ inputLabel: { shrink: true } }}
                    sx={{ minWidth: 140 }}
                  >
                    {event.guestCountOptions.map((count) => (
                      <option key={count} value={count}>
                        {count}
                      </option>
                    ))}
                  </NativeSelectField>
                ) : null}
                {needsGown ? (
                  <NativeSelectField
                    id={ids.gown}
                    size="small"
                    label={BOOKING_UI.gownSize}
                    value={form.gownSize ?? ''}
                    onChange={(change) => setForm({ ...form, gownSize: change.target.value || null })}
                    slotProps={{ inputLabel: { shrink: true } }}
                    sx={{ minWidth: 160 }}
                  >
                    <option value="" />
                    {event.gownOptions.map((option) => (
                      <option key={option.id} value={option.id}>
                        {option.name}
                      </option>
                    ))}
                  </NativeSelectField>
                ) : null}
              </Box>
            ) : null}
            <Stack direction="row" spacing={1}>
              <Button
                variant="contained"
                disabled={
                  !formReady(form, needsGown) || action.kind === 'none' || book.isPending || gown.isPending
                }
                onClick={save}
              >
                {editing ? BOOKING_UI.saveChange : BOOKING_UI.book}
              </Button>
              {editing ? <Button onClick={() => setEditing(false)}>{BOOKING_UI.stopChange}</Button> : null}
            </Stack>
          </Stack>
        ) : null}
      </Stack>
    </SectionCard>
  );
}
