/** Where a running `tm local` says how to reach it, so `tm status` finds it without flags. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LocalStackPointer {
  readonly pid: number;
  readonly dynamodbEndpoint: string;
  readonly tableName: string;
  readonly dnsPort: number;
}

export const stateFilePath = () => join(process.env.TM_STATE_DIR ?? tmpdir(), 'traffic-manager-local.json');

export function writeStateFile(pointer: LocalStackPointer): void {
  writeFileSync(stateFilePath(), JSON.stringify(pointer));
}

export function removeStateFile(): void {
  rmSync(stateFilePath(), { force: true });
}

/** The running local stack, if its process is still alive. */
export function readStateFile(): LocalStackPointer | undefined {
  try {
    const pointer = JSON.parse(readFileSync(stateFilePath(), 'utf8')) as LocalStackPointer;
    process.kill(pointer.pid, 0);
    return pointer;
  } catch {
    return undefined;
  }
}
