import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

type Props = {
  title: ReactNode;
  /** Buttons or chips at the right of the title. */
  action?: ReactNode;
  children: ReactNode;
};

/** A titled card: one part of a detail or settings page. */
export function SectionCard({ title, action, children }: Props) {
  return (
    <Card variant="outlined">
      <CardContent sx={{ p: { xs: 2, md: 3 }, '&:last-child': { pb: { xs: 2, md: 3 } } }}>
        {/* On a narrow phone a long title wraps, and its chip or buttons go under it whole, never clipped. */}
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 1 }}
        >
          <Typography component="h2" variant="h6" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          {action}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}
