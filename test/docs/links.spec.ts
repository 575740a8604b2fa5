import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { headingAnchors, linkTargets, REPO_ROOT, repositoryFiles } from './markdown';

/** The docs a newcomer reads: the README, everything in docs/ and every other Markdown file of the repository. */
const markdownFiles = repositoryFiles().filter((file) => file.endsWith('.md'));

/** A link that leaves the repository (a web page, an e-mail address). */
const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

/** Why `target`, written in `file`, does not resolve; null when it does. */
function brokenBecause(file: string, target: string): string | null {
  const [pathPart, anchor] = target.split('#', 2);
  const path = decodeURIComponent(pathPart);
  const resolved = path === '' ? file : normalize(join(path.startsWith('/') ? '' : dirname(file), path)).split('\\').join('/');
  if (resolved.startsWith('..')) return 'it points outside the repository';
  if (!existsSync(join(REPO_ROOT, resolved))) return `${resolved} does not exist`;
  if (anchor === undefined) return null;
  if (statSync(join(REPO_ROOT, resolved)).isDirectory() || !resolved.endsWith('.md')) return `#${anchor} is not a heading of a Markdown file`;
  return headingAnchors(read(resolved)).has(anchor) ? null : `${resolved} has no heading #${anchor}`;
}

describe('the docs in the repository', () => {
  it('include the README and the guides in docs/', () => {
    for (const doc of ['README.md', 'docs/README.md', 'docs/admin-api.md', 'docs/provider.md', 'docs/operations.md', 'docs/billing.md', 'docs/CONVENTIONS.md']) {
      expect(markdownFiles).toContain(doc);
    }
  });

  it('link only to files that exist, and to headings those files have', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdownFiles) {
      for (const { target, line } of linkTargets(read(file))) {
        if (isExternal(target)) continue;
        checked += 1;
        const reason = brokenBecause(file, target);
        if (reason) broken.push(`${file}:${line} (${target}): ${reason}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('never refer to a folder outside the repository', () => {
    // Spelt in pieces, so this file does not name what it looks for.
    const needles = ['shared' + '/', '..' + '/shared'].map((text) => Buffer.from(text));
    const offending = repositoryFiles()
      .filter((file) => file !== 'package-lock.json')
      .filter((file) => {
        const bytes = readFileSync(join(REPO_ROOT, file));
        return needles.some((needle) => bytes.includes(needle));
      });
    expect(offending).toEqual([]);
  });
});

describe('the link checker itself', () => {
  const doc = [
    '# Billing rules',
    '## Replicas and `SCHEDULER_ENABLED`',
    '## The [test clock](x.md)',
    '## Notes',
    '## Notes',
    '```sh',
    '# not a heading [nor](a-link.md)',
    '```',
    'See [ops](operations.md#metrics) and `[code](ignored.md)` and ![img](pic.png "title").',
  ].join('\n');

  it('derives the anchors GitHub gives headings', () => {
    expect([...headingAnchors(doc)]).toEqual(['billing-rules', 'replicas-and-scheduler_enabled', 'the-test-clock', 'notes', 'notes-1']);
  });

  it('finds links in prose only, outside code', () => {
    expect(linkTargets(doc).map((l) => l.target)).toEqual(['x.md', 'operations.md#metrics', 'pic.png']);
  });

  it('reports a missing file, a missing heading and a path that leaves the repository', () => {
    expect(brokenBecause('docs/billing.md', 'nothing-here.md')).toMatch(/does not exist/);
    expect(brokenBecause('docs/billing.md', 'operations.md#no-such-heading')).toMatch(/no heading/);
    expect(brokenBecause('docs/billing.md', '../../elsewhere/spec.md')).toMatch(/outside the repository/);
    expect(brokenBecause('docs/billing.md', '#exactly-once')).toBeNull();
  });
});
