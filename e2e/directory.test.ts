import { afterEach, describe, expect, inject, it } from 'vitest';
import { type Browser, DESKTOP, openBrowser, PHONE, screenshot } from './browser';
import { linkFromMailboxApi, logIn, PASSWORD, schoolThroughApi, uniqueEmail, waitForPath } from './journeys';

const baseUrl = inject('baseUrl');

const SUBJECTS = ['Maths', 'English', 'Physics', 'History'];

function teachersCsv(tag: string): string {
  const lines = ['Title,First name,Last name,Email,Subjects'];
  for (let i = 0; i < 30; i++) {
    lines.push(`Ms,Teacher${i},Bulk${tag},t${i}.${tag}@e2e.test,${SUBJECTS[i % 4]};${SUBJECTS[(i + 1) % 4]}`);
  }
  lines.push('Mr,Bad,Email,not-an-email,Maths');
  lines.push(`Dr,Unknown,Subject,unknown.${tag}@e2e.test,Astrology`);
  return lines.join('\n');
}

function familiesCsv(tag: string): string {
  const lines = [
    'Student first name,Student last name,Student email,Parent first name,Parent last name,Parent email,Parent 2 first name,Parent 2 last name,Parent 2 email',
  ];
  for (let i = 0; i < 50; i++) {
    const second = i % 2 === 0 ? `Sam,Family${i},sam${i}.${tag}@home.test` : ',,';
    lines.push(
      `Kid${i},Family${i},kid${i}.${tag}@e2e.test,Pat,Family${i},pat${i}.${tag}@home.test,${second}`,
    );
  }
  return lines.join('\n');
}

// Issue 3's journey: an admin brings the whole school in, on a desktop and a phone.
describe.each([
  ['desktop', DESKTOP, false],
  ['phone', PHONE, true],
] as const)('school directory (%s)', (label, viewport, phone) => {
  let browser: Browser;
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && browser) await screenshot(browser.page, `failed-directory-${label}`);
    await browser?.close();
  });

  it('adds subjects, a teacher by form, 30 teachers and 50 families by CSV, edits and deactivates', async () => {
    const tag = `${label}${Date.now()}`;
    const admin = await schoolThroughApi(baseUrl, `Directory ${label} School`);
    browser = await openBrowser(viewport, { isMobile: phone });
    const { page } = browser;
    await logIn(page, baseUrl, admin.email, PASSWORD);

    // Subjects through the add dialog.
    await page.goto(`${baseUrl}/subjects`);
    for (const name of SUBJECTS) {
      await page.getByRole('button', { name: 'Add subject' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Subject name').fill(name);
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await expect.poll(() => page.getByText('History').first().isVisible()).toBe(true);
    await screenshot(page, `${label}-30-subjects`);

    // One teacher by form, with two subjects.
    const formTeacher = uniqueEmail(`form.teacher.${label}`);
    await page.goto(`${baseUrl}/teachers`);
    await page.getByRole('button', { name: 'Add teacher' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('Mr');
    await dialog.getByLabel('First name').fill('Alan');
    await dialog.getByLabel('Last name').fill('Turing');
    await dialog.getByLabel('Email').fill(formTeacher);
    await dialog.getByLabel('Subjects').click();
    await page.getByRole('option', { name: 'Maths' }).click();
    await page.getByRole('option', { name: 'Physics' }).click();
    await page.keyboard.press('Escape');
    await screenshot(page, `${label}-31-teacher-dialog`);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByText('Turing').first().isVisible()).toBe(true);

    // 30 teachers by CSV: the two bad rows are shown with their reasons and skipped.
    await page.goto(`${baseUrl}/teachers/bulkadd`);
    await page.getByRole('textbox', { name: 'Rows (CSV)' }).fill(teachersCsv(tag));
    await page.getByRole('button', { name: 'Preview' }).click();
    const addTeachers = page.getByRole('button', { name: /Add 30 teachers/ });
    await addTeachers.waitFor();
    await expect.poll(() => page.getByText('email: Invalid email format').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByText('unknown subject "Astrology"').first().isVisible()).toBe(true);
    await screenshot(page, `${label}-32-bulk-teachers-preview`);
    await page.getByLabel('Send invitations').uncheck();
    await addTeachers.click();
    await page.getByText('Done').first().waitFor();
    await screenshot(page, `${label}-33-bulk-teachers-done`);
    const teachers = (await (await admin.get('users/teachers?pageSize=50')).json()) as {
      items: Array<{ id: number; email: string }>;
      total: number;
    };
    expect(teachers.items).toHaveLength(31);
    expect(teachers.total).toBe(31);

    // 50 students with their parents by CSV.
    await page.goto(`${baseUrl}/students/bulkadd`);
    await page.getByRole('textbox', { name: 'Rows (CSV)' }).fill(familiesCsv(tag));
    await page.getByRole('button', { name: 'Preview' }).click();
    const addFamilies = page.getByRole('button', { name: /Add 50 students/ });
    await addFamilies.waitFor();
    await page.getByLabel('Send invitations').uncheck();
    await addFamilies.click();
    await page.getByText('Done').first().waitFor();
    const students = (await (await admin.get('users/students')).json()) as { total: number };
    const parents = (await (await admin.get('users/parents')).json()) as { total: number };
    expect(students.total).toBe(50);
    expect(parents.total).toBe(75);

    await page.goto(`${baseUrl}/students`);
    await expect.poll(() => page.getByText('Kid0').first().isVisible()).toBe(true);
    await screenshot(page, `${label}-34-students`);

    // Edit the teacher added by form.
    const alan = teachers.items.find((t) => t.email === formTeacher);
    await page.goto(`${baseUrl}/teachers/view/${alan?.id}`);
    await page.getByLabel('First name').fill('Alan M.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Saved.').first().isVisible()).toBe(true);
    await screenshot(page, `${label}-35-teacher-edited`);

    // The teacher accepts the invitation (sent with the form), then is deactivated: their login fails.
    const inviteLink = await linkFromMailboxApi(baseUrl, formTeacher);
    const teacherBrowser = await openBrowser(viewport, { isMobile: phone });
    try {
      const teacherPage = teacherBrowser.page;
      await teacherPage.goto(inviteLink);
      await teacherPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await teacherPage.getByLabel('Confirm password').fill(PASSWORD);
      await teacherPage.getByRole('button', { name: 'Set password' }).click();
      await waitForPath(teacherPage, '/home');
      await expect.poll(() => teacherPage.getByText('Welcome, Alan M.').isVisible()).toBe(true);
      await teacherPage.goto(`${baseUrl}/students`);
      await waitForPath(teacherPage, '/home'); // only their own screens
      await teacherPage.goto(`${baseUrl}/profile`);
      await expect.poll(() => teacherPage.getByLabel('First name').inputValue()).toBe('Alan M.');
      await screenshot(teacherPage, `${label}-36-teacher-profile`);
    } finally {
      await teacherBrowser.close();
    }

    await page.goto(`${baseUrl}/teachers/view/${alan?.id}`);
    await page.getByLabel('Active').click();
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(() => page.getByText('Inactive').first().isVisible()).toBe(true);
    await screenshot(page, `${label}-37-teacher-deactivated`);
    const login = await fetch(`${baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: formTeacher, password: PASSWORD }),
    });
    expect(login.status).toBe(403);
    expect(((await login.json()) as { message: string }).message).toBe(
      'Your account is inactive. Please contact your school.',
    );
  });
});
