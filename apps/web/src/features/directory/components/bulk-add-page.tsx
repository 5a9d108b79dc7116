import DownloadIcon from '@mui/icons-material/Download';
import PreviewIcon from '@mui/icons-material/Preview';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { RowStatus } from '@parley/domain/bulk-add';
import { routeTo } from '@parley/domain/routes';
import { useMutation } from '@tanstack/react-query';
import { type ChangeEvent, type ReactNode, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { pageRows } from '../../../components/list-logic';
import { PageHeading } from '../../../components/page-heading';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { TextField } from '../../../components/text-field';
import { useIsMobile } from '../../../components/use-is-mobile';
import { fieldErrorTexts, serverMessage } from '../../../lib/api-client';
import { downloadText } from '../../../lib/download';
import { BULK_TEXT } from '../../../lib/ui-text';
import {
  type BulkKind,
  type BulkResult,
  type BulkRows,
  bulkAdd,
  type FamilyResultRow,
  invalidateDirectory,
  type TeacherResultRow,
} from '../api';
import { TEMPLATE_FILENAMES, templateCsv } from '../bulk-templates';

const STATUS_COLORS: Record<RowStatus, 'success' | 'info' | 'default' | 'error'> = {
  new: 'success',
  'add-role': 'info',
  exists: 'default',
  error: 'error',
};

const PREVIEW_PAGE_SIZES = [25, 50, 100];

type AnyRow = TeacherResultRow | FamilyResultRow;

export type PreviewCounts = Record<RowStatus, number> & { rows: number; addable: number };

/** How many rows of each status, and how many would be written (new people and new roles). */
export function previewCounts(rows: ReadonlyArray<{ status: RowStatus }>): PreviewCounts {
  const counts: PreviewCounts = { rows: rows.length, new: 0, 'add-role': 0, exists: 0, error: 0, addable: 0 };
  for (const row of rows) counts[row.status] += 1;
  counts.addable = counts.new + counts['add-role'];
  return counts;
}

const personName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim();

function StatusChip({ status }: { status: RowStatus }) {
  return <Chip size="small" label={BULK_TEXT.statuses[status]} color={STATUS_COLORS[status]} />;
}

function Problems({ errors }: { errors: string[] }) {
  if (errors.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2, color: 'error.main' }}>
      {errors.map((error) => (
        <li key={error}>
          <Typography variant="body2">{error}</Typography>
        </li>
      ))}
    </Box>
  );
}

function Person({ person }: { person: { firstName: string; lastName: string; email: string } }) {
  return (
    <>
      <Typography variant="body2">{personName(person) || '—'}</Typography>
      <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {person.email}
      </Typography>
    </>
  );
}

/** Phones: one card per row instead of a table too wide for the screen. */
function PreviewCards({ rows }: { rows: AnyRow[] }) {
  return (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {rows.map((row) => (
        <Box
          component="li"
          key={row.line}
          sx={{
            border: 1,
            borderColor: row.status === 'error' ? 'error.main' : 'divider',
            borderRadius: 1,
            p: 1.5,
          }}
        >
          <Stack
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 0.5 }}
          >
            <Typography variant="caption" color="text.secondary">
              {`${BULK_TEXT.columns.line} ${row.line}`}
            </Typography>
            <StatusChip status={row.status} />
          </Stack>
          {'student' in row ? (
            <>
              <Person person={row.student} />
              {row.parents.map((parent) => (
                <Box
                  key={parent.email || personName(parent)}
                  sx={{ mt: 0.5, pl: 1.5, borderLeft: 2, borderColor: 'divider' }}
                >
                  <Person person={parent} />
                </Box>
              ))}
            </>
          ) : (
            <>
              <Person
                person={{ ...row, firstName: row.title ? `${row.title} ${row.firstName}` : row.firstName }}
              />
              <Typography variant="body2" sx={{ mt: 0.5 }}>
                {`${BULK_TEXT.columns.subjects}: ${row.subjects.join(', ') || '—'}`}
              </Typography>
            </>
          )}
          <Problems errors={row.errors} />
        </Box>
      ))}
    </Stack>
  );
}

function PreviewTable({ kind, rows }: { kind: BulkKind; rows: AnyRow[] }) {
  const isMobile = useIsMobile();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(PREVIEW_PAGE_SIZES[0] ?? 25);
  const shown = pageRows(rows, page, pageSize);
  const headers: ReactNode[] =
    kind === 'teachers'
      ? [
          BULK_TEXT.columns.line,
          BULK_TEXT.columns.name,
          BULK_TEXT.columns.subjects,
          BULK_TEXT.columns.status,
          BULK_TEXT.columns.problems,
        ]
      : [
          BULK_TEXT.columns.line,
          BULK_TEXT.columns.student,
          BULK_TEXT.columns.parents,
          BULK_TEXT.columns.status,
          BULK_TEXT.columns.problems,
        ];
  return (
    <>
      {isMobile ? (
        <PreviewCards rows={shown} />
      ) : (
        <TableContainer>
          <Table size="small" aria-label={BULK_TEXT.preview}>
            <TableHead>
              <TableRow>
                {headers.map((header, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: fixed header cells
                  <TableCell key={index} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                    {header}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((row) => (
                <TableRow
                  key={row.line}
                  sx={row.status === 'error' ? { bgcolor: 'action.hover' } : undefined}
                >
                  <TableCell sx={{ width: 56 }}>{row.line}</TableCell>
                  {'student' in row ? (
                    <>
                      <TableCell>
                        <Person person={row.student} />
                      </TableCell>
                      <TableCell>
                        <Stack spacing={0.5}>
                          {row.parents.map((parent) => (
                            <div key={parent.email || personName(parent)}>
                              <Person person={parent} />
                            </div>
                          ))}
                        </Stack>
                      </TableCell>
                    </>
                  ) : (
                    <>
                      <TableCell>
                        <Person
                          person={{
                            ...row,
                            firstName: row.title ? `${row.title} ${row.firstName}` : row.firstName,
                          }}
                        />
                      </TableCell>
                      <TableCell>{row.subjects.join(', ') || '—'}</TableCell>
                    </>
                  )}
                  <TableCell sx={{ width: 110 }}>
                    <StatusChip status={row.status} />
                  </TableCell>
                  <TableCell>
                    <Problems errors={row.errors} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {rows.length > (PREVIEW_PAGE_SIZES[0] ?? 25) ? (
        <TablePagination
          component="div"
          count={rows.length}
          page={Math.min(page, Math.max(0, Math.ceil(rows.length / pageSize) - 1))}
          rowsPerPage={pageSize}
          rowsPerPageOptions={PREVIEW_PAGE_SIZES}
          onPageChange={(_event, next) => setPage(next)}
          onRowsPerPageChange={(event) => {
            setPageSize(Number(event.target.value));
            setPage(0);
          }}
        />
      ) : null}
    </>
  );
}

/**
 * /teachers/bulkadd and /students/bulkadd: paste or upload a CSV, preview every row with its status and
 * the reason it is refused, then add the good rows in one go (optionally sending the invitations).
 */
export function BulkAddPage({ kind }: { kind: BulkKind }) {
  const showSnackbar = useSnackbar();
  const [csv, setCsv] = useState('');
  const [previewed, setPreviewed] = useState<{ csv: string; result: BulkResult<BulkRows[BulkKind]> } | null>(
    null,
  );
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [sendInvitations, setSendInvitations] = useState(true);
  const [fileError, setFileError] = useState<string | null>(null);

  const preview = useMutation({
    mutationFn: (text: string) => bulkAdd(kind, text),
    onSuccess: (result, text) => {
      setPreviewed({ csv: text, result });
      setErrorsOnly(false);
    },
  });
  const confirm = useMutation({
    mutationFn: (text: string) => bulkAdd(kind, text, { sendInvite: sendInvitations }),
    onSuccess: (result) => {
      void invalidateDirectory();
      showSnackbar(BULK_TEXT.resultSnackbar(result.summary.created), 'success');
    },
    onError: (error) => showSnackbar(serverMessage(error, BULK_TEXT.confirmFailed), 'error'),
  });

  const counts = useMemo(() => previewCounts(previewed?.result.rows ?? []), [previewed]);
  const rows = useMemo(() => {
    const all = (previewed?.result.rows ?? []) as AnyRow[];
    // Rows with errors first, so they are seen before anything is added.
    const errors = all.filter((row) => row.status === 'error');
    return errorsOnly ? errors : [...errors, ...all.filter((row) => row.status !== 'error')];
  }, [previewed, errorsOnly]);
  const stale = previewed !== null && previewed.csv !== csv;
  const csvError = preview.isError
    ? (fieldErrorTexts(preview.error)[0] ?? serverMessage(preview.error, BULK_TEXT.previewFailed))
    : (fileError ?? undefined);

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be picked again after an edit
    if (!file) return;
    try {
      setCsv(await file.text());
      setFileError(null);
      preview.reset();
    } catch {
      setFileError(BULK_TEXT.readFailed);
    }
  };

  const startOver = () => {
    setCsv('');
    setPreviewed(null);
    preview.reset();
    confirm.reset();
  };

  const noun = BULK_TEXT.nouns[kind];
  const listRoute = kind === 'teachers' ? routeTo('teachers') : routeTo('students');

  if (confirm.data) {
    return (
      <>
        <PageHeading>{BULK_TEXT.titles[kind]}</PageHeading>
        <Alert severity="success" sx={{ mb: 2 }}>
          <AlertTitle>{BULK_TEXT.resultTitle}</AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {BULK_TEXT.resultLines(confirm.data.summary).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </Box>
        </Alert>
        <Stack direction="row" spacing={1}>
          <Button variant="contained" component={RouterLink} to={listRoute}>
            {BULK_TEXT.backTo[kind]}
          </Button>
          <Button onClick={startOver}>{BULK_TEXT.another}</Button>
        </Stack>
      </>
    );
  }

  return (
    <>
      <PageHeading>{BULK_TEXT.titles[kind]}</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        {BULK_TEXT.intro[kind]}
      </Typography>
      <Stack spacing={2}>
        <SectionCard title={BULK_TEXT.csv}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
              {BULK_TEXT.upload}
              <input
                type="file"
                accept=".csv,text/csv,text/plain"
                hidden
                onChange={(event) => void readFile(event)}
              />
            </Button>
            <Button
              startIcon={<DownloadIcon />}
              onClick={() => downloadText(TEMPLATE_FILENAMES[kind], templateCsv(kind))}
            >
              {BULK_TEXT.template}
            </Button>
            {csv ? <Button onClick={startOver}>{BULK_TEXT.clear}</Button> : null}
          </Stack>
          <TextField
            label={BULK_TEXT.csvField}
            multiline
            minRows={6}
            maxRows={16}
            value={csv}
            onChange={(event) => {
              setCsv(event.target.value);
              setFileError(null);
              if (preview.isError) preview.reset();
            }}
            placeholder={templateCsv(kind).split('\r\n').slice(0, 2).join('\n')}
            error={Boolean(csvError)}
            helperText={csvError ?? BULK_TEXT.csvHelp}
            slotProps={{
              htmlInput: {
                spellCheck: false,
                style: { fontFamily: 'ui-monospace, monospace', fontSize: 13 },
              },
            }}
          />
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
            <Button
              variant="contained"
              startIcon={<PreviewIcon />}
              disabled={!csv.trim() || preview.isPending}
              onClick={() => preview.mutate(csv)}
            >
              {BULK_TEXT.preview}
            </Button>
          </Box>
        </SectionCard>

        {previewed ? (
          <SectionCard title={BULK_TEXT.preview}>
            <Stack
              direction="row"
              spacing={1}
              useFlexGap
              sx={{ flexWrap: 'wrap', mb: 1 }}
              aria-label="Counts"
            >
              <Chip label={`${BULK_TEXT.counts.rows}: ${counts.rows}`} variant="outlined" />
              <Chip label={`${BULK_TEXT.counts.new}: ${counts.new}`} color="success" variant="outlined" />
              <Chip
                label={`${BULK_TEXT.counts.addRole}: ${counts['add-role']}`}
                color="info"
                variant="outlined"
              />
              <Chip label={`${BULK_TEXT.counts.exists}: ${counts.exists}`} variant="outlined" />
              <Chip
                label={`${BULK_TEXT.counts.error}: ${counts.error}`}
                color={counts.error ? 'error' : 'default'}
                variant="outlined"
              />
            </Stack>
            {counts.error ? (
              <Alert severity="warning" sx={{ mb: 1 }}>
                {BULK_TEXT.errorsSkipped(counts.error)}
              </Alert>
            ) : null}
            {counts.error ? (
              <FormControlLabel
                control={
                  <Switch checked={errorsOnly} onChange={(event) => setErrorsOnly(event.target.checked)} />
                }
                label={BULK_TEXT.errorsOnly}
              />
            ) : null}
            <PreviewTable key={`${errorsOnly}`} kind={kind} rows={rows} />
            {stale ? (
              <Alert severity="warning" sx={{ mt: 2 }}>
                {BULK_TEXT.previewStale}
              </Alert>
            ) : null}
            {counts.addable === 0 ? (
              <Alert severity="info" sx={{ mt: 2 }}>
                {BULK_TEXT.nothingToAdd}
              </Alert>
            ) : null}
            <Stack
              direction={{ xs: 'column', md: 'row' }}
              spacing={1}
              sx={{ mt: 2, alignItems: { xs: 'stretch', md: 'center' }, justifyContent: 'space-between' }}
            >
              <Box>
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={sendInvitations}
                      onChange={(event) => setSendInvitations(event.target.checked)}
                    />
                  }
                  label={BULK_TEXT.sendInvitations}
                />
                <FormHelperText sx={{ mt: -0.5, ml: 4 }}>{BULK_TEXT.sendInvitationsHelp}</FormHelperText>
              </Box>
              <Button
                variant="contained"
                size="large"
                disabled={counts.addable === 0 || stale || confirm.isPending}
                onClick={() => confirm.mutate(previewed.csv)}
              >
                {BULK_TEXT.add(counts.addable, noun)}
              </Button>
            </Stack>
          </SectionCard>
        ) : null}
      </Stack>
    </>
  );
}
