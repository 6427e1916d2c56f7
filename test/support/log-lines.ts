/** The JSON log lines `act` writes: to stdout/stderr (Powertools Logger) or through the global console. */
import { expect, vi } from 'vitest';

export async function logLinesOf(act: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const record = (chunk: unknown) => {
    written.push(String(chunk));
    return true;
  };
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(record),
    vi.spyOn(process.stderr, 'write').mockImplementation(record),
    ...(['log', 'info', 'warn', 'error'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void record(args.join(' '))),
    ),
  ];
  try {
    await act();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written
    .flatMap((chunk) => chunk.split('\n'))
    .flatMap((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return typeof parsed === 'object' && parsed !== null ? [parsed as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
}

/** What every Powertools Logger line carries. */
export const powertoolsLine = (level: string, message: string) => ({
  level,
  message,
  service: 'traffic-manager',
  timestamp: expect.any(String),
});
