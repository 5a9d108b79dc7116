import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import type { EventDetail, SectionDetail } from '@parley/domain/events';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
// Times are typed on the school's 24-hour clock, not the browser's locale-bound picker (decision 020).
import { CLOCK_INPUT, CLOCK_REGISTRATION } from '../../../components/clock-time';
import { FormTextField } from '../../../components/form-text-field';
import { useSnackbar } from '../../../components/snackbar';
import { TextField } from '../../../components/text-field';
import { useIsMobile } from '../../../components/use-is-mobile';
import { peopleSearchQuery } from '../../../lib/people-search';
import { EVENTS_TEXT, LIST_TEXT } from '../../../lib/ui-text';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '../../../lib/use-debounced-value';
import { useFormOnOpen } from '../../../lib/use-form-on-open';
import { afterEventChange, createSection, type PersonRef, updateSection } from '../api';
import { type SectionValues, sectionBody, sectionResolver, sectionValues } from '../section-form';
import { useConfirmedChange } from './affected-bookings-dialog';

/** Wide enough for date, start and end on one line and a teacher's unavailable times. */
export const SECTION_DIALOG_MAX_WIDTH = 680;

type Props = {
  event: EventDetail;
  /** null: a new section. */
  section: SectionDetail | null;
  open: boolean;
  onClose: () => void;
};

function TeacherRanges({
  index,
  name,
  control,
  register,
  error,
  onRemoveTeacher,
}: {
  index: number;
  name: string;
  control: ReturnType<typeof useForm<SectionValues>>['control'];
  register: ReturnType<typeof useForm<SectionValues>>['register'];
  error: string | undefined;
  onRemoveTeacher: () => void;
}) {
  const ranges = useFieldArray({ control, name: `teachers.${index}.unavailable` });
  const errorId = useId();
  // The card's message names what is wrong with these times: tie it to them (WCAG 3.3.1).
  const rangeInput = {
    ...CLOCK_INPUT,
    error: Boolean(error),
    slotProps: {
      ...CLOCK_INPUT.slotProps,
      htmlInput: { ...CLOCK_INPUT.slotProps.htmlInput, 'aria-describedby': error ? errorId : undefined },
    },
  };
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      {/* Wraps on a phone: a long name pushes the buttons to the next line instead of off the card. */}
      <Stack
        direction="row"
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', columnGap: 1 }}
      >
        <Typography sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>{name}</Typography>
        <Stack direction="row" spacing={0.5} sx={{ ml: 'auto' }}>
          <Button size="small" startIcon={<AddIcon />} onClick={() => ranges.append({ start: '', end: '' })}>
            {EVENTS_TEXT.addTeacherRange}
          </Button>
          <IconButton size="small" aria-label={`${EVENTS_TEXT.remove} ${name}`} onClick={onRemoveTeacher}>
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </Stack>
      </Stack>
      {ranges.fields.map((range, rangeIndex) => (
        // On a phone the label takes its own line, so both times show in full.
        <Stack
          key={range.id}
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'center', mt: 1, flexWrap: 'wrap' }}
        >
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ minWidth: 84, width: { xs: '100%', md: 'auto' } }}
          >
            {EVENTS_TEXT.unavailable}
          </Typography>
          <TextField
            {...register(`teachers.${index}.unavailable.${rangeIndex}.start`, CLOCK_REGISTRATION)}
            size="small"
            label={EVENTS_TEXT.start}
            {...rangeInput}
            sx={{ flex: '1 1 0', minWidth: 0 }}
          />
          <TextField
            {...register(`teachers.${index}.unavailable.${rangeIndex}.end`, CLOCK_REGISTRATION)}
            size="small"
            label={EVENTS_TEXT.end}
            {...rangeInput}
            sx={{ flex: '1 1 0', minWidth: 0 }}
          />
          <IconButton
            size="small"
            aria-label={EVENTS_TEXT.removeRange}
            onClick={() => ranges.remove(rangeIndex)}
          >
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </Stack>
      ))}
      {error ? (
        <FormHelperText error id={errorId}>
          {error}
        </FormHelperText>
      ) : null}
    </Paper>
  );
}

/** Add or edit a section: date, start, end, location and (parent-teacher) its teachers. */
export function SectionDialog({ event, section, open, onClose }: Props) {
  const titleId = useId();
  const isMobile = useIsMobile();
  const showSnackbar = useSnackbar();
  const withTeachers = event.eventTypeGroupInt === EVENT_GROUPS.parentTeacher;
  // A district has hundreds of teachers: the server finds those whose name holds what is typed.
  const [teacherText, setTeacherText] = useState('');
  const teacherQ = useDebouncedValue(teacherText.trim(), SEARCH_DEBOUNCE_MS);
  const teachers = useQuery({ ...peopleSearchQuery('teachers', teacherQ), enabled: open && withTeachers });
  const { attempt, dialog } = useConfirmedChange();
  const resolver = useMemo(() => sectionResolver(event), [event]);
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isValid, isSubmitting },
  } = useForm<SectionValues>({ resolver, mode: 'onTouched', defaultValues: sectionValues(section) });
  const chosen = useFieldArray({ control, name: 'teachers', keyName: 'key' });

  useFormOnOpen(open, reset, sectionValues(section), String(section?.id ?? 'new'));

  const save = handleSubmit(async (values) => {
    const body = sectionBody(values, withTeachers);
    const done = await attempt(async (confirm) => {
      const request = confirm ? { ...body, confirm } : body;
      const result = section
        ? await updateSection(section.id, request)
        : await createSection(event.id, request);
      await afterEventChange(event.id);
      onClose();
      // Said as the dialog closes on the new grid: said before a slow refresh, it could be gone already.
      showSnackbar(result.message, 'success');
      return result;
    }, EVENTS_TEXT.sectionFailed);
    return done;
  });

  const options = teachers.data?.items ?? [];
  // The same array while the choice stands: a new one would read as a new value and clear what is typed.
  const chosenPeople = useMemo(
    () => chosen.fields.map((field): PersonRef => ({ id: field.teacherId, name: field.name, email: '' })),
    [chosen.fields],
  );

  return (
    <Dialog
      open={open}
      onClose={isSubmitting ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      fullScreen={isMobile}
      slotProps={{ paper: { sx: isMobile ? undefined : { maxWidth: SECTION_DIALOG_MAX_WIDTH } } }}
    >
      <form noValidate onSubmit={save}>
        <DialogTitle id={titleId}>{section ? EVENTS_TEXT.editSection : EVENTS_TEXT.newSection}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {EVENTS_TEXT.slotGridHelp(event.timeZone)}
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '2fr 1fr 1fr' }, gap: 2, mt: 1 }}>
            <FormTextField
              registration={register('date')}
              label={EVENTS_TEXT.date}
              type="date"
              required
              error={errors.date?.message}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <FormTextField
              registration={register('start', CLOCK_REGISTRATION)}
              label={EVENTS_TEXT.start}
              required
              error={errors.start?.message}
              {...CLOCK_INPUT}
            />
            <FormTextField
              registration={register('end', CLOCK_REGISTRATION)}
              label={EVENTS_TEXT.end}
              required
              error={errors.end?.message}
              {...CLOCK_INPUT}
            />
          </Box>
          <FormTextField
            registration={register('location')}
            label={EVENTS_TEXT.location}
            helperText={EVENTS_TEXT.locationHelp}
            fullWidth
            margin="normal"
          />
          {withTeachers ? (
            <Stack spacing={1} sx={{ mt: 1 }}>
              <Typography sx={{ fontWeight: 600 }}>{EVENTS_TEXT.teachers}</Typography>
              {teachers.isSuccess && teacherQ === '' && teachers.data.total === 0 ? (
                <Alert severity="info">{EVENTS_TEXT.noTeachers}</Alert>
              ) : (
                <Autocomplete<PersonRef, true>
                  multiple
                  options={options}
                  loading={teachers.isFetching}
                  value={chosenPeople}
                  getOptionLabel={(option) => option.name}
                  isOptionEqualToValue={(a, b) => a.id === b.id}
                  filterOptions={(found) => found}
                  onInputChange={(_event, text) => setTeacherText(text)}
                  renderValue={() => null}
                  disableCloseOnSelect
                  onChange={(_event, next) => {
                    const chosenIds = new Set(chosen.fields.map((field) => field.teacherId));
                    const nextIds = new Set(next.map((person) => person.id));
                    const dropped = chosen.fields.flatMap((field, index) =>
                      nextIds.has(field.teacherId) ? [] : [index],
                    );
                    if (dropped.length > 0) chosen.remove(dropped);
                    for (const person of next) {
                      if (!chosenIds.has(person.id)) {
                        chosen.append({
                          teacherId: person.id,
                          name: person.name,
                          location: null,
                          unavailable: [],
                        });
                      }
                    }
                  }}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label={EVENTS_TEXT.teachers}
                      helperText={`${EVENTS_TEXT.teachersHelp} (${chosen.fields.length})`}
                    />
                  )}
                />
              )}
              {chosen.fields.map((field, index) => (
                <TeacherRanges
                  key={field.key}
                  index={index}
                  name={field.name}
                  control={control}
                  register={register}
                  error={errors.teachers?.[index]?.unavailable?.message}
                  onRemoveTeacher={() => chosen.remove(index)}
                />
              ))}
            </Stack>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={isSubmitting}>
            {LIST_TEXT.cancel}
          </Button>
          <Button type="submit" variant="contained" disabled={!isValid} loading={isSubmitting}>
            {EVENTS_TEXT.save}
          </Button>
        </DialogActions>
      </form>
      {dialog}
    </Dialog>
  );
}
