import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SlotGroup } from '@parley/domain/events';
import { formatLocalTime } from '@parley/domain/time-zone';
import { useMemo } from 'react';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { cellState, slotGridModel } from '../slot-grid-logic';

const CELL_COLORS = {
  free: { bgcolor: 'action.hover', color: 'text.secondary' },
  partly: { bgcolor: 'info.dark', color: 'info.contrastText' },
  // main, not dark: the contrast text is worked out against main (the dark theme's success.dark with it
  // is 4.4:1, under WCAG's 4.5).
  full: { bgcolor: 'success.main', color: 'success.contrastText' },
} as const;

type Props = {
  groups: SlotGroup[];
  timeZone: string;
  label: string;
  /** What the section lacks when it has no slots. */
  emptyText: string;
};

/** One section's slots: rows are start times, columns are teachers; a dash where a teacher is away. */
export function SlotGrid({ groups, timeZone, label, emptyText }: Props) {
  const model = useMemo(() => slotGridModel(groups, timeZone), [groups, timeZone]);
  if (model.rows.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {emptyText}
      </Typography>
    );
  }
  const single = model.columns.length === 1 && model.columns[0]?.title === null;
  return (
    // A scrolling box with nothing focusable inside must take focus itself, or a keyboard cannot scroll it.
    <TableContainer
      tabIndex={0}
      role="region"
      aria-label={label}
      sx={{ maxHeight: 420, border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <Table size="small" stickyHeader aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ position: 'sticky', left: 0, zIndex: 3, fontWeight: 600 }}>
              {EVENTS_TEXT.time}
            </TableCell>
            {model.columns.map((column) => (
              <TableCell key={column.key} sx={{ fontWeight: 600, whiteSpace: 'nowrap', minWidth: 96 }}>
                {single ? EVENTS_TEXT.noSlotTeacher : column.title}
                {column.location ? (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {column.location}
                  </Typography>
                ) : null}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {model.rows.map((row) => (
            <TableRow key={row.startsAt}>
              <TableCell
                component="th"
                scope="row"
                sx={{
                  position: 'sticky',
                  left: 0,
                  bgcolor: 'background.paper',
                  zIndex: 1,
                  whiteSpace: 'nowrap',
                }}
              >
                {row.time}
              </TableCell>
              {row.cells.map((slot, index) => (
                <TableCell
                  key={model.columns[index]?.key}
                  sx={{ p: 0.5 }}
                  // A dash alone says nothing to a screen reader or a first-time admin: name the gap.
                  {...(slot ? {} : { 'aria-label': EVENTS_TEXT.unavailable, title: EVENTS_TEXT.unavailable })}
                >
                  {slot ? (
                    <Box
                      title={`${row.time}–${formatLocalTime(new Date(slot.endsAt), timeZone)}`}
                      sx={{
                        ...CELL_COLORS[cellState(slot)],
                        borderRadius: 1,
                        px: 1,
                        py: 0.25,
                        fontSize: 12,
                        textAlign: 'center',
                        whiteSpace: 'nowrap',
                      }}
                    >
                      {slot.capacity === 1
                        ? slot.bookedCount > 0
                          ? EVENTS_TEXT.booked
                          : EVENTS_TEXT.free
                        : EVENTS_TEXT.bookedOf(slot.bookedCount, slot.capacity)}
                    </Box>
                  ) : (
                    <Box sx={{ textAlign: 'center', color: 'text.secondary' }}>—</Box>
                  )}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
