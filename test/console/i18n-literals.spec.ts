import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * No text a person reads is written into the console's components: every JSX text and every string given to a prop
 * that is shown (a title, a label, an aria-label, a placeholder, a table header, a confirmation…) comes from the
 * catalogs (console/src/i18n), so the Russian console has no English left in it. Parsed with the TypeScript compiler;
 * a failure lists file:line and the text. Code samples inside <Code>/<code> are not prose and stay as they are.
 */
const ROOT = join(__dirname, '..', '..');
const SOURCES = join(ROOT, 'console', 'src');

/** Props and object properties whose strings reach the screen or a screen reader. */
const SHOWN = new Set(['title', 'label', 'aria-label', 'placeholder', 'description', 'caption', 'empty', 'alt', 'header', 'effect', 'confirmLabel', 'closeButtonLabel', 'done', 'cell', 'name']);
const CODE_ELEMENTS = new Set(['Code', 'code']);
const COMPARISON = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(path);
    return entry.name.endsWith('.tsx') ? [path] : [];
  });
}

const hasWords = (text: string) => /\p{L}/u.test(text);

function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  return null;
}

/** Whether a literal inside `root` is a value rather than text: a call's argument (a catalog key), a comparison, a type. */
function isValue(literal: ts.Node, root: ts.Node): boolean {
  for (let node: ts.Node = literal; node !== root && node.parent; node = node.parent) {
    const parent = node.parent;
    if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.some((a) => a === node)) return true;
    if (ts.isBinaryExpression(parent) && COMPARISON.has(parent.operatorToken.kind)) return true;
    if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return true;
    if (ts.isTypeNode(parent) || ts.isAsExpression(parent)) return true;
    if (ts.isPropertyAssignment(parent) && parent.initializer === node && !SHOWN.has(propertyName(parent.name) ?? '')) return true;
  }
  return false;
}

function propertyName(name: ts.PropertyName | ts.JsxAttributeName): string | null {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  if (ts.isJsxNamespacedName(name)) return `${name.namespace.text}:${name.name.text}`;
  return null;
}

function insideCode(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isJsxElement(n) && CODE_ELEMENTS.has(n.openingElement.tagName.getText())) return true;
  }
  return false;
}

/** Every hard-coded text of one file, as "file:line: text". */
function literalsIn(path: string): string[] {
  return literalsInText(path, readFileSync(path, 'utf8'));
}

function literalsInText(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${relative(ROOT, path)}:${line + 1}: ${text.trim().replace(/\s+/g, ' ')}`);
  };
  /** The texts of an expression that is shown, not descending into JSX (visited on its own) or into a catalog call. */
  const scan = (root: ts.Node) => {
    const visit = (node: ts.Node) => {
      if ((ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node))) return;
      const text = literalText(node);
      if (text !== null) {
        if (hasWords(text) && !isValue(node, root)) report(node, text);
        if (!ts.isTemplateExpression(node)) return;
      }
      ts.forEachChild(node, visit);
    };
    visit(root);
  };
  const walk = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text) && !insideCode(node)) report(node, node.text);
    else if (ts.isJsxAttribute(node) && SHOWN.has(propertyName(node.name) ?? '') && node.initializer) {
      if (ts.isStringLiteral(node.initializer)) {
        if (hasWords(node.initializer.text)) report(node, `${propertyName(node.name)}="${node.initializer.text}"`);
      } else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) scan(node.initializer.expression);
    } else if (ts.isPropertyAssignment(node) && SHOWN.has(propertyName(node.name) ?? '') && ts.isObjectLiteralExpression(node.parent)) scan(node.initializer);
    else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)) && !insideCode(node)) scan(node.expression);
    ts.forEachChild(node, walk);
  };
  walk(source);
  return found;
}

describe('the console', () => {
  const files = tsxFiles(SOURCES);

  it('has components to check', () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it('writes no text a person reads outside the catalogs', () => {
    expect(files.flatMap(literalsIn)).toEqual([]);
  });

  it('finds hard-coded text where there is some (the check itself works)', () => {
    const sample = join(SOURCES, 'pages', '__sample__.tsx');
    const text = `export const A = () => <Stack title="Plans" aria-label={x ? 'Open' : t('k')}>Dashboard<Code>subscription.canceled</Code>{n} items{ok ? 'yes' : '—'}</Stack>;
const C = [{ header: 'Status', cell: (c) => c.a ?? 'none', key: 'status' }];`;
    expect(literalsInText(sample, text)).toEqual([
      'console/src/pages/__sample__.tsx:1: title="Plans"',
      'console/src/pages/__sample__.tsx:1: Open',
      'console/src/pages/__sample__.tsx:1: Dashboard',
      'console/src/pages/__sample__.tsx:1: items',
      'console/src/pages/__sample__.tsx:1: yes',
      'console/src/pages/__sample__.tsx:2: Status',
      'console/src/pages/__sample__.tsx:2: none',
    ]);
  });
});
