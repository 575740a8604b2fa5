import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root: the docs tests read its files as a newcomer's clone has them. */
export const REPO_ROOT = join(__dirname, '..', '..');

/** Folders that are never part of the repository's own text (installed, built or run-time files). */
const NOT_OURS = new Set(['node_modules', 'dist', 'data', 'coverage', '.git']);

/**
 * Every file of the repository, relative to its root: git's tracked files and the untracked ones it does not ignore
 * (so a new file is checked before it is committed). Without git (an exported tree), every file outside NOT_OURS.
 */
export function repositoryFiles(): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' });
    return [...new Set(out.split('\0').filter((f) => f !== '' && !f.split('/').some((part) => NOT_OURS.has(part))))]
      .filter((f) => existsSync(join(REPO_ROOT, f)) && statSync(join(REPO_ROOT, f)).isFile())
      .sort();
  } catch {
    return walk(REPO_ROOT).sort();
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_OURS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [relative(REPO_ROOT, path).split('\\').join('/')];
  });
}

/** The lines of a Markdown text outside fenced code blocks, with inline code spans blanked out. */
export function proseLines(text: string): { line: string; number: number }[] {
  const lines: { line: string; number: number }[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((raw, index) => {
    const opener = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (opener) {
      if (fence === null) fence = opener[1][0];
      else if (opener[1][0] === fence) fence = null;
      return;
    }
    if (fence === null) lines.push({ line: raw.replace(/`+[^`]*`+/g, (span) => ' '.repeat(span.length)), number: index + 1 });
  });
  return lines;
}

/** Every Markdown link and image target in the prose: `[text](target)`, with its line number. */
export function linkTargets(text: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  for (const { line, number } of proseLines(text)) {
    for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: match[1], line: number });
  }
  return found;
}

/**
 * The anchors GitHub gives the headings of a Markdown text: the heading's text (links and code shown as their
 * text), lower case, without punctuation, spaces made hyphens; a repeated heading gets -1, -2, ….
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const raw of text.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (opener) {
      if (fence === null) fence = opener[1][0];
      else if (opener[1][0] === fence) fence = null;
      continue;
    }
    const heading = fence === null ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw) : null;
    if (!heading) continue;
    const base = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
