import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AUTH_ERRORS } from '@parley/domain/messages';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { PageHeading } from '../../../components/page-heading';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { setCurrentUser, setSubscriberName, useSession } from '../../../lib/session';
import { BUTTONS, HOME_TEXT, SCREEN_TEXT } from '../../../lib/ui-text';
import { useRefreshHomeOnPush } from '../../push/use-refresh-home';
import { fetchCurrentUser, refreshHomeData, siteIndexQuery } from '../api';
import { AdminHome } from './admin-home';
import { hasMyEvents, MyEvents } from './my-events';

export function HomePage() {
  const { user, subscriberName } = useSession();
  const showSnackbar = useSnackbar();
  const index = useQuery({ ...siteIndexQuery, enabled: Boolean(user?.role) });
  useRefreshHomeOnPush();
  const [refreshing, setRefreshing] = useState(false);

  useEffect(() => {
    if (index.data) setSubscriberName(index.data.subscriberName);
  }, [index.data]);

  useEffect(() => {
    if (index.isError) showSnackbar(serverMessage(index.error, SCREEN_TEXT.homeRefreshFailed), 'error');
  }, [index.isError, index.error, showSnackbar]);

  const refresh = useMutation({
    mutationFn: fetchCurrentUser,
    onSuccess: (fresh) => setCurrentUser(fresh),
    onError: (error) => showSnackbar(serverMessage(error, SCREEN_TEXT.homeRefreshFailed), 'error'),
  });

  const refreshHome = useCallback(async () => {
    setRefreshing(true);
    try {
      await refreshHomeData();
    } catch (error) {
      showSnackbar(serverMessage(error, HOME_TEXT.loadFailed), 'error');
    } finally {
      setRefreshing(false);
    }
  }, [showSnackbar]);

  const [refreshingMine, setRefreshingMine] = useState(false);
  /** "Hit the refresh button": the current user (its roles) and the home data, both forced. */
  const refreshMyEvents = useCallback(async () => {
    setRefreshingMine(true);
    try {
      const [fresh] = await Promise.all([fetchCurrentUser(), refreshHomeData()]);
      setCurrentUser(fresh);
    } catch (error) {
      showSnackbar(serverMessage(error, HOME_TEXT.loadFailed), 'error');
    } finally {
      setRefreshingMine(false);
    }
  }, [showSnackbar]);

  const heading = index.data?.subscriberName ?? subscriberName ?? user?.subscriberName ?? '';

  if (!user?.role) {
    return (
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <Alert severity="warning">{AUTH_ERRORS.missingRole}</Alert>
        <div>
          <Button
            variant="outlined"
            startIcon={<RefreshIcon />}
            onClick={() => refresh.mutate()}
            disabled={refresh.isPending}
          >
            {BUTTONS.refresh}
          </Button>
        </div>
      </Stack>
    );
  }

  return (
    <Stack spacing={1}>
      <PageHeading>{heading}</PageHeading>
      <Typography variant="h6" component="p">
        {SCREEN_TEXT.welcome(user.firstName)}
      </Typography>
      {user.isAdmin ? (
        <AdminHome
          data={index.data}
          loginCount={user.loginCount}
          onRefresh={refreshHome}
          refreshing={refreshing}
        />
      ) : null}
      {hasMyEvents(index.data, user.roles) ? (
        <MyEvents
          data={index.data}
          roles={user.roles}
          onRefresh={refreshMyEvents}
          refreshing={refreshingMine}
        />
      ) : null}
    </Stack>
  );
}
