import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import type { EventDetail } from '@parley/domain/events';
import { useEffect, useId } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { CLOCK_HINT, CLOCK_INPUT, normaliseClockTime } from '../../../components/clock-time';
import { FormTextField } from '../../../components/form-text-field';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { afterEventChange, updateEvent } from '../api';
import {
  hasMeetingMode,
  MEETING_MODE_TEXT,
  type OptionKey,
  optionsFor,
  SCAN_WINDOW_TEXT,
  type SettingsValues,
  settingsBody,
  settingsSchema,
  settingsValues,
} from '../settings-form';
import { useConfirmedChange } from './affected-bookings-dialog';

const OPTION_LABELS: Record<OptionKey, (group: number) => string> = {
  slotMinutes: () => EVENTS_TEXT.slotMinutes,
  breakMinutes: () => EVENTS_TEXT.breakMinutes,
  travelMinutes: () => EVENTS_TEXT.travelMinutes,
  usersPerSlot: (group) => (group === 2 || group === 3 ? EVENTS_TEXT.places : EVENTS_TEXT.usersPerSlot),
  guestAllowance: () => EVENTS_TEXT.guestAllowance,
  gownSizes: () => EVENTS_TEXT.gownSizes,
  maxAppointmentsPerChild: () => EVENTS_TEXT.maxAppointments,
  scanOpensHoursBefore: () => SCAN_WINDOW_TEXT.scanOpensHoursBefore,
  scanClosesHoursAfter: () => SCAN_WINDOW_TEXT.scanClosesHoursAfter,
};

const OPTION_HELP: Partial<Record<OptionKey, string>> = {
  travelMinutes: EVENTS_TEXT.travelMinutesHelp,
  gownSizes: EVENTS_TEXT.gownSizesHelp,
  maxAppointmentsPerChild: EVENTS_TEXT.maxAppointmentsHelp,
  scanOpensHoursBefore: SCAN_WINDOW_TEXT.scanOpensHoursBeforeHelp,
  scanClosesHoursAfter: SCAN_WINDOW_TEXT.scanClosesHoursAfterHelp,
};

/** The booking window's two ends, each a date and a time on the 24-hour clock (decision 020). */
const WINDOW_ENDS = [
  { end: 'opens', dateLabel: EVENTS_TEXT.opensAt, timeLabel: EVENTS_TEXT.opensTime },
  { end: 'closes', dateLabel: EVENTS_TEXT.closesAt, timeLabel: EVENTS_TEXT.closesTime },
] as const;

/** Booking page message, booking window and the options of this kind of event. */
export function EventSettingsCard({ event }: { event: EventDetail }) {
  const showSnackbar = useSnackbar();
  const { attempt, dialog } = useConfirmedChange();
  const meetingLabel = useId();
  const {
    control,
    register,
    handleSubmit,
    reset,
    setValue,
    formState: { errors, isValid, isDirty, isSubmitting },
  } = useForm<SettingsValues>({
    resolver: zodResolver(settingsSchema) as unknown as Resolver<SettingsValues>,
    mode: 'onTouched',
    defaultValues: settingsValues(event),
  });

  const fresh = JSON.stringify(settingsValues(event));
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the saved values change
  useEffect(() => {
    reset(settingsValues(event));
  }, [fresh]);

  const save = handleSubmit(async (values) => {
    const body = settingsBody(values, event);
    await attempt(async (confirm) => {
      const result = await updateEvent(event.id, confirm ? { ...body, confirm } : body);
      showSnackbar(result.message, 'success');
      await afterEventChange(event.id);
      return result;
    }, EVENTS_TEXT.saveFailed);
  });

  const group = event.eventTypeGroupInt;
  return (
    <SectionCard title={EVENTS_TEXT.settingsTitle}>
      <form noValidate onSubmit={save}>
        <Stack spacing={2}>
          <FormTextField
            registration={register('bookingPageMessage')}
            label={EVENTS_TEXT.bookingPageMessage}
            helperText={EVENTS_TEXT.bookingPageMessageHelp}
            error={errors.bookingPageMessage?.message}
            multiline
            minRows={2}
            fullWidth
          />
          {hasMeetingMode(group) && (
            <Controller
              control={control}
              name="meetingMode"
              render={({ field }) => (
                <FormControl>
                  <FormLabel id={meetingLabel}>{MEETING_MODE_TEXT.label}</FormLabel>
                  <RadioGroup row aria-labelledby={meetingLabel} {...field}>
                    <FormControlLabel
                      value="inPerson"
                      control={<Radio />}
                      label={MEETING_MODE_TEXT.inPerson}
                    />
                    <FormControlLabel value="video" control={<Radio />} label={MEETING_MODE_TEXT.video} />
                  </RadioGroup>
                  {field.value === 'video' && <FormHelperText>{MEETING_MODE_TEXT.videoHelp}</FormHelperText>}
                </FormControl>
              )}
            />
          )}
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}>
            {WINDOW_ENDS.map(({ end, dateLabel, timeLabel }) => (
              <Box
                key={end}
                sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', gap: 1 }}
              >
                <FormTextField
                  registration={register(`${end}Date`)}
                  label={dateLabel}
                  type="date"
                  error={errors[`${end}Date`]?.message}
                  helperText={EVENTS_TEXT.windowHelp}
                  slotProps={{ inputLabel: { shrink: true } }}
                />
                <FormTextField
                  registration={register(`${end}Time`, {
                    // Tidied on leaving the field ("1830" → "18:30"), as TimeField does.
                    onBlur: (blur) =>
                      setValue(`${end}Time`, normaliseClockTime(blur.target.value), { shouldValidate: true }),
                  })}
                  label={timeLabel}
                  error={errors[`${end}Time`]?.message}
                  helperText={CLOCK_HINT}
                  {...CLOCK_INPUT}
                />
              </Box>
            ))}
            {optionsFor(group).map((key) => (
              <FormTextField
                key={key}
                registration={register(key)}
                label={OPTION_LABELS[key](group)}
                error={errors[key]?.message}
                helperText={OPTION_HELP[key]}
                slotProps={key === 'gownSizes' ? undefined : { htmlInput: { inputMode: 'numeric' } }}
              />
            ))}
          </Box>
          <Box>
            <Button type="submit" variant="contained" disabled={!isValid || !isDirty} loading={isSubmitting}>
              {EVENTS_TEXT.save}
            </Button>
          </Box>
        </Stack>
      </form>
      {dialog}
    </SectionCard>
  );
}
