import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { EventDetail } from '@parley/domain/events';
import { EVENTS_TEXT } from '../../../lib/ui-text';

/** Which set-up steps are done: details (always), sections, recipients, enabled. */
export function setupSteps(event: Pick<EventDetail, 'sections' | 'recipientCount' | 'status'>): boolean[] {
  return [true, event.sections.length > 0, event.recipientCount > 0, event.status === 1];
}

/** The four steps of setting up an event, ticked as they are done. */
export function SetupSteps({ event }: { event: EventDetail }) {
  const done = setupSteps(event);
  return (
    <Stack
      component="ol"
      aria-label={EVENTS_TEXT.steps}
      direction={{ xs: 'column', lg: 'row' }}
      spacing={{ xs: 1, lg: 2 }}
      sx={{ listStyle: 'none', p: 0, m: 0 }}
    >
      {EVENTS_TEXT.stepsList.map((text, index) => (
        <Stack
          component="li"
          key={text}
          direction="row"
          spacing={1}
          sx={{ flex: 1, alignItems: 'flex-start' }}
        >
          {/* titleAccess, not aria-label: MUI hides an icon without a title from screen readers. */}
          {done[index] ? (
            <CheckCircleIcon color="success" fontSize="small" titleAccess="Done" />
          ) : (
            <RadioButtonUncheckedIcon color="disabled" fontSize="small" titleAccess="To do" />
          )}
          <Typography variant="body2" color={done[index] ? 'text.secondary' : 'text.primary'}>
            {`${index + 1}. ${text}`}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}
