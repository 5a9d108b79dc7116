import { zodResolver } from '@hookform/resolvers/zod';
import VerifiedIcon from '@mui/icons-material/Verified';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { type SchoolProfile, schoolUpdate } from '@parley/domain/school';
import type { z } from '@parley/domain/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { CLOCK_INPUT, CLOCK_REGISTRATION } from '../../../components/clock-time';
import { FormAlert } from '../../../components/form-alert';
import { FormTextField } from '../../../components/form-text-field';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { TextField } from '../../../components/text-field';
import { serverMessage } from '../../../lib/api-client';
import { alertLines, applyFieldErrors } from '../../../lib/form-errors';
import { queryClient } from '../../../lib/query-client';
import { getSession, setCurrentUser, setSubscriberName } from '../../../lib/session';
import { SCHOOL_TEXT } from '../../../lib/ui-text';
import { schoolQuery, updateSchool } from '../api';
import { REMINDER_TIME_TEXT } from '../school-text';
import { timeZoneLabel, timeZoneOptions } from '../time-zones';

type FormInput = z.input<typeof schoolUpdate>;
type FormOutput = z.output<typeof schoolUpdate>;
const FIELDS = ['name', 'timezone', 'reminderTime', 'address', 'contactEmail', 'phone', 'website'] as const;

const toValues = (school: SchoolProfile): FormInput => ({
  name: school.name,
  timezone: school.timezone,
  reminderTime: school.reminderTime,
  address: school.address ?? '',
  contactEmail: school.contactEmail ?? '',
  phone: school.phone ?? '',
  website: school.website ?? '',
});

/** /school (admin): the school's name, contact details, time zone and day-before reminder time. */
export function SchoolPage() {
  const query = useQuery(schoolQuery);
  return (
    <Box sx={{ maxWidth: 720 }}>
      <PageHeading>{SCHOOL_TEXT.title}</PageHeading>
      {query.data ? (
        <SchoolForm school={query.data} />
      ) : query.isError ? (
        <Alert severity="error">{serverMessage(query.error, SCHOOL_TEXT.loadFailed)}</Alert>
      ) : (
        <PageSkeleton />
      )}
    </Box>
  );
}

function SchoolForm({ school }: { school: SchoolProfile }) {
  const showSnackbar = useSnackbar();
  const zones = useMemo(() => timeZoneOptions(school.timezone), [school.timezone]);
  const labels = useMemo(() => new Map(zones.map((zone) => [zone, timeZoneLabel(zone)])), [zones]);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isValid, isDirty },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(schoolUpdate),
    mode: 'onTouched',
    defaultValues: toValues(school),
  });

  const mutation = useMutation({
    mutationFn: updateSchool,
    onSuccess: (saved) => {
      queryClient.setQueryData(schoolQuery.queryKey, saved);
      reset(toValues(saved));
      // The school's name is the app heading (spec §2): show the new one at once.
      setSubscriberName(saved.name);
      const user = getSession().user;
      if (user) setCurrentUser({ ...user, subscriberName: saved.name });
      showSnackbar(SCHOOL_TEXT.saved, 'success');
    },
    onError: (error) => applyFieldErrors(error, setError, FIELDS),
  });

  return (
    <SectionCard
      title={school.name}
      action={
        school.verified ? (
          <Chip
            size="small"
            icon={<VerifiedIcon />}
            label={SCHOOL_TEXT.verified}
            color="success"
            variant="outlined"
          />
        ) : null
      }
    >
      <form noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <FormAlert
          lines={mutation.isError ? alertLines(mutation.error, FIELDS, SCHOOL_TEXT.saveFailed) : []}
        />
        <FormTextField
          label={SCHOOL_TEXT.name}
          registration={register('name')}
          error={errors.name?.message}
          autoComplete="organization"
        />
        <Controller
          control={control}
          name="timezone"
          render={({ field, fieldState }) => (
            <Autocomplete
              options={zones}
              value={field.value}
              disableClearable
              autoHighlight
              getOptionLabel={(zone) => labels.get(zone) ?? zone}
              onChange={(_event, zone) => field.onChange(zone)}
              onBlur={field.onBlur}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={SCHOOL_TEXT.timezone}
                  error={Boolean(fieldState.error)}
                  helperText={fieldState.error?.message ?? SCHOOL_TEXT.timezoneHelp}
                />
              )}
            />
          )}
        />
        <FormTextField
          label={REMINDER_TIME_TEXT.label}
          registration={register('reminderTime', CLOCK_REGISTRATION)}
          error={errors.reminderTime?.message}
          helperText={REMINDER_TIME_TEXT.help}
          {...CLOCK_INPUT}
        />
        <FormTextField
          label={SCHOOL_TEXT.address}
          registration={register('address')}
          error={errors.address?.message}
          multiline
          minRows={2}
          autoComplete="street-address"
        />
        <FormTextField
          label={SCHOOL_TEXT.contactEmail}
          type="email"
          registration={register('contactEmail')}
          error={errors.contactEmail?.message}
          autoComplete="email"
        />
        <FormTextField
          label={SCHOOL_TEXT.phone}
          type="tel"
          registration={register('phone')}
          error={errors.phone?.message}
          autoComplete="tel"
        />
        <FormTextField
          label={SCHOOL_TEXT.website}
          type="url"
          registration={register('website')}
          error={errors.website?.message}
          autoComplete="url"
        />
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" disabled={!isValid || !isDirty || mutation.isPending}>
            {SCHOOL_TEXT.save}
          </Button>
        </Box>
      </form>
    </SectionCard>
  );
}
