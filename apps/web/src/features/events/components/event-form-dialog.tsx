import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import type { EventTypeItem } from '@parley/domain/events';
import { routeTo } from '@parley/domain/routes';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FormTextField } from '../../../components/form-text-field';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT, LIST_TEXT } from '../../../lib/ui-text';
import { useFormOnOpen } from '../../../lib/use-form-on-open';
import { afterEventChange, createEvent, type Saved, updateEvent } from '../api';
import { type EventFormValues, emptyEventForm, eventFormBody, eventFormSchema } from '../event-form';

/** Spec §9: the add-event dialog is at most 500 px wide. */
export const EVENT_DIALOG_MAX_WIDTH = 500;

/** Spec §3: "Parent teacher" is the preset event type of a new event. */
export function defaultEventTypeId(types: readonly EventTypeItem[]): string {
  const preset = types.find((type) => type.groupInt === EVENT_GROUPS.parentTeacher) ?? types[0];
  return preset ? String(preset.id) : '';
}

type Props = {
  open: boolean;
  onClose: () => void;
  eventTypes: readonly EventTypeItem[];
  /** Present: "Edit event" of this event; absent: "New event". */
  editing?: { id: number; name: string; eventTypeId: number };
};

/**
 * Spec §2 Add dialog and §4 dialog states: Create is disabled until the form is valid, a loading flag
 * is set during the call, Cancel or success closes and resets. After a create the new event opens with
 * a green snackbar of the server's message; a failure shows the server's message in red.
 */
export function EventFormDialog({ open, onClose, eventTypes, editing }: Props) {
  const titleId = useId();
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  const initial: EventFormValues = editing
    ? { name: editing.name, eventTypeId: String(editing.eventTypeId) }
    : { ...emptyEventForm, eventTypeId: defaultEventTypeId(eventTypes) };
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isValid },
  } = useForm<EventFormValues>({
    resolver: zodResolver(eventFormSchema) as unknown as Resolver<EventFormValues>,
    mode: 'onTouched',
    defaultValues: initial,
  });

  // The types may arrive after the dialog opened: the fields nobody changed pick up the preset.
  useFormOnOpen(open, reset, initial, `${initial.name}|${initial.eventTypeId}`);

  const mutation = useMutation({
    mutationFn: (values: EventFormValues): Promise<Saved> =>
      editing ? updateEvent(editing.id, eventFormBody(values)) : createEvent(eventFormBody(values)),
    onSuccess: (result) => {
      showSnackbar(result.message, 'success');
      void afterEventChange(editing?.id);
      reset(initial);
      onClose();
      if (!editing) navigate(routeTo('events.view', { id: result.id }));
    },
    onError: (error) => {
      console.error('Event save failed', error);
      showSnackbar(serverMessage(error, EVENTS_TEXT.createFailed), 'error');
    },
  });

  const close = () => {
    if (mutation.isPending) return;
    reset(initial);
    mutation.reset();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby={titleId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: EVENT_DIALOG_MAX_WIDTH } } }}
    >
      <form noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <DialogTitle id={titleId}>{editing ? EVENTS_TEXT.editTitle : EVENTS_TEXT.newTitle}</DialogTitle>
        <DialogContent>
          <FormTextField
            registration={register('name')}
            label={EVENTS_TEXT.name}
            error={errors.name?.message}
            required
            fullWidth
            autoFocus
            margin="normal"
            autoComplete="off"
          />
          <Controller
            control={control}
            name="eventTypeId"
            render={({ field, fieldState }) => (
              <TextField
                select
                label={EVENTS_TEXT.type}
                required
                fullWidth
                margin="normal"
                name={field.name}
                value={field.value}
                inputRef={field.ref}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message}
              >
                {eventTypes.map((type) => (
                  <MenuItem key={type.id} value={String(type.id)}>
                    {type.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={mutation.isPending}>
            {LIST_TEXT.cancel}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!isValid || mutation.isPending}
            loading={mutation.isPending}
          >
            {editing ? EVENTS_TEXT.save : EVENTS_TEXT.create}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
