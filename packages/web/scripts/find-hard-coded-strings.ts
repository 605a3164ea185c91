/**
 * Finds user-facing text written straight into the console's components instead of the message
 * catalogues (`src/i18n/messages/`), so that no English slips past the zh-CN console (issue 35).
 * It parses each `.tsx` file with the TypeScript compiler and reports:
 *
 * - JSX text with a letter in it (`<p>Loading…</p>`);
 * - a string or template literal with a letter given as a JSX child (`{busy ? 'Saving…' : 'Save'}`);
 * - the same in a prop that people read: `aria-label`, `title`, `placeholder`, `alt`, `label`,
 *   `caption`, `hint`, `empty`, `submitLabel`, `problemTitle` (`label="Email"`), or as a table
 *   column's `header`.
 *
 * Strings given to `t(…)` or `<FormattedMessage id=…>` are ids, not text, and are not reported.
 * A line may opt out with a comment holding `i18n-exempt:` and the reason (a product name, a
 * keyboard key). Run by `test/hard-coded-strings.test.ts`; by hand: `npx tsx scripts/find-hard-coded-strings.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One piece of text found outside the catalogues. */
export interface HardCodedString {
  file: string;
  line: number;
  text: string;
}

/** Props whose value a person reads or hears. */
const readableProps = new Set([
  'aria-label',
  'title',
  'placeholder',
  'alt',
  'label',
  'caption',
  'hint',
  'empty',
  'submitLabel',
  'problemTitle',
]);

/** Text that reads the same in every language. */
const sameInEveryLanguage = new Set(['AgentLoom']);

const hasLetter = (text: string) => /\p{L}/u.test(text) && !sameInEveryLanguage.has(text.trim());

/** The literal texts an expression may evaluate to directly (through `?:`, `??`, `||`, `&&` and parentheses). */
function literalTexts(expression: ts.Expression): ts.Node[] {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [expression];
  if (ts.isTemplateExpression(expression)) return [expression];
  if (ts.isParenthesizedExpression(expression)) return literalTexts(expression.expression);
  if (ts.isConditionalExpression(expression))
    return [...literalTexts(expression.whenTrue), ...literalTexts(expression.whenFalse)];
  if (ts.isBinaryExpression(expression)) {
    const operator = expression.operatorToken.kind;
    if (
      operator === ts.SyntaxKind.QuestionQuestionToken ||
      operator === ts.SyntaxKind.BarBarToken ||
      operator === ts.SyntaxKind.AmpersandAmpersandToken
    )
      return [...literalTexts(expression.left), ...literalTexts(expression.right)];
  }
  return [];
}

/** The letters a literal shows: a template's fixed parts only (its substitutions are values). */
function shownText(node: ts.Node): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
  return '';
}

/** Every hard-coded user-facing string of one source file. */
export function findInSource(file: string, source: string): HardCodedString[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const lines = source.split('\n');
  const exempt = (line: number) => /i18n-exempt:/.test(lines[line] ?? '') || /i18n-exempt:/.test(lines[line - 1] ?? '');
  const found: HardCodedString[] = [];
  const report = (node: ts.Node, text: string) => {
    const line = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
    if (!exempt(line)) found.push({ file, line: line + 1, text: text.trim().replace(/\s+/g, ' ') });
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasLetter(node.text)) report(node, node.text);
    if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      for (const literal of literalTexts(node.expression)) if (hasLetter(shownText(literal))) report(literal, shownText(literal));
    }
    // A table column's header (`{ header: 'Name', cell: … }`): read like a prop.
    if (ts.isPropertyAssignment(node) && node.name.getText(sourceFile) === 'header')
      for (const literal of literalTexts(node.initializer))
        if (hasLetter(shownText(literal))) report(literal, shownText(literal));
    if (ts.isJsxAttribute(node) && readableProps.has(node.name.getText(sourceFile)) && node.initializer) {
      const value = node.initializer;
      if (ts.isStringLiteral(value) && hasLetter(value.text)) report(value, value.text);
      if (ts.isJsxExpression(value) && value.expression)
        for (const literal of literalTexts(value.expression))
          if (hasLetter(shownText(literal))) report(literal, shownText(literal));
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** The console's component files (`.tsx` under `src/`), relative to the package. */
export function componentFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.tsx')) files.push(path.relative(root, full));
    }
  };
  walk(path.join(root, 'src'));
  return files.sort();
}

/** Every hard-coded string of the console's components. */
export function findHardCodedStrings(root: string): HardCodedString[] {
  return componentFiles(root).flatMap((file) => findInSource(file, readFileSync(path.join(root, file), 'utf8')));
}

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const found = findHardCodedStrings(packageRoot);
  for (const item of found) console.log(`${item.file}:${item.line}  ${item.text}`);
  console.log(`${found.length} hard-coded user-facing string(s).`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
