import { eventNameField, eventTypeIdField } from '@parley/domain/events';
import { z } from '@parley/domain/zod';

// The new-event form (spec §3 "New-event form": name, eventTypeId; spec §5 texts come from the domain's
// fields, so the dialog and the API say the same thing).

export const eventFormSchema = z.object({ name: eventNameField, eventTypeId: eventTypeIdField });

/** The select holds a string ('' while nothing is chosen). */
export type EventFormValues = { name: string; eventTypeId: string };

export const emptyEventForm: EventFormValues = { name: '', eventTypeId: '' };

export function eventFormBody(values: EventFormValues): { name: string; eventTypeId: number } {
  return { name: values.name.trim(), eventTypeId: Number(values.eventTypeId) };
}
