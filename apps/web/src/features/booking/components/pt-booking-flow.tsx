import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { BOOKING_TEXT, type BookingPage, type BookingResult, type MyBooking } from '@parley/domain/booking';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { useIsMobile } from '../../../components/use-is-mobile';
import type { BookingAccess } from '../api';
import { BOOKING_UI } from '../booking-text';
import { type BookingChildRef, initialSelection, selectedItems, withAppointment } from '../pt-selection';
import { columnKey } from '../times-grid';
import { ConfirmationStep } from './confirmation-step';
import { ChildrenStep, TeachersStep } from './pt-choice-steps';
import type { TimesMode } from './times-step';

// The times step (the grid, its table and tabs, the arrange form: some 15 KB gzipped) is not needed to
// choose children and teachers: its chunk is fetched while those steps are shown (decision 019).
const TimesStep = lazyComponent(() => import('./times-step').then((m) => m.TimesStep));

/** The times step's chunk, fetched ahead (the flow does it on mount; screen tests before they start). */
export const preloadTimesStep = () => TimesStep.preload();

type StepId = 'children' | 'teachers' | 'times' | 'done';

/** A "Change" pressed in My bookings: the times step opens on that appointment. */
export type ChangeRequest = { booking: MyBooking; nonce: number };

type Props = {
  access: BookingAccess;
  page: BookingPage;
  childList: readonly BookingChildRef[];
  changeRequest: ChangeRequest | null;
  onCancel: (booking: MyBooking) => void;
};

/** The parent-teacher flow: children → teachers → times → confirmation (a student starts at teachers). */
export function PtBookingFlow({ access, page, childList, changeRequest, onCancel }: Props) {
  const isMobile = useIsMobile();
  const asParent = page.viewer?.bookAs !== 'student';
  const steps: StepId[] = asParent
    ? ['children', 'teachers', 'times', 'done']
    : ['teachers', 'times', 'done'];
  const [step, setStep] = useState<StepId>(asParent && childList.length > 1 ? 'children' : 'teachers');
  const [selection, setSelection] = useState(() => initialSelection(page));
  const [result, setResult] = useState<BookingResult | null>(null);
  const [times, setTimes] = useState<{ nonce: number; mode: TimesMode; changing: string | null }>({
    nonce: 0,
    mode: 'arrange',
    changing: null,
  });
  const top = useRef<HTMLDivElement>(null);

  const [seenChange, setSeenChange] = useState(changeRequest);
  if (changeRequest !== seenChange) {
    setSeenChange(changeRequest);
    const booking = changeRequest?.booking;
    if (booking?.studentId != null && booking.teacherId != null) {
      setSelection((current) => withAppointment(current, booking));
      setTimes((current) => ({
        nonce: current.nonce + 1,
        mode: 'pick',
        changing: columnKey(booking.teacherId ?? 0),
      }));
      setStep('times');
    }
  }

  useEffect(() => {
    void TimesStep.preload().catch(() => undefined); // tried again when the step is opened
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the flow's top when the step or change request moves
  useEffect(() => {
    top.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [step, times.nonce]);

  const items = useMemo(() => selectedItems(selection), [selection]);
  const index = steps.indexOf(step);
  const go = (id: StepId) => setStep(id);
  const openTimes = (mode: TimesMode) => {
    setTimes((current) => ({ nonce: current.nonce + 1, mode, changing: null }));
    go('times');
  };

  if (asParent && childList.length === 0) return <Alert severity="info">{BOOKING_TEXT.noChildren}</Alert>;

  const unbooked = items.filter(
    (item) =>
      !page.bookings.some(
        (booking) =>
          booking.status === 'booked' &&
          booking.studentId === item.studentId &&
          booking.teacherId === item.teacherId,
      ),
  );

  return (
    <Card variant="outlined" ref={top} sx={{ scrollMarginTop: 72 }}>
      <CardContent sx={{ p: { xs: 2, md: 3 }, '&:last-child': { pb: { xs: 2, md: 3 } } }}>
        <Stack spacing={2}>
          <Stepper activeStep={index} alternativeLabel={isMobile} aria-label="Booking steps">
            {steps.map((id) => (
              <Step key={id} completed={steps.indexOf(id) < index || (id === 'done' && step === 'done')}>
                <StepLabel>{BOOKING_UI.steps[id]}</StepLabel>
              </Step>
            ))}
          </Stepper>

          {step === 'children' ? (
            <ChildrenStep page={page} childList={childList} selection={selection} onChange={setSelection} />
          ) : null}
          {step === 'teachers' ? (
            <TeachersStep page={page} childList={childList} selection={selection} onChange={setSelection} />
          ) : null}
          {step === 'times' ? (
            <Suspense fallback={null}>
              <TimesStep
                key={times.nonce}
                access={access}
                page={page}
                items={items}
                childList={childList}
                initialMode={times.mode}
                initialChanging={times.changing}
                onBooked={(booked) => {
                  setResult(booked);
                  go('done');
                }}
                onCancel={onCancel}
              />
            </Suspense>
          ) : null}
          {step === 'done' && result && page.viewer ? (
            <ConfirmationStep
              result={result}
              bookings={page.bookings}
              viewer={page.viewer}
              timeZone={page.event.timeZone}
              onChangeBookings={() => openTimes('pick')}
            />
          ) : null}

          {step === 'teachers' && items.length === 0 ? (
            <Alert severity="info">{BOOKING_UI.noTeacherChosen}</Alert>
          ) : null}

          {step !== 'done' ? (
            <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
              <Button
                onClick={() => go(steps[index - 1] ?? step)}
                disabled={index === 0}
                sx={{ visibility: index === 0 ? 'hidden' : 'visible' }}
              >
                {BOOKING_UI.back}
              </Button>
              {step === 'children' ? (
                <Button
                  variant="contained"
                  disabled={selection.childIds.length === 0}
                  onClick={() => go('teachers')}
                >
                  {BOOKING_UI.next}
                </Button>
              ) : null}
              {step === 'teachers' ? (
                <Button
                  variant="contained"
                  disabled={items.length === 0}
                  onClick={() => openTimes(unbooked.length > 0 ? 'arrange' : 'pick')}
                >
                  {BOOKING_UI.next}
                </Button>
              ) : null}
            </Box>
          ) : null}
        </Stack>
      </CardContent>
    </Card>
  );
}
