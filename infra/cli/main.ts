/** `tm` — one file per command; each exports `run(args) → exit code`. */
const COMMANDS: Record<string, () => Promise<{ run(args: string[]): Promise<number> }>> = {
  validate: () => import('./validate.js'),
  plan: () => import('./plan.js'),
  local: () => import('./local.js'),
  status: () => import('./status.js'),
};

const USAGE = `usage: tm <command> [options]

  tm validate FILE                          check a definitions file; one line per profile
  tm plan FILE [--status p/e=STATUS …] [--json]
                                            the Route 53 record sets for those statuses (dry run)
  tm local [FILE] [--dns-port 5353] [--time-scale 1] [--regions a,b,c]
                                            run the whole system on this machine
  tm status [--profile NAME] [--json]       monitor status of every profile and endpoint
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  const load = COMMANDS[command];
  if (load === undefined) {
    process.stderr.write(`tm: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  return (await load()).run(args);
}
