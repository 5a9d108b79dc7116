import { readFileSync } from 'node:fs';
import { type BillingCatalog, type BillingPlan, billingCatalog } from '@parley/domain/billing';
import type { Config } from '../../config';
import shipped from './catalog.json' with { type: 'json' };

// Plans, prices and the seller are configuration (decision 021): the catalogue shipped with Parley, or an
// operator's own file (BILLING_CATALOG_FILE), checked once at first use.
const loaded = new Map<string, BillingCatalog>();

export function catalogOf(config: Pick<Config, 'billingCatalogFile'>): BillingCatalog {
  const key = config.billingCatalogFile ?? '';
  let catalog = loaded.get(key);
  if (!catalog) {
    const raw: unknown = config.billingCatalogFile
      ? JSON.parse(readFileSync(config.billingCatalogFile, 'utf8'))
      : shipped;
    const parsed = billingCatalog.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`Invalid billing catalogue: ${issue?.path.join('.')} ${issue?.message ?? ''}`.trim());
    }
    catalog = parsed.data;
    loaded.set(key, catalog);
  }
  return catalog;
}

export const findPlan = (catalog: BillingCatalog, planId: string | null): BillingPlan | undefined =>
  catalog.plans.find((plan) => plan.id === planId);
