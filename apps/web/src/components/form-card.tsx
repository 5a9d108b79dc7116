import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** Spec §9: login and register cards are at most 448 px wide. */
export const FORM_CARD_MAX_WIDTH = 448;

export function FormCard({ title, children }: { title?: ReactNode; children: ReactNode }) {
  return (
    <Card sx={{ width: '100%', maxWidth: FORM_CARD_MAX_WIDTH, mx: 'auto' }} variant="outlined">
      <CardContent sx={{ p: { xs: 2, md: 3 }, '&:last-child': { pb: { xs: 2, md: 3 } } }}>
        {title ? (
          <Typography component="h2" variant="h6" sx={{ mb: 2, fontWeight: 600 }}>
            {title}
          </Typography>
        ) : null}
        {children}
      </CardContent>
    </Card>
  );
}
