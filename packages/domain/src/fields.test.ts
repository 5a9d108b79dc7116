import { describe, expect, it } from 'vitest';
import { signupRequest } from './auth';
import { emailField, passwordField, personNameField, schoolNameField } from './fields';

const firstError = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('spec §5 field rules', () => {
  it('checks email with a simple text@domain.tld pattern and lower-cases it', () => {
    expect(emailField.parse('  Ann@School.ORG ')).toBe('ann@school.org');
    expect(firstError(emailField.safeParse('ann@school'))).toBe('Invalid email format');
    expect(firstError(emailField.safeParse('ann school@x.org'))).toBe('Invalid email format');
    expect(firstError(emailField.safeParse(''))).toBe('Required.');
  });

  it('requires passwords of at least 8 characters and accepts long ones', () => {
    expect(firstError(passwordField.safeParse(''))).toBe('Required.');
    expect(firstError(passwordField.safeParse('1234567'))).toBe('Min 8 characters');
    expect(passwordField.safeParse('x'.repeat(64)).success).toBe(true);
  });

  it('requires school names of 3 and person names of 2 characters', () => {
    expect(firstError(schoolNameField.safeParse('ab'))).toBe('Min 3 characters');
    expect(firstError(personNameField.safeParse('a'))).toBe('Min 2 characters');
    expect(firstError(personNameField.safeParse(undefined))).toBe('Required.');
    expect(firstError(personNameField.safeParse(42))).toBe('Must be text.');
  });

  it('refuses unknown fields in a request', () => {
    const result = signupRequest.safeParse({
      subscriberName: 'Green Hill',
      firstName: 'Ada',
      lastName: 'Lee',
      email: 'ada@x.org',
      password: 'password1',
      admin: true,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys');
  });
});
