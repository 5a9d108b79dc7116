import type { ResetPasswordRequest } from '@parley/domain/auth';
import { routeTo } from '@parley/domain/routes';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useSnackbar } from '../../../components/snackbar';
import { completeLogin, type SetPasswordKind, setPassword } from '../api';

/** Set the password of an invited user; the answer logs the user in and the app goes home. */
export function useSetPassword(kind: SetPasswordKind | null, token: string) {
  const navigate = useNavigate();
  const showSnackbar = useSnackbar();
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => {
      if (!kind) throw new Error('The invitation is not loaded yet');
      return setPassword(kind, token, body);
    },
    onSuccess: (response) => {
      completeLogin(response);
      showSnackbar(response.message, 'success');
      navigate(routeTo('home'), { replace: true });
    },
  });
}
