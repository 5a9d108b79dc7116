import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import type { IdOption } from '../../../components/id-multi-select';
import { PEOPLE_TEXT } from '../../../lib/ui-text';
import { teachersForSubjectQuery } from '../api';
import type { PersonFormValues } from '../person-form';

const NO_TEACHER = '';

/** The teacher picker of one subject row: the teachers of that subject (search-teachers-for-subject). */
function TeacherSelect({ index, subjectId }: { index: number; subjectId: number | null }) {
  const { control } = useFormContext<PersonFormValues>();
  const teachers = useQuery({ ...teachersForSubjectQuery(subjectId ?? 0), enabled: subjectId !== null });
  return (
    <Controller
      control={control}
      name={`subjects.${index}.teacherId`}
      render={({ field, fieldState }) => (
        <TextField
          select
          label={PEOPLE_TEXT.teacher}
          size="small"
          margin="none"
          value={field.value ?? NO_TEACHER}
          onChange={(event) =>
            field.onChange(event.target.value === NO_TEACHER ? null : Number(event.target.value))
          }
          onBlur={field.onBlur}
          disabled={subjectId === null}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message}
          sx={{ flex: 1, minWidth: 0 }}
        >
          <MenuItem value={NO_TEACHER}>
            <em>{PEOPLE_TEXT.noTeacher}</em>
          </MenuItem>
          {(teachers.data ?? []).map((teacher) => (
            <MenuItem key={teacher.id} value={teacher.id}>
              {teacher.name}
            </MenuItem>
          ))}
          {/* A saved teacher no longer teaching the subject still shows until changed. */}
          {field.value && !teachers.data?.some((teacher) => teacher.id === field.value) ? (
            <MenuItem value={field.value}>{`#${field.value}`}</MenuItem>
          ) : null}
        </TextField>
      )}
    />
  );
}

/** A student's subjects, each with the teacher who teaches it to them (spec: studies). */
export function StudiesFields({ subjects }: { subjects: IdOption[] }) {
  const {
    control,
    setValue,
    formState: { errors },
  } = useFormContext<PersonFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'subjects' });
  const rows = useWatch({ control, name: 'subjects' }) ?? [];
  const listError = errors.subjects?.message ?? errors.subjects?.root?.message;

  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle2">{PEOPLE_TEXT.studies}</Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        {PEOPLE_TEXT.studiesHelp}
      </Typography>
      <Stack spacing={1.5}>
        {fields.map((row, index) => (
          <Stack
            key={row.id}
            direction={{ xs: 'column', md: 'row' }}
            spacing={1}
            sx={{ alignItems: 'flex-start' }}
          >
            <Controller
              control={control}
              name={`subjects.${index}.subjectId`}
              render={({ field, fieldState }) => (
                <TextField
                  select
                  label={PEOPLE_TEXT.subject}
                  size="small"
                  margin="none"
                  value={field.value ?? ''}
                  onChange={(event) => {
                    field.onChange(Number(event.target.value));
                    // Touched once chosen, not when the menu opens (opening blurs the field).
                    field.onBlur();
                    setValue(`subjects.${index}.teacherId`, null, { shouldDirty: true });
                  }}
                  error={Boolean(fieldState.error)}
                  helperText={
                    fieldState.error?.message ??
                    (field.value === null ? PEOPLE_TEXT.chooseSubject : undefined)
                  }
                  sx={{ flex: 1, minWidth: 0, width: { xs: '100%', md: 'auto' } }}
                >
                  {subjects.map((subject) => (
                    <MenuItem key={subject.id} value={subject.id}>
                      {subject.label}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Stack direction="row" spacing={1} sx={{ flex: 1, width: { xs: '100%', md: 'auto' } }}>
              <TeacherSelect index={index} subjectId={rows[index]?.subjectId ?? null} />
              <IconButton aria-label={PEOPLE_TEXT.removeSubject} onClick={() => remove(index)}>
                <DeleteOutlineIcon />
              </IconButton>
            </Stack>
          </Stack>
        ))}
      </Stack>
      {listError ? (
        <Typography color="error" variant="caption" component="p" role="alert">
          {listError}
        </Typography>
      ) : null}
      <Button
        startIcon={<AddIcon />}
        onClick={() => append({ subjectId: null, teacherId: null })}
        disabled={subjects.length === 0}
        sx={{ mt: 1 }}
      >
        {PEOPLE_TEXT.addSubject}
      </Button>
      {subjects.length === 0 ? (
        <Typography variant="caption" color="text.secondary" component="p">
          {PEOPLE_TEXT.noSubjects}
        </Typography>
      ) : null}
    </Box>
  );
}
