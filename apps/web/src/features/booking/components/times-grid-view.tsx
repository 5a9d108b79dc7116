import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { MyBooking } from '@parley/domain/booking';
import { memo, useCallback, useId, useLayoutEffect, useRef, useState } from 'react';
import { BOOKING_UI } from '../booking-text';
import { type Cell, type Column, cellLabel, columnView, studentNames, type TimesGrid } from '../times-grid';

export type GridActions = {
  onPick: (column: Column, cell: Cell) => void;
  onChange: (column: Column) => void;
  onKeep: (column: Column) => void;
  onCancel: (booking: MyBooking) => void;
  changing: string | null;
  /** Booking controls are shown (the event is open). */
  canBook: boolean;
};

const CELL_STYLE = {
  free: { variant: 'outlined', color: 'primary' },
  picked: { variant: 'contained', color: 'primary' },
  mine: { variant: 'contained', color: 'success' },
  taken: { variant: 'text', color: 'inherit' },
  clash: { variant: 'text', color: 'inherit' },
} as const;

type SlotProps = {
  cell: Cell;
  column: Column;
  /** The slot's accessible name (its time, teacher, children and state). */
  label: string;
  /** Stable across renders (usePick), so a slot whose state did not change is not drawn again. */
  onPick: GridActions['onPick'];
  canBook: boolean;
  /** The table's rows already say the time; a phone's list of buttons does not. */
  showTime: boolean;
};

/**
 * The grid's onPick as one function for the grid's life, calling the latest: picking a slot then draws
 * only the slots whose state changed, not the evening's every button (a slow phone's tap waited for that).
 */
function usePick(actions: GridActions): GridActions['onPick'] {
  const latest = useRef(actions);
  useLayoutEffect(() => {
    latest.current = actions;
  });
  return useCallback((column, cell) => latest.current.onPick(column, cell), []);
}

/** Drawn again only when what it shows changed (its column's key and its slot are the same by its key). */
const sameSlot = (before: SlotProps, after: SlotProps) =>
  before.label === after.label &&
  before.onPick === after.onPick &&
  before.canBook === after.canBook &&
  before.showTime === after.showTime &&
  before.cell.selectable === after.cell.selectable &&
  before.cell.endTime === after.cell.endTime &&
  before.cell.location === after.cell.location;

const SlotButton = memo(function SlotButton({ cell, column, label, onPick, canBook, showTime }: SlotProps) {
  const style = CELL_STYLE[cell.state];
  const inert = !cell.selectable || !canBook;
  return (
    <Button
      size="small"
      fullWidth
      variant={style.variant}
      color={style.color}
      aria-label={label}
      aria-pressed={cell.state === 'picked'}
      title={`${cell.time} – ${cell.endTime}${cell.location ? ` · ${cell.location}` : ''}`}
      disabled={inert && cell.state !== 'mine'}
      aria-disabled={inert ? true : undefined}
      onClick={inert ? undefined : () => onPick(column, cell)}
      sx={{
        minWidth: 0,
        px: 0.5,
        whiteSpace: 'nowrap',
        flexDirection: 'column',
        lineHeight: 1.2,
        py: 0.5,
        ...(cell.state === 'mine' && inert ? { pointerEvents: 'none' } : {}),
      }}
    >
      {showTime ? (
        // The name already starts with the time; read twice, it would also break label-in-name (2.5.3).
        <Box
          component="span"
          aria-hidden
          sx={
            cell.state === 'taken' || cell.state === 'clash' ? { textDecoration: 'line-through' } : undefined
          }
        >
          {cell.time}
        </Box>
      ) : null}
      <Typography component="span" variant="caption" sx={{ lineHeight: 1.4 }}>
        {BOOKING_UI.cellShort[cell.state]}
      </Typography>
    </Button>
  );
}, sameSlot);

/** Who and what a column is, and its booking with Change / Cancel (or "Keep this time" while changing). */
function ColumnHead({ column, actions, dense }: { column: Column; actions: GridActions; dense?: boolean }) {
  const changing = actions.changing === column.key;
  const booked = column.bookings[0];
  const who = studentNames(column.students);
  return (
    <Stack spacing={0.25} sx={{ minWidth: dense ? 0 : 64 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {column.teacherName}
      </Typography>
      {column.students.map((student) => (
        <Typography key={student.studentId} variant="caption" color="text.secondary" component="div">
          {[student.name, student.subjectName].filter(Boolean).join(' · ')}
        </Typography>
      ))}
      {booked ? (
        <>
          <Typography variant="caption" color="success.main" sx={{ fontWeight: 600 }}>
            {BOOKING_UI.bookedAt(booked.time)}
          </Typography>
          {column.missing.length > 0 ? (
            <Typography variant="caption" color="warning.main">
              {BOOKING_UI.joinHint(studentNames(column.missing))}
            </Typography>
          ) : null}
          {actions.canBook ? (
            <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {changing ? (
                <Button size="small" onClick={() => actions.onKeep(column)} sx={{ px: 0.5, minWidth: 0 }}>
                  {BOOKING_UI.stopChange}
                </Button>
              ) : (
                <>
                  <Button
                    size="small"
                    variant="outlined"
                    onClick={() => actions.onChange(column)}
                    aria-label={`${BOOKING_UI.change} ${column.teacherName} for ${who}`}
                    sx={{ px: 0.75, minWidth: 0 }}
                  >
                    {BOOKING_UI.change}
                  </Button>
                  {column.bookings.length === 1 ? (
                    <Button
                      size="small"
                      color="error"
                      onClick={() => actions.onCancel(booked)}
                      aria-label={`${BOOKING_UI.cancel} ${column.teacherName} for ${who}`}
                      sx={{ px: 0.75, minWidth: 0 }}
                    >
                      {BOOKING_UI.cancel}
                    </Button>
                  ) : null}
                </>
              )}
            </Stack>
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}

/** Desktop: per date, a table with a column per teacher (and child) and a row per start time. */
export function TimesTable({ model, actions }: { model: TimesGrid; actions: GridActions }) {
  const onPick = usePick(actions);
  return (
    <Stack spacing={2}>
      {model.sections.map((section) => (
        <Box key={section.sectionId}>
          {model.sections.length > 1 ? (
            <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 600, mb: 0.5 }}>
              {section.dateLabel}
            </Typography>
          ) : null}
          <TableContainer sx={{ maxHeight: 560, border: 1, borderColor: 'divider', borderRadius: 1 }}>
            <Table size="small" stickyHeader aria-label={BOOKING_UI.gridLabel(section.dateLabel)}>
              <TableHead>
                <TableRow>
                  <TableCell
                    sx={{ position: 'sticky', left: 0, zIndex: 3, fontWeight: 600, width: 64, px: 1 }}
                  >
                    {BOOKING_UI.time}
                  </TableCell>
                  {section.columns.map((index) => {
                    const column = model.columns[index] as Column;
                    return (
                      <TableCell key={column.key} sx={{ verticalAlign: 'top', px: 1 }}>
                        <ColumnHead column={column} actions={actions} />
                      </TableCell>
                    );
                  })}
                </TableRow>
              </TableHead>
              <TableBody>
                {section.rows.map((row) => (
                  <TableRow key={row.startsAt}>
                    <TableCell
                      component="th"
                      scope="row"
                      sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1, px: 1 }}
                    >
                      {row.time}
                    </TableCell>
                    {row.cells.map((cell, at) => {
                      const column = model.columns[section.columns[at] ?? -1] as Column;
                      return (
                        <TableCell key={column.key} sx={{ p: 0.5 }}>
                          {cell ? (
                            <SlotButton
                              cell={cell}
                              column={column}
                              label={cellLabel(cell, column, BOOKING_UI.cell)}
                              onPick={onPick}
                              canBook={actions.canBook}
                              showTime={false}
                            />
                          ) : (
                            <Box sx={{ textAlign: 'center', color: 'text.secondary' }}>—</Box>
                          )}
                        </TableCell>
                      );
                    })}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Box>
      ))}
    </Stack>
  );
}

/** Phone: one teacher at a time, chosen with a selector; their times as a grid of buttons. */
export function TimesList({ model, actions }: { model: TimesGrid; actions: GridActions }) {
  const onPick = usePick(actions);
  const selectId = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const key =
    model.columns.find((column) => column.key === (actions.changing ?? chosen))?.key ??
    model.columns[0]?.key ??
    '';
  const column = model.columns.find((entry) => entry.key === key);
  if (!column) return null;
  const days = columnView(model, key);
  return (
    <Stack spacing={1.5}>
      <TextField
        select
        id={selectId}
        size="small"
        label={BOOKING_UI.teacherSelect}
        value={key}
        onChange={(event) => setChosen(event.target.value)}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        fullWidth
      >
        {model.columns.map((entry) => (
          <option key={entry.key} value={entry.key}>
            {`${entry.teacherName}${entry.bookings[0] ? ` (${BOOKING_UI.bookedAt(entry.bookings[0].time)})` : ''}`}
          </option>
        ))}
      </TextField>
      <ColumnHead column={column} actions={actions} dense />
      {days.map((day) => (
        <Box key={day.sectionId} component="section" aria-label={BOOKING_UI.gridLabel(day.dateLabel)}>
          {days.length > 1 || model.sections.length > 1 ? (
            <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 600, mb: 0.5 }}>
              {day.dateLabel}
            </Typography>
          ) : null}
          <Box
            sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(84px, 1fr))', gap: 0.75 }}
          >
            {day.cells.map((cell) => (
              <SlotButton
                key={cell.slotId}
                cell={cell}
                column={column}
                label={cellLabel(cell, column, BOOKING_UI.cell)}
                onPick={onPick}
                canBook={actions.canBook}
                showTime
              />
            ))}
          </Box>
        </Box>
      ))}
    </Stack>
  );
}
