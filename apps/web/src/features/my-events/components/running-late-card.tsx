import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { LATE_CHOICES, LIVE_TIMING_TEXT } from '@parley/domain/live-timing';
import { useMutation } from '@tanstack/react-query';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { markRunningLate } from '../api';

type Props = { eventId: number; teacherId: number; lateMinutes: number };

/**
 * "Running late?" on the teacher's schedule on the night: one tap tells every family still to see them
 * (a push, and their open pages at once) their new expected time; "On time" takes it back.
 */
export function RunningLateCard({ eventId, teacherId, lateMinutes }: Props) {
  const showSnackbar = useSnackbar();
  const mark = useMutation({
    mutationFn: (minutes: number) => markRunningLate(eventId, teacherId, minutes),
    onSuccess: async (answer) => {
      showSnackbar(answer.message, 'success');
      await queryClient.invalidateQueries({ queryKey: ['my-events', 'teacher-schedule', eventId] });
    },
    onError: (error) => showSnackbar(serverMessage(error, LIVE_TIMING_TEXT.saveFailed), 'error'),
  });
  // While it saves, the choice tapped shows as chosen.
  const shown = mark.isPending ? (mark.variables ?? lateMinutes) : lateMinutes;
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2 }}
      data-print="hide"
      component="section"
      aria-labelledby="running-late"
    >
      <Typography id="running-late" component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {LIVE_TIMING_TEXT.heading}
      </Typography>
      <Typography
        variant="body2"
        role="status"
        sx={{ color: shown > 0 ? 'warning.main' : 'text.secondary', fontWeight: shown > 0 ? 600 : 400 }}
      >
        {shown > 0 ? LIVE_TIMING_TEXT.youAreLate(shown) : LIVE_TIMING_TEXT.youAreOnTime}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {LIVE_TIMING_TEXT.hint}
      </Typography>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={shown}
        aria-label={LIVE_TIMING_TEXT.heading}
        onChange={(_event, minutes: number | null) => {
          if (minutes !== null && !mark.isPending) mark.mutate(minutes);
        }}
        sx={{ flexWrap: 'wrap', gap: 0.5, '& .MuiToggleButton-root': { borderRadius: 1, border: 1 } }}
      >
        {LATE_CHOICES.map((minutes) => (
          <ToggleButton key={minutes} value={minutes} color={minutes === 0 ? 'success' : 'warning'}>
            {minutes === 0 ? LIVE_TIMING_TEXT.onTime : LIVE_TIMING_TEXT.lateChoice(minutes)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Paper>
  );
}
