import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { BookingPage } from '@parley/domain/booking';
import { useId } from 'react';
import { NativeSelectField } from '../../../components/native-select-field';
import { BOOKING_UI } from '../booking-text';
import {
  addableTeachers,
  addTeacher,
  type BookingChildRef,
  limitReached,
  type PtSelection,
  teacherRows,
  toggleChild,
  toggleTeacher,
} from '../pt-selection';

type StepProps = {
  page: BookingPage;
  childList: readonly BookingChildRef[];
  selection: PtSelection;
  onChange: (next: PtSelection) => void;
};

/** Step 1: every child ticked by default; siblings are booked in one flow. */
export function ChildrenStep({ childList, selection, onChange }: StepProps) {
  const order = childList.map((child) => child.id);
  return (
    <Stack spacing={1}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {BOOKING_UI.chooseChildren}
      </Typography>
      <FormGroup>
        {childList.map((child) => (
          <FormControlLabel
            key={child.id}
            label={child.name}
            control={
              <Checkbox
                checked={selection.childIds.includes(child.id)}
                onChange={() => onChange(toggleChild(selection, child.id, order))}
              />
            }
          />
        ))}
      </FormGroup>
      {childList.length > 1 ? (
        <Typography variant="body2" color="text.secondary">
          {BOOKING_UI.siblingsNote}
        </Typography>
      ) : null}
      {selection.childIds.length === 0 ? <Alert severity="info">{BOOKING_UI.noChildChosen}</Alert> : null}
    </Stack>
  );
}

function ChildTeachers({
  page,
  child,
  selection,
  onChange,
  showName,
}: Omit<StepProps, 'childList'> & { child: BookingChildRef; showName: boolean }) {
  const limit = page.event.options.maxAppointmentsPerChild;
  const rows = teacherRows(page, selection, child.id);
  const addable = addableTeachers(page, selection, child.id);
  const full = limitReached(selection, child.id, limit);
  const addId = useId();
  const groupLabel = `${BOOKING_UI.steps.teachers}: ${child.name}`;
  return (
    <Box component="section" aria-label={groupLabel}>
      {showName ? (
        <Typography component="h3" variant="subtitle2" sx={{ fontWeight: 600 }}>
          {child.name}
        </Typography>
      ) : null}
      <FormGroup>
        {rows.map((row) => (
          <FormControlLabel
            key={row.teacherId}
            disabled={!row.inEvent || (!row.checked && full)}
            sx={{ alignItems: 'flex-start', my: 0.25, '& .MuiCheckbox-root': { pt: 0.5 } }}
            control={
              <Checkbox
                checked={row.checked}
                onChange={() => onChange(toggleTeacher(selection, child.id, row, limit))}
              />
            }
            label={
              <Box sx={{ pt: 0.75 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
                  <span>{row.name}</span>
                  {row.booked ? <Chip label={BOOKING_UI.alreadyBooked} size="small" color="success" /> : null}
                </Stack>
                <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
                  {row.inEvent
                    ? row.subjects
                    : [row.subjects, BOOKING_UI.notAtEvent].filter(Boolean).join(' · ')}
                </Typography>
              </Box>
            }
          />
        ))}
      </FormGroup>
      {addable.length > 0 ? (
        <NativeSelectField
          id={addId}
          size="small"
          label={BOOKING_UI.addTeacher}
          value=""
          disabled={full}
          onChange={(event) => {
            const teacherId = Number(event.target.value);
            if (teacherId > 0) onChange(addTeacher(page, selection, child.id, teacherId, limit));
          }}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ mt: 1, minWidth: 240, maxWidth: '100%' }}
        >
          <option value="" />
          {addable.map((teacher) => (
            <option key={teacher.teacherId} value={teacher.teacherId}>
              {teacher.subjects.length > 0
                ? `${teacher.name} (${teacher.subjects.map((subject) => subject.name).join(', ')})`
                : teacher.name}
            </option>
          ))}
        </NativeSelectField>
      ) : null}
    </Box>
  );
}

/** Step 2: each child's teachers (pre-filled from the child's teachers at this event), and "Add a teacher". */
export function TeachersStep({ page, childList, selection, onChange }: StepProps) {
  const limit = page.event.options.maxAppointmentsPerChild;
  const chosenChildren = childList.filter((child) => selection.childIds.includes(child.id));
  return (
    <Stack spacing={2}>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {BOOKING_UI.chooseTeachers}
      </Typography>
      {limit !== null ? (
        <Typography variant="body2" color="text.secondary">
          {BOOKING_UI.limit(limit)}
        </Typography>
      ) : null}
      {chosenChildren.map((child) => (
        <ChildTeachers
          key={child.id}
          page={page}
          child={child}
          selection={selection}
          onChange={onChange}
          showName={childList.length > 1}
        />
      ))}
    </Stack>
  );
}
