import { emailField, passwordField, personNameField, schoolNameField, tokenField } from './fields';
import { VALIDATION } from './messages';
import { ROLES } from './roles';
import { z } from './zod';

// The wire contract of the account journey (spec §7 Authentication). Request objects are strict:
// an unknown field is a client bug worth a clear 400, not something to ignore silently.

export const loginRequest = z.strictObject({
  email: emailField,
  password: passwordField,
  botCheckToken: z.string().max(4096).optional(),
});
export type LoginRequest = z.input<typeof loginRequest>;

export const signupRequest = z.strictObject({
  subscriberName: schoolNameField,
  firstName: personNameField,
  lastName: personNameField,
  email: emailField,
  password: passwordField,
});
export type SignupRequest = z.input<typeof signupRequest>;

export const emailRequest = z.strictObject({ email: emailField });
export type EmailRequest = z.input<typeof emailRequest>;

export const tokenQuery = z.strictObject({ token: z.string().max(200).optional() });

export const searchQuery = z.strictObject({ q: z.string().max(254).default('') });

const newPassword = z
  .strictObject({ password: passwordField, confirmPassword: z.string().max(200).optional() })
  .refine((value) => value.confirmPassword === undefined || value.confirmPassword === value.password, {
    path: ['confirmPassword'],
    message: VALIDATION.passwordsDiffer,
  });

export const resetPasswordRequest = newPassword;
export type ResetPasswordRequest = z.input<typeof resetPasswordRequest>;

export const setPasswordRequest = z
  .strictObject({
    token: tokenField,
    password: passwordField,
    confirmPassword: z.string().max(200).optional(),
  })
  .refine((value) => value.confirmPassword === undefined || value.confirmPassword === value.password, {
    path: ['confirmPassword'],
    message: VALIDATION.passwordsDiffer,
  });
export type SetPasswordRequest = z.input<typeof setPasswordRequest>;

export const roleSchema = z.enum(ROLES);

export const currentUser = z.object({
  id: z.number(),
  status: z.number(),
  accessToken: z.string().nullable(),
  deviceToken: z.string().nullable(),
  title: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  email: z.string(),
  userTypeId: z.number(),
  userTypeName: z.string(),
  userTypes: z.array(z.object({ id: z.number(), name: z.string() })),
  videoConferenceUrl: z.string().nullable(),
  role: roleSchema.nullable(),
  roles: z.array(roleSchema),
  subjectsLabels: z.string(),
  clickRole: roleSchema.nullable(),
  iAmAdmin: z.boolean(),
  isAdmin: z.boolean(),
  isTeacher: z.boolean(),
  isParent: z.boolean(),
  isStudent: z.boolean(),
  loginCount: z.number(),
  groupedSettings: z.record(z.string(), z.record(z.string(), z.unknown())),
  subscriberName: z.string(),
  schoolId: z.number(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

export const loginResponse = z.object({ accessToken: z.string(), user: currentUser, message: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

export const signupResponse = z.object({ success: z.boolean(), message: z.string() });

export const verifyEmailResponse = z.object({ accessToken: z.string().nullable(), message: z.string() });

export const existsResponse = z.object({ exists: z.boolean() });

export const invitationResponse = z.object({
  message: z.string(),
  email: z.string(),
  firstName: z.string(),
  role: roleSchema,
  subscriberName: z.string(),
  needsPassword: z.boolean(),
});
export type InvitationResponse = z.infer<typeof invitationResponse>;

export const emailSearchResponse = z.object({
  items: z.array(z.object({ id: z.number(), email: z.string(), name: z.string() })),
});

export const siteConfigResponse = z.object({
  appName: z.string(),
  version: z.string(),
  turnstileSiteKey: z.string().nullable(),
  devMailbox: z.boolean(),
});
export type SiteConfig = z.infer<typeof siteConfigResponse>;

export const siteIndexResponse = z.object({
  subscriberName: z.string(),
  viewAsSelectorItems: z.array(z.object({ value: roleSchema, label: z.string() })),
});
export type SiteIndex = z.infer<typeof siteIndexResponse>;

/** Error body of every 4xx/5xx answer (ARCHITECTURE: API conventions). */
export const errorResponse = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  action: z.literal('logout').optional(),
  retry: z.boolean().optional(),
  /** On 5xx answers: the id of this request in the server's log (also the X-Request-Id header). */
  requestId: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;
