import { zodResolver } from '@hookform/resolvers/zod';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type BillingView,
  billingDetailsRequest,
  type InvoiceSummary,
  invoiceAmounts,
  planBand,
  requestInvoiceRequest,
} from '@parley/domain/billing';
import type { z } from '@parley/domain/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormAlert } from '../../../components/form-alert';
import { FormTextField } from '../../../components/form-text-field';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { alertLines, applyFieldErrors } from '../../../lib/form-errors';
import { queryClient } from '../../../lib/query-client';
import {
  billingQuery,
  choosePlan,
  downloadInvoice,
  openPortal,
  requestInvoice,
  startCheckout,
  updateBillingDetails,
} from '../api';
import {
  dateLabel,
  enforcementText,
  invoiceState,
  money,
  openInvoice,
  outgrownNotice,
  severityOf,
  statusHeadline,
} from '../billing-text';

const store = (view: BillingView) => queryClient.setQueryData(billingQuery.queryKey, view);
const refresh = () => queryClient.invalidateQueries({ queryKey: billingQuery.queryKey });

/** /billing (admin): plan, usage, status, invoices, and what can be done about them. */
export function BillingPage() {
  const query = useQuery(billingQuery);
  return (
    <Box sx={{ maxWidth: 880 }}>
      <PageHeading>Billing</PageHeading>
      {query.data ? (
        <Billing view={query.data} />
      ) : query.isError ? (
        <Alert severity="error">
          {serverMessage(query.error, 'Could not load billing. Please try again.')}
        </Alert>
      ) : (
        <PageSkeleton />
      )}
    </Box>
  );
}

function Billing({ view }: { view: BillingView }) {
  const consequence = enforcementText(view);
  return (
    <Stack spacing={2}>
      <Alert severity={severityOf(view)} data-testid="billing-status">
        <AlertTitle>{statusHeadline(view)}</AlertTitle>
        {consequence}
      </Alert>
      <PlanCard view={view} />
      <PayCard view={view} />
      <DetailsCard view={view} />
      <InvoicesCard view={view} />
    </Stack>
  );
}

function PlanCard({ view }: { view: BillingView }) {
  const showSnackbar = useSnackbar();
  const [picked, setPicked] = useState(view.planId ?? view.suggestedPlanId ?? '');
  const mutation = useMutation({
    mutationFn: choosePlan,
    onSuccess: (saved) => {
      store(saved);
      showSnackbar('Plan saved.', 'success');
    },
  });
  const current = view.plans.find((plan) => plan.id === view.planId);
  const outgrown = outgrownNotice(view);
  const { fits } = outgrown ?? {};
  return (
    <SectionCard title={current ? `Plan: ${current.name}` : 'Choose a plan'}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {view.usage.students} student{view.usage.students === 1 ? '' : 's'}
        {current?.maxStudents ? ` of up to ${current.maxStudents}` : ''} · {view.usage.eventsThisYear} event
        {view.usage.eventsThisYear === 1 ? '' : 's'} this year
      </Typography>
      {outgrown && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="plan-outgrown">
          <AlertTitle>Your school has outgrown its plan</AlertTitle>
          {outgrown.text}
          {/* Under the text, not in the alert's action slot: a phone keeps the text its width. */}
          {fits && (
            <Box sx={{ mt: 1 }}>
              <Button
                variant="outlined"
                color="inherit"
                size="small"
                disabled={mutation.isPending}
                onClick={() => {
                  setPicked(fits.id);
                  mutation.mutate(fits.id);
                }}
              >
                Choose {fits.name}
              </Button>
            </Box>
          )}
        </Alert>
      )}
      <FormAlert lines={mutation.isError ? alertLines(mutation.error, [], 'Could not save the plan.') : []} />
      <RadioGroup aria-label="Plans" value={picked} onChange={(event) => setPicked(event.target.value)}>
        {view.plans.map((plan) => {
          const { totalMinor } = invoiceAmounts(plan.yearlyPriceMinor, view.taxRatePercent);
          return (
            <FormControlLabel
              key={plan.id}
              value={plan.id}
              control={<Radio />}
              label={
                <Box sx={{ py: 0.5 }}>
                  <Typography component="span" sx={{ fontWeight: 600 }}>
                    {plan.name}
                  </Typography>{' '}
                  {plan.id === view.suggestedPlanId && (
                    <Chip size="small" label="Fits your school" color="primary" variant="outlined" />
                  )}
                  <Typography variant="body2" color="text.secondary">
                    {planBand(plan)} · {money(plan.yearlyPriceMinor, view.currency)} a year
                    {view.taxRatePercent > 0
                      ? ` + ${view.taxRatePercent}% tax = ${money(totalMinor, view.currency)}`
                      : ''}
                  </Typography>
                </Box>
              }
            />
          );
        })}
      </RadioGroup>
      <Button
        variant="contained"
        sx={{ mt: 1 }}
        disabled={!picked || picked === view.planId || mutation.isPending}
        onClick={() => mutation.mutate(picked)}
      >
        {view.planId ? 'Change plan' : 'Choose plan'}
      </Button>
    </SectionCard>
  );
}

type PoInput = z.input<typeof requestInvoiceRequest>;
type PoOutput = z.output<typeof requestInvoiceRequest>;

function PayCard({ view }: { view: BillingView }) {
  const showSnackbar = useSnackbar();
  const waiting = openInvoice(view);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PoInput, unknown, PoOutput>({
    resolver: zodResolver(requestInvoiceRequest),
    defaultValues: { poNumber: '' },
  });
  const invoice = useMutation({
    mutationFn: (values: PoOutput) => requestInvoice(values.poNumber ?? null),
    onSuccess: async (issued) => {
      await refresh();
      showSnackbar(`Invoice ${issued.number} sent to your finance contact.`, 'success');
    },
    onError: (error) => applyFieldErrors(error, setError, ['poNumber']),
  });
  const card = useMutation({
    mutationFn: startCheckout,
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const portal = useMutation({
    mutationFn: openPortal,
    onSuccess: ({ url }) => window.location.assign(url),
  });
  if (!view.planId) {
    return (
      <SectionCard title="Pay">
        <Typography color="text.secondary">Choose a plan first: then pay by invoice or card.</Typography>
      </SectionCard>
    );
  }
  return (
    <SectionCard title="Pay">
      {waiting ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Invoice {waiting.number} for {money(waiting.totalMinor, waiting.currency)} is waiting for payment,
          due {dateLabel(waiting.dueAt)}. Pay it by bank transfer quoting its number.
        </Alert>
      ) : (
        <form noValidate onSubmit={handleSubmit((values) => invoice.mutate(values))}>
          {view.status.state === 'active' && (
            <Typography sx={{ mb: 1 }} color="text.secondary">
              Paid until {dateLabel(view.status.until)}. Paying now, by invoice or card, covers the year
              after.
            </Typography>
          )}
          <Typography sx={{ mb: 1 }}>
            Ask for an invoice to pay by bank transfer. It goes to your finance contact, with your purchase
            order number on it.
          </Typography>
          <FormAlert
            lines={
              invoice.isError ? alertLines(invoice.error, ['poNumber'], 'Could not issue the invoice.') : []
            }
          />
          {/* Side by side where there is room; the button wraps under the field on a phone. */}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
            <FormTextField
              label="Purchase order number (optional)"
              registration={register('poNumber')}
              error={errors.poNumber?.message}
              size="small"
              sx={{ flex: '1 1 260px', my: 0 }}
            />
            <Button
              type="submit"
              variant="contained"
              disabled={invoice.isPending}
              sx={{ whiteSpace: 'nowrap' }}
            >
              Ask for an invoice
            </Button>
          </Box>
        </form>
      )}
      {view.cardPayments && (
        <Box sx={{ mt: 2 }}>
          <FormAlert
            lines={[card, portal].flatMap((m) =>
              m.isError ? [serverMessage(m.error, 'Card payment failed.')] : [],
            )}
          />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            <Button variant="outlined" onClick={() => card.mutate()} disabled={card.isPending}>
              Pay by card
            </Button>
            {view.hasCardCustomer && (
              <Button onClick={() => portal.mutate()} disabled={portal.isPending}>
                Manage card and receipts
              </Button>
            )}
          </Box>
        </Box>
      )}
    </SectionCard>
  );
}

type DetailsInput = z.input<typeof billingDetailsRequest>;
type DetailsOutput = z.output<typeof billingDetailsRequest>;
const DETAIL_FIELDS = ['billingName', 'address', 'taxNumber', 'financeEmail'] as const;

function DetailsCard({ view }: { view: BillingView }) {
  const showSnackbar = useSnackbar();
  const toValues = (details: BillingView['details']): DetailsInput => ({
    billingName: details.billingName ?? '',
    address: details.address ?? '',
    taxNumber: details.taxNumber ?? '',
    financeEmail: details.financeEmail ?? '',
  });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<DetailsInput, unknown, DetailsOutput>({
    resolver: zodResolver(billingDetailsRequest),
    mode: 'onTouched',
    defaultValues: toValues(view.details),
  });
  const mutation = useMutation({
    mutationFn: updateBillingDetails,
    onSuccess: (saved) => {
      store(saved);
      reset(toValues(saved.details));
      showSnackbar('Billing details saved.', 'success');
    },
    onError: (error) => applyFieldErrors(error, setError, DETAIL_FIELDS),
  });
  return (
    <SectionCard title="Billing details">
      <form noValidate onSubmit={handleSubmit((values) => mutation.mutate(values))}>
        <FormAlert
          lines={
            mutation.isError ? alertLines(mutation.error, DETAIL_FIELDS, 'Could not save the details.') : []
          }
        />
        <FormTextField
          label="Name on invoices"
          registration={register('billingName')}
          error={errors.billingName?.message}
          helperText="The school's name if left empty"
          autoComplete="organization"
        />
        <FormTextField
          label="Billing address"
          registration={register('address')}
          error={errors.address?.message}
          multiline
          minRows={2}
          autoComplete="street-address"
        />
        <FormTextField
          label="VAT or tax number"
          registration={register('taxNumber')}
          error={errors.taxNumber?.message}
        />
        <FormTextField
          label="Finance contact email"
          type="email"
          registration={register('financeEmail')}
          error={errors.financeEmail?.message}
          helperText="Receives the invoices by email"
          autoComplete="email"
        />
        <Button type="submit" variant="contained" disabled={!isDirty || mutation.isPending} sx={{ mt: 1 }}>
          Save details
        </Button>
      </form>
    </SectionCard>
  );
}

function InvoicesCard({ view }: { view: BillingView }) {
  const [failed, setFailed] = useState<string | null>(null);
  const download = (invoice: InvoiceSummary) => {
    setFailed(null);
    downloadInvoice(invoice).catch((error: unknown) =>
      setFailed(serverMessage(error, 'Could not download the PDF.')),
    );
  };
  return (
    <SectionCard title="Invoices">
      {failed && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {failed}
        </Alert>
      )}
      {view.invoices.length === 0 ? (
        <Typography color="text.secondary">No invoices yet.</Typography>
      ) : (
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Invoices">
          {view.invoices.map((invoice) => {
            const state = invoiceState(invoice);
            return (
              <Box
                component="li"
                key={invoice.id}
                sx={{
                  display: 'flex',
                  flexWrap: 'wrap',
                  alignItems: 'center',
                  gap: 1,
                  py: 1,
                  borderBottom: 1,
                  borderColor: 'divider',
                }}
              >
                <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600 }}>
                    {invoice.kind === 'credit_note' ? 'Credit note' : 'Invoice'} {invoice.number}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {dateLabel(invoice.issuedAt)} · {invoice.planName}, {dateLabel(invoice.periodStart)} –{' '}
                    {dateLabel(invoice.periodEnd)}
                    {invoice.poNumber ? ` · PO ${invoice.poNumber}` : ''}
                  </Typography>
                </Box>
                <Typography sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {money(invoice.totalMinor, invoice.currency)}
                </Typography>
                <Chip size="small" label={state.label} color={state.color} variant="outlined" />
                <Button
                  size="small"
                  startIcon={<PictureAsPdfIcon />}
                  onClick={() => download(invoice)}
                  aria-label={`PDF of ${invoice.number}`}
                >
                  PDF
                </Button>
              </Box>
            );
          })}
        </Stack>
      )}
    </SectionCard>
  );
}
