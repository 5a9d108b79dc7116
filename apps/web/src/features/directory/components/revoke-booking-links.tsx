import LinkOffIcon from '@mui/icons-material/LinkOff';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { revokeBookingLinks } from '../api';
import type { PeopleKind } from '../list-cache';

export const REVOKE_LINKS_TEXT = {
  title: 'Personal booking links',
  help: 'Invitation and reminder mails carry a personal link that books without a password. Revoke the links if a mail reached the wrong person or a phone was lost; the next mail brings a new link.',
  button: 'Revoke personal links',
  confirmTitle: (name: string) => `Revoke ${name}'s personal links?`,
  confirmText: 'Every booking link already mailed to them stops working at once. Their password still works.',
  confirm: 'Revoke',
  failed: 'The links could not be revoked. Please try again.',
} as const;

/** On a parent's or student's page, for admins: ends the personal booking links of their mails. */
export function RevokeBookingLinks({
  kind,
  person,
}: {
  kind: PeopleKind;
  person: { id: number; name: string };
}) {
  const showSnackbar = useSnackbar();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({
    mutationFn: () => revokeBookingLinks(person.id),
    onSuccess: (result) => {
      setConfirming(false);
      showSnackbar(result.message, 'success');
    },
    onError: (error) => {
      setConfirming(false);
      showSnackbar(serverMessage(error, REVOKE_LINKS_TEXT.failed), 'error');
    },
  });
  // Only families get personal links (the mails of an event go to its parent and student recipients).
  if (kind !== 'parents' && kind !== 'students') return null;
  return (
    <SectionCard title={REVOKE_LINKS_TEXT.title}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {REVOKE_LINKS_TEXT.help}
      </Typography>
      <Button
        color="warning"
        variant="outlined"
        startIcon={<LinkOffIcon />}
        onClick={() => setConfirming(true)}
        disabled={revoke.isPending}
      >
        {REVOKE_LINKS_TEXT.button}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={REVOKE_LINKS_TEXT.confirmTitle(person.name)}
        message={REVOKE_LINKS_TEXT.confirmText}
        confirmLabel={REVOKE_LINKS_TEXT.confirm}
        destructive
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </SectionCard>
  );
}
