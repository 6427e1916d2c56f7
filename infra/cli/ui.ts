/**
 * `tm ui [--port N] [--dns-port N | --table NAME --region R]` — serves the live status page
 * on 127.0.0.1 for the running local stack (DNS answers asked of its DNS server) or for a
 * deployment's table (the records the evaluator published), until Ctrl-C.
 */
import type { Io } from './io.js';
import { connectOrSay, type StackOptions } from './stack.js';
import { watchForStop } from './stop-request.js';
import { readSnapshot } from '../ui/snapshot.js';
import { startStatusPage } from '../ui/server.js';

export interface UiOptions extends StackOptions {
  /** @default 0 (a free port) */
  readonly port?: number;
}

export async function run(_args: [], options: UiOptions, io: Io): Promise<number> {
  const stack = connectOrSay(options, 'ui', io);
  if (stack === undefined) return 1;
  const stop = watchForStop();
  let page;
  try {
    page = await startStatusPage({
      port: options.port ?? 0,
      read: () => readSnapshot(stack),
      onError: (error) => io.stderr.write(`tm ui: ${(error as Error).message ?? error}\n`),
    });
  } catch (error) {
    stack.client.destroy();
    stop.dispose();
    io.stderr.write(`tm ui: cannot listen on 127.0.0.1:${options.port ?? 0}: ${(error as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`status page  ${page.endpoint}/  (${stack.description}; Ctrl-C stops)\n`);
  const { reason } = await stop.requested;
  io.stdout.write(`stopping (${reason})…\n`);
  await page.stop();
  stack.client.destroy();
  stop.dispose();
  return 0;
}
