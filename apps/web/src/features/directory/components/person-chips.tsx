import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import Chip from '@mui/material/Chip';
import type { UserListItem } from '@parley/domain/people';
import { PEOPLE_TEXT } from '../../../lib/ui-text';

const STATUS_ICON_COMPONENTS: Record<string, typeof CheckCircleIcon> = {
  check_circle: CheckCircleIcon,
  block: BlockIcon,
};

/** Active / Inactive, with the server's label and icon (spec §3 statusLabel, statusIcon). */
export function StatusChip({
  person,
}: {
  person: Pick<UserListItem, 'status' | 'statusLabel' | 'statusIcon'>;
}) {
  const Icon =
    STATUS_ICON_COMPONENTS[person.statusIcon] ?? (person.status === 1 ? CheckCircleIcon : BlockIcon);
  return (
    <Chip
      size="small"
      icon={<Icon />}
      label={person.statusLabel || (person.status === 1 ? PEOPLE_TEXT.active : PEOPLE_TEXT.inactive)}
      color={person.status === 1 ? 'success' : 'default'}
      variant={person.status === 1 ? 'filled' : 'outlined'}
    />
  );
}

/** Accepted / Pending invitation. */
export function InvitationChip({ invitation }: { invitation: UserListItem['invitation'] }) {
  return invitation === 'accepted' ? (
    <Chip
      size="small"
      icon={<MarkEmailReadIcon />}
      label={PEOPLE_TEXT.accepted}
      color="success"
      variant="outlined"
    />
  ) : (
    <Chip
      size="small"
      icon={<HourglassEmptyIcon />}
      label={PEOPLE_TEXT.pending}
      color="warning"
      variant="outlined"
    />
  );
}
