import { describe, expect, it } from 'vitest';
import { eventMessageProgress } from './jobs';

describe('eventMessageProgress', () => {
  it('says how far a message has got, in the school’s way of writing numbers', () => {
    expect(eventMessageProgress('reminder', { status: 'running', done: 12000, total: 40000 })).toBe(
      'Sending reminder: 12,000 of 40,000 recipients.',
    );
    expect(eventMessageProgress('inviteToBook', { status: 'done', done: 40000, total: 40000 })).toBe(
      'Invitation sent to 40,000 recipients.',
    );
    expect(eventMessageProgress('reminder', { status: 'failed', done: 1200, total: 4000 })).toBe(
      'Reminder stopped after 1,200 of 4,000 recipients.',
    );
  });

  it('keeps the words of a school’s message sent at once', () => {
    expect(eventMessageProgress('reminder', { status: 'done', done: 1, total: 1 })).toBe(
      'Reminder sent to 1 recipient.',
    );
    expect(eventMessageProgress('inviteToBook', { status: 'done', done: 0, total: 0 })).toBe(
      'No recipients to message.',
    );
  });
});
