import MeetingRoomIcon from '@mui/icons-material/MeetingRoomOutlined';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { SectionCard } from '../../../components/section-card';
import { doorPath } from '../api';
import { TICKETS_UI } from '../tickets-text';

/** On a ticketed event's admin page: the way to the door page. */
export function DoorCard({ eventId }: { eventId: number }) {
  return (
    <SectionCard title={TICKETS_UI.door}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {TICKETS_UI.doorHelp}
      </Typography>
      <Button
        variant="outlined"
        startIcon={<MeetingRoomIcon />}
        component={RouterLink}
        to={doorPath(eventId)}
      >
        {TICKETS_UI.openDoor}
      </Button>
    </SectionCard>
  );
}
