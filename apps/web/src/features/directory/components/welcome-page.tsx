import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { routeTo } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { WELCOME_TEXT } from '../../../lib/ui-text';
import { eventsQuery } from '../../events/api';
import { peoplePageQuery, subjectsQuery } from '../api';

export type WelcomeStep = {
  key: 'subjects' | 'teachers' | 'families' | 'event';
  done: boolean;
  /** Null while unknown (loading). */
  count: number | null;
  noun: string;
  to: string;
};

/** The onboarding steps in order, each ticked from real data. */
export function welcomeSteps(counts: {
  subjects: number | undefined;
  teachers: number | undefined;
  students: number | undefined;
  events: number | undefined;
}): WelcomeStep[] {
  const step = (
    key: WelcomeStep['key'],
    count: number | undefined,
    noun: string,
    to: string,
  ): WelcomeStep => ({
    key,
    done: (count ?? 0) > 0,
    count: count ?? null,
    noun,
    to,
  });
  return [
    step('subjects', counts.subjects, 'subject', routeTo('subjects')),
    step('teachers', counts.teachers, 'teacher', routeTo('teachers')),
    step('families', counts.students, 'student', routeTo('students.bulkadd')),
    step('event', counts.events, 'event', routeTo('events')),
  ];
}

/** /welcome: the admin's onboarding checklist, subjects → teachers → families → first event. */
export function WelcomePage() {
  const subjects = useQuery(subjectsQuery);
  // How many there are: the first page's total (decision 035), not the whole list.
  const teachers = useQuery(peoplePageQuery('teachers'));
  const students = useQuery(peoplePageQuery('students'));
  // Issue 36: the fourth step read "not available yet" (written before events existed) and never ticked.
  const events = useQuery(eventsQuery);
  const steps = welcomeSteps({
    subjects: subjects.data?.length,
    teachers: teachers.data?.total,
    students: students.data?.total,
    events: events.data?.events.length,
  });
  const done = steps.filter((step) => step.done).length;
  const loading = subjects.isPending || teachers.isPending || students.isPending || events.isPending;
  // The first step not done is the one to do next.
  const nextKey = steps.find((step) => !step.done)?.key;

  return (
    <Stack spacing={2} sx={{ maxWidth: 760 }}>
      <PageHeading>{WELCOME_TEXT.title}</PageHeading>
      <Typography color="text.secondary" sx={{ mt: -1 }}>
        {WELCOME_TEXT.intro}
      </Typography>
      <Stack spacing={0.5}>
        <Typography variant="body2">
          {done === steps.length ? WELCOME_TEXT.allDone : WELCOME_TEXT.progress(done, steps.length)}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={(done / steps.length) * 100}
          color="success"
          aria-label={WELCOME_TEXT.progress(done, steps.length)}
        />
      </Stack>
      <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {steps.map((step, index) => {
          const text = WELCOME_TEXT.steps[step.key];
          return (
            <Card component="li" key={step.key} variant="outlined">
              <CardContent
                sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', '&:last-child': { pb: 2 } }}
              >
                {step.done ? (
                  <CheckCircleIcon color="success" aria-label={WELCOME_TEXT.done} sx={{ mt: 0.25 }} />
                ) : (
                  <RadioButtonUncheckedIcon
                    color="disabled"
                    aria-label={WELCOME_TEXT.todo}
                    sx={{ mt: 0.25 }}
                  />
                )}
                <Stack spacing={0.5} sx={{ flexGrow: 1, minWidth: 0 }}>
                  <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                    {`${index + 1}. ${text.title}`}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {text.text}
                  </Typography>
                  <Typography variant="body2">
                    {loading && step.count === null ? (
                      <Skeleton width={80} />
                    ) : (
                      WELCOME_TEXT.count(step.count ?? 0, step.noun)
                    )}
                  </Typography>
                  <div>
                    <Button
                      component={RouterLink}
                      to={step.to}
                      size="small"
                      variant={step.key === nextKey ? 'contained' : 'outlined'}
                      sx={{ mt: 0.5 }}
                    >
                      {text.action}
                    </Button>
                  </div>
                </Stack>
              </CardContent>
            </Card>
          );
        })}
      </Stack>
    </Stack>
  );
}
