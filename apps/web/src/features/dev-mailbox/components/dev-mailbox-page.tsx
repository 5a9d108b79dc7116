import AttachFileIcon from '@mui/icons-material/AttachFile';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import RefreshIcon from '@mui/icons-material/Refresh';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatIsoDateTime } from '@parley/domain/time-zone';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { serverMessage } from '../../../lib/api-client';
import { useSiteConfig } from '../../../lib/site-config';
import { BUTTONS, PAGE_TITLES, SCREEN_TEXT } from '../../../lib/ui-text';
import { attachmentUrl, type DevMail, mailboxQuery, mailQuery } from '../api';
import { splitLinks } from '../linkify';

/** The mailbox holds every school's mail, so no one school's zone: UTC in the app's style, labelled. */
const formatTime = (value: string) => `${formatIsoDateTime(value, 'UTC')} UTC`;

const ATTACHMENTS = 'Attachments';

const formatSize = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB`;

/** Each attached file by name, as a link that downloads it. */
function MailAttachments({ mail }: { mail: DevMail }) {
  if (mail.attachments.length === 0) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography id="mail-attachments" component="h3" variant="subtitle2">
        {ATTACHMENTS}
      </Typography>
      <List dense aria-labelledby="mail-attachments">
        {mail.attachments.map((attachment, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the index is the attachment's address in the mail
          <ListItem key={index} disableGutters>
            <ListItemIcon sx={{ minWidth: 32 }}>
              <AttachFileIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText
              primary={
                <Link href={attachmentUrl(mail.id, index)} download={attachment.filename}>
                  {attachment.filename}
                </Link>
              }
              secondary={`${attachment.contentType.split(';')[0]} · ${formatSize(attachment.size)}`}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

function MailBody({ text }: { text: string }) {
  return (
    <Box
      component="pre"
      data-testid="mail-text"
      sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'inherit', m: 0 }}
    >
      {splitLinks(text).map((part, index) =>
        part.kind === 'link' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable text, in order
          <Link key={index} href={part.value} rel="noopener noreferrer">
            {part.value}
          </Link>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable text, in order
          <span key={index}>{part.value}</span>
        ),
      )}
    </Box>
  );
}

function MailReader({ mail }: { mail: DevMail }) {
  const extraLinks = mail.links.filter((link) => !mail.text.includes(link));
  return (
    <Box component="article" aria-labelledby="mail-subject">
      <Typography id="mail-subject" component="h2" variant="h6" sx={{ mb: 1 }}>
        {mail.subject}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <Typography variant="body2">To: {mail.to}</Typography>
        <Typography variant="body2" color="text.secondary">
          {formatTime(mail.createdAt)}
        </Typography>
        <Chip size="small" label={mail.status} />
      </Stack>
      <MailBody text={mail.text} />
      {extraLinks.length > 0 ? (
        <List dense aria-label="Links">
          {extraLinks.map((link) => (
            <ListItem key={link} disableGutters>
              <Link href={link} rel="noopener noreferrer">
                {link}
              </Link>
            </ListItem>
          ))}
        </List>
      ) : null}
      <MailAttachments mail={mail} />
      {mail.html ? (
        <Accordion sx={{ mt: 2 }} disableGutters slotProps={{ transition: { unmountOnExit: true } }}>
          <AccordionSummary expandIcon={<ExpandMoreIcon />}>{SCREEN_TEXT.devMailboxHtml}</AccordionSummary>
          <AccordionDetails>
            <Box
              component="iframe"
              title={SCREEN_TEXT.devMailboxHtml}
              sandbox=""
              srcDoc={mail.html}
              sx={{ width: '100%', height: 480, border: 0, bgcolor: '#fff', borderRadius: 1 }}
            />
          </AccordionDetails>
        </Accordion>
      ) : null}
    </Box>
  );
}

function SelectedMail({ id, fromList }: { id: string; fromList: DevMail | undefined }) {
  const query = useQuery({ ...mailQuery(id), enabled: fromList === undefined });
  const mail = fromList ?? query.data;
  if (query.isError)
    return <Alert severity="error">{serverMessage(query.error, SCREEN_TEXT.notFound)}</Alert>;
  if (!mail) return null;
  return <MailReader mail={mail} />;
}

export function DevMailboxPage() {
  const { config, isPending: configPending } = useSiteConfig();
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedId = searchParams.get('id');
  const mailbox = useQuery({ ...mailboxQuery, enabled: config.devMailbox });
  const items = mailbox.data?.items ?? [];

  if (!configPending && !config.devMailbox) {
    return (
      <>
        <PageHeading>{PAGE_TITLES.devMailbox}</PageHeading>
        <Alert severity="info">{SCREEN_TEXT.devMailboxOff}</Alert>
      </>
    );
  }

  return (
    <>
      <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between' }}>
        <PageHeading>{PAGE_TITLES.devMailbox}</PageHeading>
        <Button startIcon={<RefreshIcon />} onClick={() => void mailbox.refetch()}>
          {BUTTONS.refresh}
        </Button>
      </Stack>
      {mailbox.isError ? (
        <Alert severity="error">{serverMessage(mailbox.error, SCREEN_TEXT.notFound)}</Alert>
      ) : null}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          // minmax(0, …) and anywhere-wrapping: a long address or link must not widen a phone's page.
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(260px, 1fr) minmax(0, 2fr)' },
          alignItems: 'start',
          overflowWrap: 'anywhere',
        }}
      >
        <Paper variant="outlined">
          {items.length === 0 ? (
            <Typography sx={{ p: 2 }} color="text.secondary">
              {SCREEN_TEXT.devMailboxEmpty}
            </Typography>
          ) : (
            <List aria-label="Mails" disablePadding>
              {items.map((mail) => (
                <ListItem key={mail.id} disablePadding divider>
                  <ListItemButton
                    selected={String(mail.id) === selectedId}
                    onClick={() => setSearchParams({ id: String(mail.id) })}
                  >
                    <ListItemText
                      primary={mail.subject}
                      secondary={[
                        mail.to,
                        formatTime(mail.createdAt),
                        ...mail.attachments.map((attachment) => attachment.filename),
                      ].join(' · ')}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          )}
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
          {selectedId ? (
            <SelectedMail id={selectedId} fromList={items.find((mail) => String(mail.id) === selectedId)} />
          ) : (
            <Typography color="text.secondary">{SCREEN_TEXT.devMailboxPick}</Typography>
          )}
        </Paper>
      </Box>
    </>
  );
}
