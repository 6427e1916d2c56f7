/**
 * `tm import azure FILE... [-o OUT.yaml|.json|.ts] --zone ZONE --hosted-zone-id ID
 * [--target RESOURCE_ID=HOST ...]`: reads ARM templates, parameters files and `az` JSON,
 * writes a definitions file that `tm validate` accepts (YAML on stdout without `-o`), and
 * reports on stderr every field Route 53 cannot carry as it is. Exit 1 with every problem
 * (nothing written) when the files cannot be imported.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { dump } from 'js-yaml';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { importAzure } from '../../shared/azure/import.js';
import type { AzureDocument } from '../../shared/azure/documents.js';
import { INPUT_BOUNDS } from '../../shared/profile/defaults.js';
import { normalizeDnsName } from '../../shared/profile/names.js';
import { UsageError } from './errors.js';
import type { Io } from './io.js';

export interface ImportAzureOptions {
  readonly output?: string;
  readonly zone: string;
  readonly hostedZoneId: string;
  readonly target?: readonly string[];
}

const FORMATS: Readonly<Record<string, 'yaml' | 'json' | 'ts'>> = {
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.json': 'json',
  '.ts': 'ts',
};

export async function run(files: string[], options: ImportAzureOptions, io: Io): Promise<number> {
  const format = options.output === undefined ? 'yaml' : FORMATS[extname(options.output).toLowerCase()];
  if (format === undefined)
    throw new UsageError(`-o ${options.output ?? ''}: must end in .yaml, .yml, .json or .ts`);
  const targets = targetsOf(options.target ?? []);
  const documents: AzureDocument[] = [];
  for (const file of files) {
    const document = await readDocument(file);
    if (typeof document === 'string') {
      io.stderr.write(`tm import azure: ${file}: ${document}\n`);
      return 1;
    }
    documents.push(document);
  }
  const result = importAzure(documents, {
    zoneName: normalizeDnsName(options.zone),
    hostedZoneId: options.hostedZoneId,
    targets,
  });
  if (!result.ok) {
    io.stderr.write(result.problems.map((line) => `${line}\n`).join(''));
    io.stderr.write(
      `tm import azure: ${result.problems.length} ${result.problems.length === 1 ? 'problem' : 'problems'}; nothing written\n`,
    );
    return 1;
  }
  const text = render(result.profiles, format);
  io.stderr.write(result.report.map((line) => `report: ${line}\n`).join(''));
  const endpoints = result.profiles.reduce(
    (sum, profile) => sum + (Array.isArray(profile.endpoints) ? profile.endpoints.length : 0),
    0,
  );
  const summary = `${result.profiles.length} ${result.profiles.length === 1 ? 'profile' : 'profiles'}, ${endpoints} ${endpoints === 1 ? 'endpoint' : 'endpoints'}; ${result.report.length} report ${result.report.length === 1 ? 'line' : 'lines'}`;
  if (options.output === undefined) {
    io.stdout.write(text);
    io.stderr.write(`tm import azure: ${summary}\n`);
  } else {
    await writeFile(options.output, text);
    io.stderr.write(`tm import azure: wrote ${options.output}: ${summary}\n`);
  }
  return 0;
}

/** `RESOURCE_ID=HOST` each; the id is everything before the last '='. */
function targetsOf(values: readonly string[]): Map<string, string> {
  const targets = new Map<string, string>();
  for (const value of values) {
    const at = value.lastIndexOf('=');
    const id = value.slice(0, at).trim();
    const host = value.slice(at + 1).trim();
    if (at < 0 || id === '' || host === '')
      throw new UsageError(`--target ${value}: must look like RESOURCE_ID=HOST`);
    if (targets.has(id.toLowerCase())) throw new UsageError(`--target ${id}: is given twice`);
    targets.set(id.toLowerCase(), host);
  }
  return targets;
}

/** The parsed JSON, or why it cannot be read. */
async function readDocument(file: string): Promise<AzureDocument | string> {
  try {
    const stats = await stat(file);
    if (!stats.isFile()) return 'is not a file';
    if (stats.size > INPUT_BOUNDS.fileBytes)
      return `is ${stats.size} bytes; an imported file may be at most ${INPUT_BOUNDS.fileBytes} bytes (${INPUT_BOUNDS.fileBytes / 1_048_576} MiB)`;
  } catch {
    return 'cannot be read (no such file?)';
  }
  const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  // ARM reads JSON with // and /* */ comments (published templates and parameters files carry them).
  const errors: ParseError[] = [];
  const content: unknown = parseJsonc(text, errors, { disallowComments: false, allowTrailingComma: false });
  const [first] = errors;
  if (first === undefined) return { file, content };
  const before = text.slice(0, first.offset).split('\n');
  return `is not JSON (ARM templates, parameters files and az output are; comments are allowed): ${printParseErrorCode(first.error)} at line ${before.length} column ${(before.at(-1)?.length ?? 0) + 1}`;
}

function render(profiles: readonly Record<string, unknown>[], format: 'yaml' | 'json' | 'ts'): string {
  const header = 'Imported from Azure Traffic Manager by tm import azure';
  switch (format) {
    case 'json':
      return `${JSON.stringify(profiles, null, 2)}\n`;
    case 'ts':
      return (
        `// ${header}.\n` +
        "import type { ProfileInput } from 'traffic-manager';\n\n" +
        `export default ${JSON.stringify(profiles, null, 2)} satisfies ProfileInput[];\n`
      );
    case 'yaml':
      return `# ${header}.\n${dump(profiles, { lineWidth: -1, noRefs: true })}`;
  }
}
