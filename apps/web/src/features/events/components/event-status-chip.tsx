import Chip from '@mui/material/Chip';
import { EVENT_STATUS_LABELS } from '@parley/domain/events';

/** The spec's statusLabel (HTML) as a chip: Enabled (green) or Disabled (red). */
export function EventStatusChip({ status }: { status: number }) {
  const label = EVENT_STATUS_LABELS[status === 1 ? 1 : 0];
  return <Chip size="small" label={label.text} color={label.color} variant="outlined" />;
}
