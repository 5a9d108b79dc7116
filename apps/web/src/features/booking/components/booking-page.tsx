import LoginIcon from '@mui/icons-material/Login';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { BOOKING_TEXT, type BookingPage as BookingPageData, type MyBooking } from '@parley/domain/booking';
import { callPath, routeTo } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { memo, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { FIRST_ANSWER_FRESH_MS, firstBookingPage } from '../../../lib/first-answers';
import { loginFor } from '../../../lib/navigation';
import { useUrlToken } from '../../../lib/url-token';
import { type BookingAccess, bookingPageQuery, GRID_POLL_MS } from '../api';
import { BOOKING_LINK_PARAM, bookingLinkKey, forgetBookingLink } from '../booking-link';
import { BOOKING_UI } from '../booking-text';
import { bookingChildren } from '../pt-selection';
import { BookingHeader } from './booking-header';
import { MyBookingsCard } from './my-bookings-card';
import { PlaceBooking } from './place-booking';
import { type ChangeRequest, PtBookingFlow } from './pt-booking-flow';
import { useCancelBooking } from './use-cancel-booking';

/** A visitor who is neither logged in nor came with a personal link. */
function LoginPrompt() {
  const { pathname } = useLocation();
  return (
    <Alert
      severity="info"
      action={
        <Button color="inherit" component={RouterLink} to={loginFor(pathname)} startIcon={<LoginIcon />}>
          {BOOKING_UI.logIn}
        </Button>
      }
      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
    >
      {BOOKING_TEXT.loginToBook}
    </Alert>
  );
}

// Memoised: taking the personal link out of the address re-renders the route, and the page (the whole
// flow) need not render again for it when its access and data are the same.
const BookingView = memo(function BookingView({
  access,
  page,
}: {
  access: BookingAccess;
  page: BookingPageData;
}) {
  const { event, viewer } = page;
  const cancel = useCancelBooking(access, event.id);
  const [changeRequest, setChangeRequest] = useState<ChangeRequest | null>(null);
  const childList = useMemo(() => bookingChildren(page), [page]);
  const requestChange = (booking: MyBooking) =>
    setChangeRequest((current) => ({ booking, nonce: (current?.nonce ?? 0) + 1 }));

  return (
    <Stack spacing={2}>
      <BookingHeader event={event} viewer={viewer} />
      {viewer === null ? <LoginPrompt /> : null}
      {viewer && event.isOpen && event.eventTypeGroupInt === 1 ? (
        <PtBookingFlow
          access={access}
          page={page}
          childList={childList}
          changeRequest={changeRequest}
          onCancel={cancel.ask}
        />
      ) : null}
      {viewer && event.isOpen && event.eventTypeGroupInt !== 1 ? (
        <PlaceBooking
          access={access}
          page={page}
          viewer={viewer}
          childList={childList}
          changeRequest={changeRequest}
          onCancel={cancel.ask}
        />
      ) : null}
      {viewer ? (
        <MyBookingsCard
          bookings={page.bookings}
          lateNotes={page.lateNotes}
          {...(event.meetingMode === 'video' && {
            // A family by its mail's link takes the event's code along: the call page finds the link by it.
            callOf: (booking: MyBooking) =>
              callPath(booking.id, page.viewer?.viaLink ? event.code : undefined),
          })}
          canChange={event.isOpen}
          onChange={requestChange}
          onCancel={cancel.ask}
        />
      ) : null}
      {cancel.dialog}
    </Stack>
  );
});

function BookingScreen({ code }: { code: string }) {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  // The personal link: kept for this tab, then taken out of the address bar.
  const link = useUrlToken(BOOKING_LINK_PARAM, bookingLinkKey(code));
  const access = useMemo<BookingAccess>(() => ({ code, link }), [code, link]);
  // The answer the page arrived with, if any: the page shows at once and is not asked for again yet.
  const [first] = useState(() => firstBookingPage<BookingPageData>(code, link));

  const page = useQuery({
    ...bookingPageQuery(access),
    ...(first && {
      initialData: first.data,
      initialDataUpdatedAt: first.at,
      staleTime: FIRST_ANSWER_FRESH_MS,
    }),
    refetchOnWindowFocus: true,
    // Booking events, ticketed and graduation: their grid is the page's own; keep it live too.
    refetchInterval: (query) => {
      const event = query.state.data?.event;
      return event && event.eventTypeGroupInt !== 1 && event.isOpen && query.state.data?.viewer
        ? GRID_POLL_MS
        : false;
    },
  });

  // Without a session, the personal link opens the live channel (a teacher running late shows at once).
  useEffect(() => {
    if (!link) return;
    void import('../../live/live-updates').then(({ followBookingLink }) => followBookingLink(link));
    return () =>
      void import('../../live/live-updates').then(({ followBookingLink }) => followBookingLink(null));
  }, [link]);

  // Spec §4/§8: a code that does not load shows the server's message and goes home.
  const failed = page.isError && !page.data;
  useEffect(() => {
    if (!failed) return;
    if (link) forgetBookingLink(code);
    showSnackbar(serverMessage(page.error, BOOKING_UI.loadFailed), 'error');
    navigate(routeTo('home'), { replace: true });
  }, [failed, page.error, link, code, showSnackbar, navigate]);

  if (!page.data) return <PageSkeleton />;
  return <BookingView access={access} page={page.data} />;
}

/** /book/ptevent/{code} and /book/event/{code}: the public booking pages. */
export function BookingPage() {
  const { code = '' } = useParams();
  return <BookingScreen key={code} code={code} />;
}
