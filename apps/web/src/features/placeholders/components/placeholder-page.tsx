import { PageHeading } from '../../../components/page-heading';

/** Routes whose screens come in later issues show their heading only. */
export function PlaceholderPage({ title }: { title: string }) {
  return <PageHeading>{title}</PageHeading>;
}
