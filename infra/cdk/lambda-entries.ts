/**
 * Every Lambda entry file of the deployment, by its path from the repository root. The
 * package build (`infra/package/build.mjs`) bundles each of them ahead of time, so an app that
 * installs the package synthesizes without esbuild or this repository's lockfile; a function
 * whose entry is not listed here does not type-check.
 */
export const LAMBDA_ENTRIES = [
  'functions/config-writer/handler.ts',
  'functions/evaluator/handler.ts',
  'functions/evaluator/tick.ts',
  'functions/probe/handler.ts',
  'functions/probe/tick.ts',
] as const;

export type LambdaEntry = (typeof LAMBDA_ENTRIES)[number];

/** Where the package build puts an entry's bundle, relative to `dist/`. */
export function bundleDirOf(entry: LambdaEntry): string {
  return `lambda/${entry.replace(/\.ts$/, '')}`;
}
