import { z } from 'zod';
import { emailField, personNameField } from './fields';

// People the school brings in by invitation (spec §7 Users). The directory issue extends these.
export const inviteRequest = z.strictObject({
  email: emailField,
  firstName: personNameField,
  lastName: personNameField,
});
export type InviteRequest = z.input<typeof inviteRequest>;

export const invitedResponse = z.object({ id: z.number(), message: z.string() });
