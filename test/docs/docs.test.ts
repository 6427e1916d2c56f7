/**
 * The docs stand alone: every relative link in README.md and docs/ resolves (the file, and
 * the heading when the link names one), and no page leans on a document a reader of this
 * repository does not have.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(): string[] {
  const files = [join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.md')) files.push(path);
    }
  };
  walk(join(ROOT, 'docs'));
  return files;
}

/** The text outside fenced code blocks and inline code, where links and citations live. */
function prose(text: string): string {
  const blank = (block: string) => block.replace(/[^\n]/g, '');
  return text.replace(/^```[\s\S]*?^```/gm, blank).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Link {
  readonly file: string;
  readonly target: string;
}

function relativeLinks(): Link[] {
  const links: Link[] = [];
  for (const file of markdownFiles()) {
    const text = prose(readFileSync(file, 'utf8'));
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      links.push({ file, target });
    }
  }
  return links;
}

function broken(link: Link): string | undefined {
  const [path = '', anchor] = link.target.split('#');
  const resolved = path === '' ? link.file : join(dirname(link.file), decodeURIComponent(path));
  const where = `${relative(ROOT, link.file)}: (${link.target})`;
  if (!existsSync(resolved)) return `${where} — no such file`;
  if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
    return `${where} — no heading #${anchor}`;
  return undefined;
}

describe('the docs stand alone', () => {
  it('finds the links it checks (the checker itself works)', () => {
    // Act
    const links = relativeLinks();

    // Assess
    expect(links.length).toBeGreaterThan(10);
    expect(broken({ file: join(ROOT, 'README.md'), target: 'docs/cli.md#commands' })).toBeUndefined();
    expect(broken({ file: join(ROOT, 'README.md'), target: 'docs/nothing-here.md' })).toMatch(/no such file/);
    expect(broken({ file: join(ROOT, 'README.md'), target: 'docs/cli.md#no-such-heading' })).toMatch(
      /no heading/,
    );
  });

  it('every relative link in README.md and docs/ resolves, heading included', () => {
    // Act
    const problems = relativeLinks()
      .map(broken)
      .filter((problem) => problem !== undefined);

    // Assess
    expect(problems).toEqual([]);
  });

  it('no page cites a document that is not in the repository (a spec, a design, the seeds, issue numbers)', () => {
    // Prepare
    const citations = [
      /\bSPEC\b/,
      /\bDESIGN\b(?!_)/,
      /\bthe seeds?\b/i,
      /\bseeds'/i,
      /\bissues? #?\d+/i,
      /\(#\d+\)/,
    ];

    // Act
    const found: string[] = [];
    for (const file of markdownFiles()) {
      for (const [index, line] of prose(readFileSync(file, 'utf8')).split('\n').entries()) {
        if (citations.some((pattern) => pattern.test(line)))
          found.push(`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
      }
    }

    // Assess
    expect(found).toEqual([]);
  });
});
