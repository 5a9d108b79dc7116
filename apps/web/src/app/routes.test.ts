import { NAMED_ROUTES, type RouteName, routeTo } from '@parley/domain/routes';
import { ticketPath } from '@parley/domain/tickets';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './route-table';

describe('the ticket route', () => {
  it('is the path a ticket QR carries', () => {
    expect(ROUTES.find((route) => route.screen === 'ticket-link')?.path).toBe(ticketPath(':code'));
  });
});

describe('routeTo (named routes, spec §2)', () => {
  it('builds the paths of the spec named routes', () => {
    expect(routeTo('home')).toBe('/home');
    expect(routeTo('login')).toBe('/auth/login');
    expect(routeTo('events')).toBe('/events');
    expect(routeTo('events.view', { id: 12 })).toBe('/events/view/12');
    expect(routeTo('event.details-teacher')).toBe('/event/details-teacher');
    expect(routeTo('event.details-parent')).toBe('/event/details-parent');
    expect(routeTo('event.details-student')).toBe('/event/details-student');
    expect(routeTo('teachers')).toBe('/teachers');
    expect(routeTo('parents')).toBe('/parents');
    expect(routeTo('students')).toBe('/students');
    expect(routeTo('subjects')).toBe('/subjects');
    expect(routeTo('welcome')).toBe('/welcome');
    expect(routeTo('school')).toBe('/school');
    expect(routeTo('admins')).toBe('/admins');
    expect(routeTo('profile')).toBe('/profile');
    expect(routeTo('settings')).toBe('/settings');
    expect(routeTo('billing')).toBe('/billing');
    expect(routeTo('events.current')).toBe('/events/view/id=current');
    expect(routeTo('teachers.bulkadd')).toBe('/teachers/bulkadd');
    expect(routeTo('students.bulkadd')).toBe('/students/bulkadd');
  });

  it('encodes parameters and appends a query string, skipping empty values', () => {
    expect(routeTo('book.event', { code: 'a/b c' })).toBe('/book/event/a%2Fb%20c');
    expect(routeTo('verify-email', {}, { token: 'x&y', other: undefined, n: null })).toBe(
      '/auth/verify-email?token=x%26y',
    );
    expect(routeTo('teachers.view', { id: '5' }, { tab: 'subjects' })).toBe('/teachers/view/5?tab=subjects');
  });

  it('throws when a parameter is missing', () => {
    const untyped = routeTo as (name: RouteName, params?: Record<string, unknown>) => string;
    expect(() => untyped('events.view')).toThrow(/needs parameter "id"/);
    expect(() => untyped('events.view', { id: '' })).toThrow(/needs parameter "id"/);
    expect(() => untyped('nope' as RouteName)).toThrow(/Unknown route name/);
  });

  it('has a route in the app for every named route', () => {
    const paths = new Set(ROUTES.map((route) => route.path));
    for (const [name, path] of Object.entries(NAMED_ROUTES)) {
      expect(paths.has(path), `${name} → ${path}`).toBe(true);
    }
  });
});
