import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumberOutlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { MY_EVENTS_TEXT } from '@parley/domain/booking';
import { lazy, Suspense, useId, useState } from 'react';
import { LoadingOverlay } from '../../../components/loading-overlay';
import { familyBookings } from '../api';
import { type TicketHolder, ticketHolders } from '../ticket-logic';
import { TICKETS_UI } from '../tickets-text';

// The ticket dialog (and the QR encoder with it) loads when a ticket is first shown.
const TicketDialog = lazy(() =>
  import('./ticket-dialog').then((module) => ({ default: module.TicketDialog })),
);

type Props = {
  eventId: number;
  eventName: string;
  /** The signed-in person. */
  self: TicketHolder | null;
  /**
   * A parent's tickets are the people they booked: a child, or themselves when they booked for
   * themselves; the family's bookings say which. A student's ticket is their own.
   */
  asParent: boolean;
};

/** "Show Ticket" (spec §2 Home): "Your Ticket" for the right person. */
export function ShowTicketButton({ eventId, eventName, self, asParent }: Props) {
  const menuId = useId();
  const [holder, setHolder] = useState<TicketHolder | null>(null);
  const [open, setOpen] = useState(false);
  const [finding, setFinding] = useState(false);
  const [choices, setChoices] = useState<TicketHolder[]>([]);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  const show = (person: TicketHolder | null) => {
    setAnchor(null);
    setHolder(person);
    setOpen(true);
  };

  const start = async (button: HTMLElement) => {
    if (!asParent || !self) {
      show(self);
      return;
    }
    setFinding(true);
    try {
      const page = await familyBookings(eventId);
      const people = ticketHolders(page.bookings, self);
      if (people.length > 1) {
        setChoices(people);
        setAnchor(button);
      } else {
        show(people[0] ?? self);
      }
    } catch {
      // Without the bookings, ask for the parent's own ticket: the server answers what they hold.
      show(self);
    } finally {
      setFinding(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        startIcon={finding ? <CircularProgress size={16} /> : <ConfirmationNumberIcon />}
        disabled={finding}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => void start(event.currentTarget)}
      >
        {MY_EVENTS_TEXT.showTicket}
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-label': TICKETS_UI.chooseAttendee } }}
      >
        {choices.map((person) => (
          <MenuItem key={person.userId} onClick={() => show(person)}>
            {person.name}
          </MenuItem>
        ))}
      </Menu>
      {holder !== null || open ? (
        <Suspense fallback={<LoadingOverlay open />}>
          <TicketDialog
            open={open}
            eventId={eventId}
            userId={holder?.userId ?? null}
            eventName={eventName}
            userName={holder?.name ?? ''}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
