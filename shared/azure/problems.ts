/** What `tm import azure` reports about a place in the files it read. */
export interface ImportProblem {
  /** The file and the place in it, e.g. `tm.json resources[0] "shop".properties.dnsConfig.relativeName`. */
  readonly where: string;
  readonly message: string;
}

export function formatProblem(problem: ImportProblem): string {
  return `${problem.where}: ${problem.message}`;
}
