import CheckIcon from '@mui/icons-material/Check';
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import ListAltIcon from '@mui/icons-material/ListAlt';
import MeetingRoomIcon from '@mui/icons-material/MeetingRoomOutlined';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import ScheduleIcon from '@mui/icons-material/Schedule';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MY_EVENTS_TEXT, type OpenEventSummaryItem } from '@parley/domain/booking';
import { routeTo } from '@parley/domain/routes';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../../../lib/session';
import { doorPath } from '../../tickets/api';
import { ScanTicketsButton } from '../../tickets/components/scan-tickets-button';
import { ShowTicketButton } from '../../tickets/components/show-ticket-button';
import { TICKETS_UI } from '../../tickets/tickets-text';
import {
  familyBookingLine,
  isInternalLink,
  itemActions,
  teacherBookingLine,
  type ViewAsRole,
} from '../my-events-logic';
import { MY_EVENTS_UI } from '../my-events-text';

/** Where a tap on an item goes (spec §2): the role's details page with ?eventId. */
export function detailsPath(role: ViewAsRole, eventId: number): string {
  if (role === 'teacher') return routeTo('event.details-teacher', {}, { eventId });
  if (role === 'parent') return routeTo('event.details-parent', {}, { eventId });
  return routeTo('event.details-student', {}, { eventId });
}

function LinkButton({ to, icon, label }: { to: string; icon: ReactNode; label: string }) {
  return isInternalLink(to) ? (
    <Button size="small" startIcon={icon} component={RouterLink} to={to}>
      {label}
    </Button>
  ) : (
    <Button size="small" startIcon={icon} href={to}>
      {label}
    </Button>
  );
}

type Props = {
  role: ViewAsRole;
  item: OpenEventSummaryItem;
  /** The event is in the user's calendar (spec §4 calendar state). */
  inCalendar: boolean;
  onAddToCalendar: (item: OpenEventSummaryItem) => void;
};

/** One open event of "My Events": what it is, the viewer's bookings, and the role's buttons. */
export function OpenEventCard({ role, item, inCalendar, onAddToCalendar }: Props) {
  const { user } = useSession();
  const actions = itemActions(role, item);
  const bookingLine = role === 'teacher' ? teacherBookingLine(item) : familyBookingLine(role, item);
  const timeToBooking =
    role === 'parent' ? item.parentTimeToBooking : role === 'student' ? item.studentTimeToBooking : null;
  const details = detailsPath(role, item.id);

  return (
    <Card
      component="li"
      variant="outlined"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        position: 'relative',
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      {/* The title is the link, stretched over the card: its name is what it shows (WCAG 2.5.3). */}
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap', rowGap: 1 }}>
          {role === 'teacher' ? (
            <Chip
              size="small"
              variant="outlined"
              label={item.statusLabel.text}
              color={item.statusLabel.color}
            />
          ) : null}
          {timeToBooking ? <Chip size="small" icon={<ScheduleIcon />} label={timeToBooking} /> : null}
        </Stack>
        <Typography component="h3" variant="h6" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
          <Link
            component={RouterLink}
            to={details}
            color="inherit"
            underline="hover"
            sx={{ '&::after': { content: '""', position: 'absolute', inset: 0 } }}
          >
            {item.name}
          </Link>
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {item.subscriber}
        </Typography>
        {item.eventDetails ? (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {item.eventDetails}
          </Typography>
        ) : null}
        {item.location ? (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'text.secondary' }}>
            <PlaceIcon sx={{ fontSize: 16 }} />
            <Typography variant="body2">{item.location}</Typography>
          </Stack>
        ) : null}
        <Typography
          variant="body2"
          data-testid="booking-details"
          sx={{ mt: 1, fontWeight: bookingLine === MY_EVENTS_TEXT.noBookings ? 400 : 600 }}
          color={bookingLine === MY_EVENTS_TEXT.noBookings ? 'text.secondary' : 'text.primary'}
        >
          {bookingLine}
        </Typography>
        {/* On the night: the viewer's teachers running late, with their appointments' expected times. */}
        {item.lateNotes.map((note) => (
          <Typography
            key={`${note.teacherName} ${note.time}`}
            variant="body2"
            role="status"
            sx={{ mt: 0.5, color: 'warning.main', fontWeight: 600 }}
          >
            {note.text}
          </Typography>
        ))}
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 0.5, px: 1.5, pb: 1.5, position: 'relative', zIndex: 1 }}>
        {role === 'teacher' ? (
          <LinkButton to={details} icon={<ListAltIcon />} label={MY_EVENTS_TEXT.viewBookings} />
        ) : null}
        {actions.updateBooking ? (
          <LinkButton
            to={item.bookingLink}
            icon={<EditCalendarIcon />}
            label={MY_EVENTS_TEXT.updateBooking}
          />
        ) : null}
        {actions.showTicket ? (
          <ShowTicketButton
            eventId={item.id}
            eventName={item.name}
            self={user ? { userId: user.id, name: user.fullName } : null}
            asParent={role === 'parent'}
          />
        ) : null}
        {actions.scanTickets ? <ScanTicketsButton eventId={item.id} /> : null}
        {/* A designated scanner's way to the live count and the manual check-in (issue 36). */}
        {actions.scanTickets ? (
          <LinkButton to={doorPath(item.id)} icon={<MeetingRoomIcon />} label={TICKETS_UI.openDoor} />
        ) : null}
        {actions.addToCalendar ? (
          inCalendar ? (
            <Button size="small" startIcon={<CheckIcon />} disabled>
              {MY_EVENTS_UI.addedToCalendar}
            </Button>
          ) : (
            <Button size="small" startIcon={<EventAvailableIcon />} onClick={() => onAddToCalendar(item)}>
              {MY_EVENTS_TEXT.addToCalendar}
            </Button>
          )
        ) : null}
      </CardActions>
    </Card>
  );
}
