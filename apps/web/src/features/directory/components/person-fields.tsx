import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { Controller, useFormContext } from 'react-hook-form';
import { FormTextField } from '../../../components/form-text-field';
import { IdMultiSelect } from '../../../components/id-multi-select';
import { PEOPLE_TEXT } from '../../../lib/ui-text';
import { type PersonRef, subjectsQuery } from '../api';
import type { PeopleKind } from '../list-cache';
import type { FormMode, PersonFormValues } from '../person-form';
import { PeoplePicker } from './people-picker';
import { StudiesFields } from './studies-fields';

type Props = {
  kind: PeopleKind;
  mode: FormMode;
  /** Shown read-only where the email cannot be changed (an admin's). */
  readOnlyEmail?: string;
  /** An edited parent's children or student's parents: their names, before any search. */
  linked?: readonly PersonRef[];
};

/** The fields of a person form (inside a react-hook-form FormProvider), by list and mode. */
export function PersonFields({ kind, mode, readOnlyEmail, linked }: Props) {
  const {
    register,
    control,
    formState: { errors },
  } = useFormContext<PersonFormValues>();
  const withTitle = kind === 'teachers' || kind === 'parents' || (kind === 'admins' && mode === 'edit');
  const subjects = useQuery({ ...subjectsQuery, enabled: kind === 'teachers' || kind === 'students' });
  const subjectOptions = (subjects.data ?? []).map((subject) => ({ id: subject.id, label: subject.name }));

  return (
    <>
      {withTitle ? (
        <FormTextField
          label={PEOPLE_TEXT.title}
          registration={register('title')}
          error={errors.title?.message}
          helperText={PEOPLE_TEXT.titleHelp}
          autoComplete="honorific-prefix"
        />
      ) : null}
      <FormTextField
        label={PEOPLE_TEXT.firstName}
        registration={register('firstName')}
        error={errors.firstName?.message}
        autoComplete="off"
      />
      <FormTextField
        label={PEOPLE_TEXT.lastName}
        registration={register('lastName')}
        error={errors.lastName?.message}
        autoComplete="off"
      />
      {readOnlyEmail !== undefined ? (
        <TextField
          label={PEOPLE_TEXT.email}
          value={readOnlyEmail}
          helperText={PEOPLE_TEXT.emailReadOnly}
          slotProps={{ input: { readOnly: true } }}
        />
      ) : (
        <FormTextField
          label={PEOPLE_TEXT.email}
          type="email"
          registration={register('email')}
          error={errors.email?.message}
          autoComplete="off"
        />
      )}
      {kind === 'teachers' ? (
        <Controller
          control={control}
          name="subjectIds"
          render={({ field, fieldState }) => (
            <IdMultiSelect
              label={PEOPLE_TEXT.subjects}
              options={subjectOptions}
              value={field.value ?? []}
              onChange={field.onChange}
              onBlur={field.onBlur}
              loading={subjects.isPending}
              noOptionsText={PEOPLE_TEXT.noSubjects}
              error={fieldState.error?.message}
            />
          )}
        />
      ) : null}
      {kind === 'parents' ? (
        <Controller
          control={control}
          name="studentIds"
          render={({ field, fieldState }) => (
            <PeoplePicker
              kind="students"
              label={PEOPLE_TEXT.children}
              linked={linked}
              value={field.value ?? []}
              onChange={field.onChange}
              onBlur={field.onBlur}
              noOptionsText={PEOPLE_TEXT.noStudents}
              error={fieldState.error?.message}
            />
          )}
        />
      ) : null}
      {kind === 'students' ? (
        <>
          <Controller
            control={control}
            name="parentIds"
            render={({ field, fieldState }) => (
              <PeoplePicker
                kind="parents"
                label={PEOPLE_TEXT.parents}
                linked={linked}
                value={field.value ?? []}
                onChange={field.onChange}
                onBlur={field.onBlur}
                noOptionsText={PEOPLE_TEXT.noParents}
                error={fieldState.error?.message}
              />
            )}
          />
          <StudiesFields subjects={subjectOptions} />
        </>
      ) : null}
      {mode === 'create' && kind !== 'admins' ? (
        <>
          <Controller
            control={control}
            name="sendInvite"
            render={({ field }) => (
              <FormControlLabel
                sx={{ mt: 1 }}
                control={
                  <Checkbox
                    checked={Boolean(field.value)}
                    onChange={(event) => field.onChange(event.target.checked)}
                  />
                }
                label={PEOPLE_TEXT.sendInvitation}
              />
            )}
          />
          <FormHelperText sx={{ mt: -0.5, ml: 4 }}>{PEOPLE_TEXT.sendInvitationHelp}</FormHelperText>
        </>
      ) : null}
      {mode === 'create' && kind === 'admins' ? (
        <FormHelperText sx={{ mt: 1 }}>{PEOPLE_TEXT.adminInviteHelp}</FormHelperText>
      ) : null}
    </>
  );
}
