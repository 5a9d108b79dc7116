import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { routeTo } from '@parley/domain/routes';
import { Link as RouterLink } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { BUTTONS, PAGE_TITLES, SCREEN_TEXT } from '../../../lib/ui-text';

export function NotFoundPage() {
  return (
    <>
      <PageHeading>{PAGE_TITLES.notFound}</PageHeading>
      <Typography sx={{ mb: 2 }}>{SCREEN_TEXT.notFound}</Typography>
      <Button component={RouterLink} to={routeTo('home')} variant="contained">
        {BUTTONS.home}
      </Button>
    </>
  );
}
