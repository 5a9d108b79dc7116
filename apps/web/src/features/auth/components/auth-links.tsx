import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

export type AuthLink = { to: string; label: ReactNode };

/** A row of small links under an auth form (Reset password, Register, Back to login, …). */
export function AuthLinks({ links }: { links: AuthLink[] }) {
  return (
    <Stack direction="row" component="nav" sx={{ mt: 2, flexWrap: 'wrap', gap: 2, justifyContent: 'center' }}>
      {links.map((link) => (
        <Link key={link.to} component={RouterLink} to={link.to} variant="body2" underline="hover">
          {link.label}
        </Link>
      ))}
    </Stack>
  );
}
