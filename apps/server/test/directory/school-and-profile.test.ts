import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../factories';
import { createTestApp, type TestApp } from '../test-app';
import { type Api, addMember, api, expectStatus, loginAs, type Member, newSchool } from './directory-helpers';

// The school profile (site/school, site/update-school) and every user's own account: users/view,
// users/update, change-password, settings, update-settings, register-token.

let t: TestApp;
let http: Api;
let admin: { id: number; email: string; token: string };
let teacher: Member;

beforeAll(async () => {
  t = await createTestApp();
  http = api(t.app);
  ({ admin } = await newSchool(t, 'Profile School'));
  teacher = await addMember(t, admin.token, 'teacher', { firstName: 'Tess', lastName: 'Cher' });
});
afterAll(() => t.close());

describe('school profile', () => {
  it('site/school gives the school’s profile', async () => {
    expect(expectStatus(await http.get('site/school', admin.token), 200)).toEqual({
      id: expect.any(Number),
      name: 'Profile School',
      timezone: 'Europe/London',
      reminderTime: '18:00',
      address: null,
      contactEmail: null,
      phone: null,
      website: null,
      verified: true,
    });
  });

  it('site/update-school saves every field, empty text clears it, and site/school shows the result', async () => {
    const res = await http.post('site/update-school', admin.token, {
      name: '  Profile High  ',
      timezone: 'America/New_York',
      address: '1 School Lane',
      contactEmail: 'office@profile.example.org',
      phone: '+1 555 0100',
      website: '',
    });
    const saved = expectStatus(res, 200);
    expect(saved).toMatchObject({
      name: 'Profile High',
      timezone: 'America/New_York',
      address: '1 School Lane',
      contactEmail: 'office@profile.example.org',
      phone: '+1 555 0100',
      website: null,
    });
    expect(expectStatus(await http.get('site/school', admin.token), 200)).toEqual(saved);
    const index = expectStatus(await http.get('site/index', admin.token), 200);
    expect(index.subscriberName).toBe('Profile High');
  });

  it('site/update-school refuses a short name, an unknown time zone, a time that is none and a bad contact email', async () => {
    const res = await http.post('site/update-school', admin.token, {
      name: 'ab',
      timezone: 'Mars/Olympus_Mons',
      reminderTime: '25:00',
      contactEmail: 'office@',
    });
    expect(expectStatus(res, 422)).toEqual({
      message: 'Please correct the highlighted fields.',
      errors: {
        name: ['Min 3 characters'],
        timezone: ['Unknown time zone'],
        reminderTime: ['Must be a time like 18:00'],
        contactEmail: ['Invalid email format'],
      },
    });
    const abbreviation = await http.post('site/update-school', admin.token, {
      name: 'Profile High',
      timezone: 'EST',
    });
    expect(expectStatus(abbreviation, 422).errors).toEqual({ timezone: ['Unknown time zone'] });
    const missing = await http.post('site/update-school', admin.token, { name: 'Profile High' });
    expect(expectStatus(missing, 422).errors).toHaveProperty('timezone');
    expect(expectStatus(await http.get('site/school', admin.token), 200).timezone).toBe('America/New_York');
  });
});

describe('own profile', () => {
  it('users/view gives the current-user fields of spec §3', async () => {
    const me = expectStatus(await http.get(`users/view?id=${teacher.id}`, teacher.token), 200);
    expect(me).toMatchObject({
      id: teacher.id,
      status: 1,
      firstName: 'Tess',
      lastName: 'Cher',
      fullName: 'Tess Cher',
      email: teacher.email,
      userTypeId: 3,
      userTypeName: 'Teacher',
      userTypes: [{ id: 3, name: 'Teacher' }],
      role: 'teacher',
      roles: ['teacher'],
      isAdmin: false,
      isTeacher: true,
      videoConferenceUrl: null,
    });
    expectStatus(await http.get('users/view?id=999999', admin.token), 404);
    expect(expectStatus(await http.get('users/view', admin.token), 422).errors).toHaveProperty('id');
  });

  it('users/update changes title, names and the video link; an admin may edit a member’s profile', async () => {
    const res = await http.post(`users/update?id=${teacher.id}`, teacher.token, {
      title: 'Dr',
      lastName: 'Cherry',
      videoConferenceUrl: 'https://meet.example.org/tess',
    });
    expect(expectStatus(res, 200)).toMatchObject({
      title: 'Dr',
      firstName: 'Tess',
      lastName: 'Cherry',
      fullName: 'Tess Cherry',
      videoConferenceUrl: 'https://meet.example.org/tess',
    });
    const byAdmin = await http.post(`users/update?id=${teacher.id}`, admin.token, { videoConferenceUrl: '' });
    expect(expectStatus(byAdmin, 200).videoConferenceUrl).toBeNull();
    const listed = expectStatus<{ items: Array<{ id: number; name: string }> }>(
      await http.get('users/teachers', admin.token),
      200,
    ).items;
    expect(listed.find((item) => item.id === teacher.id)?.name).toBe('Tess Cherry');
  });

  it('users/update refuses bad fields and fields it does not own', async () => {
    const res = await http.post(`users/update?id=${teacher.id}`, teacher.token, {
      firstName: 'T',
      videoConferenceUrl: 'http://insecure.example.org',
      email: 'new@example.org',
    });
    expect(expectStatus(res, 422).errors).toEqual({
      firstName: ['Min 2 characters'],
      videoConferenceUrl: ['Must be an https:// link'],
      email: ['Unknown field.'],
    });
  });
});

describe('change-password', () => {
  it('keeps the current session, ends the others, and swaps the password used to log in', async () => {
    const member = await addMember(t, admin.token, 'parent');
    const other = expectStatus<{ accessToken: string }>(await loginAs(t.app, member.email), 200).accessToken;
    const newPassword = 'a brand new passphrase';
    const res = await http.post('users/change-password', member.token, {
      currentPassword: PASSWORD,
      password: newPassword,
      confirmPassword: newPassword,
    });
    expect(expectStatus(res, 200)).toEqual({ message: 'Your password has been changed.' });
    expectStatus(await http.get('users/settings', member.token), 200);
    expect(expectStatus(await http.get('users/settings', other), 401)).toMatchObject({ action: 'logout' });
    expectStatus(await loginAs(t.app, member.email, PASSWORD), 422);
    expectStatus(await loginAs(t.app, member.email, newPassword), 200);
  });

  it('refuses a wrong current password, a short password and a confirmation that differs', async () => {
    const member = await addMember(t, admin.token, 'student');
    const wrong = await http.post('users/change-password', member.token, {
      currentPassword: 'not my password',
      password: 'another long password',
    });
    expect(expectStatus(wrong, 422)).toEqual({
      message: 'Current password is incorrect.',
      errors: { currentPassword: ['Current password is incorrect.'] },
    });
    const short = await http.post('users/change-password', member.token, {
      currentPassword: PASSWORD,
      password: 'short',
    });
    expect(expectStatus(short, 422).errors).toEqual({ password: ['Min 8 characters'] });
    const differ = await http.post('users/change-password', member.token, {
      currentPassword: PASSWORD,
      password: 'another long password',
      confirmPassword: 'another long passwore',
    });
    expect(expectStatus(differ, 422).errors).toEqual({ confirmPassword: ['Passwords do not match'] });
    const missing = await http.post('users/change-password', member.token, {
      password: 'another long password',
    });
    expect(expectStatus(missing, 422).errors).toEqual({ currentPassword: ['Required.'] });
    expectStatus(await loginAs(t.app, member.email, PASSWORD), 200);
  });
});

describe('settings and device token', () => {
  it('users/settings starts from the defaults, grouped', async () => {
    const member = await addMember(t, admin.token, 'student');
    expect(expectStatus(await http.get('users/settings', member.token), 200)).toEqual({
      groupedSettings: {
        notifications: { bookingConfirmations: true, eventReminders: true, bookingNotifications: false },
        display: { theme: 'dark' },
        push: { bookings: true, eventOpening: true, invitations: true, reminders: true },
      },
    });
  });

  it('users/update-settings merges what is sent and keeps it', async () => {
    const first = await http.post('users/update-settings', teacher.token, { display: { theme: 'light' } });
    expect(expectStatus(first, 200)).toEqual({
      groupedSettings: {
        notifications: { bookingConfirmations: true, eventReminders: true, bookingNotifications: false },
        display: { theme: 'light' },
        push: { bookings: true, eventOpening: true, invitations: true, reminders: true },
      },
    });
    for (const notifications of [{ bookingNotifications: true }, { eventReminders: false }]) {
      expectStatus(await http.post('users/update-settings', teacher.token, { notifications }), 200);
    }
    expect(expectStatus(await http.get('users/settings', teacher.token), 200)).toEqual({
      groupedSettings: {
        notifications: { bookingConfirmations: true, eventReminders: false, bookingNotifications: true },
        display: { theme: 'light' },
        push: { bookings: true, eventOpening: true, invitations: true, reminders: true },
      },
    });
    const admins = expectStatus(await http.get('users/settings', admin.token), 200);
    expect(admins.groupedSettings).toMatchObject({ display: { theme: 'dark' } });
  });

  it('users/update-settings refuses unknown themes, groups and keys', async () => {
    const res = await http.post('users/update-settings', teacher.token, {
      display: { theme: 'blue' },
      notifications: { sms: true },
      sound: {},
    });
    const errors = expectStatus<{ errors: Record<string, string[]> }>(res, 422).errors;
    expect(Object.keys(errors).sort()).toEqual(['display.theme', 'sms', 'sound']);
    expect(expectStatus(await http.get('users/settings', teacher.token), 200).groupedSettings).toMatchObject({
      display: { theme: 'light' },
    });
  });

  it('users/register-token stores the device token on the caller’s own account', async () => {
    const res = await http.post(`users/register-token?id=${teacher.id}`, teacher.token, {
      deviceToken: 'fcm:abc',
    });
    expect(expectStatus(res, 200)).toEqual({ message: 'Device registered.' });
    expect(expectStatus(await http.get(`users/view?id=${teacher.id}`, teacher.token), 200).deviceToken).toBe(
      'fcm:abc',
    );
    expect(
      expectStatus(await http.post('users/register-token', teacher.token, {}), 422).errors,
    ).toHaveProperty('deviceToken');
    expectStatus(await http.post('users/register-token', teacher.token, { deviceToken: '' }), 422);
  });
});
