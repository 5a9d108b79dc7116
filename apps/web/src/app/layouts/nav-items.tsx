import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import BackpackIcon from '@mui/icons-material/Backpack';
import ClassIcon from '@mui/icons-material/Class';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import EmojiPeopleIcon from '@mui/icons-material/EmojiPeople';
import EventIcon from '@mui/icons-material/Event';
import FamilyRestroomIcon from '@mui/icons-material/FamilyRestroom';
import HomeIcon from '@mui/icons-material/Home';
import PersonIcon from '@mui/icons-material/Person';
import SchoolIcon from '@mui/icons-material/School';
import SettingsIcon from '@mui/icons-material/Settings';
import WavingHandIcon from '@mui/icons-material/WavingHand';
import { routeTo } from '@parley/domain/routes';
import type { ReactNode } from 'react';
import { NAV } from '../../lib/ui-text';

// The navigation entries of spec §2 "Layouts and navigation" and their role rules (spec §6).

export type NavItem = {
  key: string;
  label: string;
  to: string;
  icon: ReactNode;
  adminOnly?: boolean;
  /** Listed in the user menu on mobile only (Parents, Students). */
  mobileOnly?: boolean;
};

/** Wide-screen top bar: Home for all roles; the rest admin only. */
export const TOP_BAR_ITEMS: NavItem[] = [
  { key: 'home', label: NAV.home, to: routeTo('home'), icon: <HomeIcon /> },
  { key: 'events', label: NAV.events, to: routeTo('events'), icon: <EventIcon />, adminOnly: true },
  { key: 'teachers', label: NAV.teachers, to: routeTo('teachers'), icon: <SchoolIcon />, adminOnly: true },
  {
    key: 'parents',
    label: NAV.parents,
    to: routeTo('parents'),
    icon: <FamilyRestroomIcon />,
    adminOnly: true,
  },
  { key: 'students', label: NAV.students, to: routeTo('students'), icon: <BackpackIcon />, adminOnly: true },
  { key: 'subjects', label: NAV.subjects, to: routeTo('subjects'), icon: <ClassIcon />, adminOnly: true },
];

/** User menu: Welcome, School, Admins, Billing (admin only); Parents, Students (mobile, admin); profile, settings. */
export const USER_MENU_ITEMS: NavItem[] = [
  { key: 'welcome', label: NAV.welcome, to: routeTo('welcome'), icon: <WavingHandIcon />, adminOnly: true },
  { key: 'school', label: NAV.school, to: routeTo('school'), icon: <SchoolIcon />, adminOnly: true },
  {
    key: 'admins',
    label: NAV.admins,
    to: routeTo('admins'),
    icon: <AdminPanelSettingsIcon />,
    adminOnly: true,
  },
  { key: 'billing', label: NAV.billing, to: routeTo('billing'), icon: <CreditCardIcon />, adminOnly: true },
  {
    key: 'parents',
    label: NAV.parents,
    to: routeTo('parents'),
    icon: <FamilyRestroomIcon />,
    adminOnly: true,
    mobileOnly: true,
  },
  {
    key: 'students',
    label: NAV.students,
    to: routeTo('students'),
    icon: <EmojiPeopleIcon />,
    adminOnly: true,
    mobileOnly: true,
  },
  { key: 'profile', label: NAV.profile, to: routeTo('profile'), icon: <PersonIcon /> },
  { key: 'settings', label: NAV.settings, to: routeTo('settings'), icon: <SettingsIcon /> },
];

export function visibleItems(items: NavItem[], options: { isAdmin: boolean; isMobile: boolean }): NavItem[] {
  return items.filter(
    (item) => (!item.adminOnly || options.isAdmin) && (!item.mobileOnly || options.isMobile),
  );
}

/** Whether a nav entry is the current section (its path or anything below it). */
export function isActive(item: NavItem, pathname: string): boolean {
  return pathname === item.to || pathname.startsWith(`${item.to}/`);
}
