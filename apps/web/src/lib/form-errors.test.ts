import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { alertLines, applyFieldErrors } from './form-errors';

const conflict = new ApiError(409, 'x', {
  message: 'maths@x.test is already a teacher.',
  errors: { email: ['maths@x.test is already a teacher.'] },
});
const invalid = new ApiError(422, 'x', {
  message: 'Please correct the highlighted fields.',
  errors: { email: ['Invalid email format', 'second'], subjectIds: ['Unknown subject: 9'] },
});

describe('server errors on a form', () => {
  it('puts the first message of each known field on that field', () => {
    const setError = vi.fn();
    applyFieldErrors(invalid, setError, ['email', 'firstName']);
    expect(setError).toHaveBeenCalledTimes(1);
    expect(setError).toHaveBeenCalledWith('email', { type: 'server', message: 'Invalid email format' });
    applyFieldErrors(new Error('network'), setError, ['email']);
    expect(setError).toHaveBeenCalledTimes(1);
  });

  it('shows the server message above the form, plus errors of fields the form lacks', () => {
    expect(alertLines(invalid, ['email'], 'Could not save.')).toEqual([
      'Please correct the highlighted fields.',
      'Unknown subject: 9',
    ]);
    expect(alertLines(invalid, ['email', 'subjectIds'], 'Could not save.')).toEqual([
      'Please correct the highlighted fields.',
    ]);
  });

  it('does not repeat above the form a message already on its field, and falls back', () => {
    expect(alertLines(conflict, ['email'], 'Could not save.')).toEqual([]);
    expect(alertLines(conflict, ['firstName'], 'Could not save.')).toEqual([
      'maths@x.test is already a teacher.',
    ]);
    expect(alertLines(new Error('offline'), ['email'], 'Could not save.')).toEqual(['Could not save.']);
  });
});
