import Container from '@mui/material/Container';
import { Outlet } from 'react-router';
import { GlobalProgress } from '../../components/global-progress';

/** Development pages (dev mailbox): no navigation, just the content. */
export function PlainLayout() {
  return (
    <>
      <GlobalProgress />
      <Container component="main" maxWidth="xl" sx={{ py: { xs: 2, md: 3 } }}>
        <Outlet />
      </Container>
    </>
  );
}
