import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver whose schema loads with the form's first check rather than with its page: the login
 * page is drawn and usable before zod (some 23 KB gzipped) arrives (decision 019). A form that shows
 * whether it is valid checks once on mount, so the schema follows the page at once.
 */
export function lazyResolver<Input extends FieldValues, Context, Output>(
  load: () => Promise<Resolver<Input, Context, Output>>,
): Resolver<Input, Context, Output> {
  let loading: Promise<Resolver<Input, Context, Output>> | undefined;
  return async (values, context, options) => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined; // offline for a moment: the next check tries again
      throw error;
    });
    return (await loading)(values, context, options);
  };
}
