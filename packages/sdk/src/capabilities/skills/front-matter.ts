/**
 * A strict reader for the YAML front matter of `SKILL.md` files. The Agent Skills format needs a
 * small part of YAML: a top-level mapping of scalars, one nested mapping of strings (`metadata`)
 * and a list (`allowed-tools`). This reader accepts exactly that part — plain, single- and
 * double-quoted scalars (also over several lines), `|` and `>` block scalars, block and flow
 * sequences, one level of nested mapping, comments — and refuses everything else (anchors,
 * aliases, tags, deeper nesting, a `: ` inside a plain scalar) with the line number, instead of
 * guessing. All scalars are read as strings.
 */

/** A value of the front matter. */
export type FrontMatterValue = string | null | string[] | { [key: string]: string };

/** The parsed front matter and the Markdown body after it. */
export interface FrontMatter {
  data: Record<string, FrontMatterValue>;
  body: string;
}

/** A front matter that could not be read, with the 1-based line of the problem. */
export class FrontMatterSyntaxError extends Error {
  readonly line: number;

  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'FrontMatterSyntaxError';
    this.line = line;
  }
}

interface Line {
  number: number;
  text: string;
  indent: number;
}

const keyPattern = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/;

/** Splits a `SKILL.md` text into front matter and body; throws `FrontMatterSyntaxError`. */
export function parseFrontMatter(text: string): FrontMatter {
  const all = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  if (all[0]?.trimEnd() !== '---')
    throw new FrontMatterSyntaxError(1, 'the file must start with a front matter block opened by "---"');
  const close = all.findIndex((line, index) => index > 0 && (line.trimEnd() === '---' || line.trimEnd() === '...'));
  if (close < 0) throw new FrontMatterSyntaxError(all.length, 'the front matter block is not closed by "---"');
  const lines: Line[] = all.slice(1, close).map((line, index) => {
    if (/^ *\t/.test(line)) throw new FrontMatterSyntaxError(index + 2, 'tabs cannot indent YAML');
    return { number: index + 2, text: line, indent: line.length - line.trimStart().length };
  });
  return { data: parseMapping(lines), body: all.slice(close + 1).join('\n') };
}

function isSkippable(line: Line): boolean {
  const trimmed = line.text.trim();
  return trimmed === '' || trimmed.startsWith('#');
}

function parseMapping(lines: Line[]): Record<string, FrontMatterValue> {
  const data: Record<string, FrontMatterValue> = {};
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as Line;
    if (isSkippable(line)) {
      index += 1;
      continue;
    }
    if (line.indent > 0) throw new FrontMatterSyntaxError(line.number, 'unexpected indentation');
    const match = keyPattern.exec(line.text.trimEnd());
    if (!match) throw new FrontMatterSyntaxError(line.number, 'expected "key: value"');
    const key = match[1] as string;
    if (Object.hasOwn(data, key)) throw new FrontMatterSyntaxError(line.number, `"${key}" appears twice`);
    let end = index + 1;
    while (end < lines.length && ((lines[end] as Line).indent > 0 || (lines[end] as Line).text.trim() === '')) end += 1;
    data[key] = parseValue(match[2]?.trim() ?? '', lines.slice(index + 1, end), line);
    index = end;
  }
  return data;
}

function parseValue(rest: string, nested: Line[], owner: Line): FrontMatterValue {
  const content = nested.filter((line) => !isSkippable(line));
  if (rest === '' || rest.startsWith('#')) {
    if (content.length === 0) return null;
    if ((content[0] as Line).text.trimStart().startsWith('- ')) return parseBlockSequence(content);
    return parseNestedMapping(content);
  }
  if (/^[|>]/.test(rest)) return parseBlockScalar(rest, nested, owner);
  if (rest.startsWith('[')) return parseFlowSequence(joinContinuation(rest, nested), owner);
  const quoted = rest.startsWith('"') || rest.startsWith("'");
  return parseScalar(joinContinuation(rest, quoted ? nested : content), owner.number);
}

/** A value continued on more-indented lines: quoted values keep going, plain values fold with spaces. */
function joinContinuation(rest: string, nested: Line[]): string {
  return [rest, ...nested.map((line) => line.text.trim())].filter((part, index) => index === 0 || part !== '').join(' ');
}

function parseBlockSequence(lines: Line[]): string[] {
  const indent = (lines[0] as Line).indent;
  return lines.map((line) => {
    const trimmed = line.text.trimStart();
    if (line.indent !== indent || !trimmed.startsWith('- ')) throw new FrontMatterSyntaxError(line.number, 'expected "- item"');
    const value = parseScalar(trimmed.slice(2).trim(), line.number);
    if (value === null) throw new FrontMatterSyntaxError(line.number, 'empty list item');
    return value;
  });
}

function parseNestedMapping(lines: Line[]): Record<string, string> {
  const indent = (lines[0] as Line).indent;
  const data: Record<string, string> = {};
  for (const line of lines) {
    if (line.indent !== indent) throw new FrontMatterSyntaxError(line.number, 'only one level of nesting is supported');
    const match = keyPattern.exec(line.text.trim());
    if (!match) throw new FrontMatterSyntaxError(line.number, 'expected "key: value"');
    const key = match[1] as string;
    if (Object.hasOwn(data, key)) throw new FrontMatterSyntaxError(line.number, `"${key}" appears twice`);
    data[key] = parseScalar(match[2]?.trim() ?? '', line.number) ?? '';
  }
  return data;
}

function parseBlockScalar(header: string, nested: Line[], owner: Line): string {
  const match = /^([|>])([+-]?)[ \t]*(#.*)?$/.exec(header);
  if (!match) throw new FrontMatterSyntaxError(owner.number, 'unsupported block scalar header');
  const literal = match[1] === '|';
  const chomping = match[2];
  const indent = Math.min(...nested.filter((line) => line.text.trim() !== '').map((line) => line.indent));
  const texts = nested.map((line) => (line.text.trim() === '' ? '' : line.text.slice(Number.isFinite(indent) ? indent : 0)));
  while (texts.length > 0 && texts.at(-1) === '' && chomping !== '+') texts.pop();
  let value = literal ? texts.join('\n') : foldLines(texts);
  if (chomping !== '-' && value !== '') value += '\n';
  return value;
}

function foldLines(texts: string[]): string {
  let result = '';
  let previousBlank = true;
  for (const text of texts) {
    if (text === '') {
      result += '\n';
      previousBlank = true;
    } else {
      result += previousBlank || text.startsWith(' ') ? text : ` ${text}`;
      previousBlank = false;
    }
  }
  return result;
}

function parseFlowSequence(text: string, owner: Line): string[] {
  if (!text.endsWith(']'))
    throw new FrontMatterSyntaxError(owner.number, 'a "[" list must end with "]" (comments are not allowed after it)');
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  const items: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const character of inner) {
    if (quote) {
      if (character === quote) quote = undefined;
      current += character;
    } else if (character === '"' || character === "'") {
      quote = character;
      current += character;
    } else if (character === ',') {
      items.push(current.trim());
      current = '';
    } else current += character;
  }
  items.push(current.trim());
  return items.map((item) => {
    if (/^[[{]/.test(item)) throw new FrontMatterSyntaxError(owner.number, 'nested lists are not supported');
    const value = parseScalar(item, owner.number);
    if (value === null) throw new FrontMatterSyntaxError(owner.number, 'empty list item');
    return value;
  });
}

/** Reads one scalar: quoted, or plain (with a trailing comment removed). `null` for empty, `~` or `null`. */
export function parseScalar(raw: string, lineNumber: number): string | null {
  if (raw.startsWith('"')) return closeQuoted(raw, '"', lineNumber, (body) => readDoubleQuoted(body, lineNumber));
  if (raw.startsWith("'")) return closeQuoted(raw, "'", lineNumber, (body) => body.replaceAll("''", "'"));
  const plain = raw.replace(/(^|[ \t])#.*$/, '').trim();
  if (plain === '' || plain === '~' || plain === 'null' || plain === 'Null' || plain === 'NULL') return null;
  if (/^[&*!%@`{|>]/.test(plain))
    throw new FrontMatterSyntaxError(lineNumber, `unsupported YAML value "${plain.slice(0, 20)}"; quote it`);
  if (/:([ \t]|$)/.test(plain))
    throw new FrontMatterSyntaxError(lineNumber, 'a plain value cannot contain ": "; put the value in quotes');
  return plain;
}

function closeQuoted(raw: string, quote: string, lineNumber: number, decode: (body: string) => string): string {
  let index = 1;
  while (index < raw.length) {
    if (quote === '"' && raw[index] === '\\') index += 2;
    else if (quote === "'" && raw[index] === "'" && raw[index + 1] === "'") index += 2;
    else if (raw[index] === quote) break;
    else index += 1;
  }
  if (index >= raw.length) throw new FrontMatterSyntaxError(lineNumber, 'unterminated quoted value');
  const after = raw.slice(index + 1).trim();
  if (after !== '' && !after.startsWith('#'))
    throw new FrontMatterSyntaxError(lineNumber, 'unexpected text after a quoted value');
  return decode(raw.slice(1, index));
}

const escapes: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0', ' ': ' ' };

function readDoubleQuoted(body: string, lineNumber: number): string {
  return body.replace(/\\(u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|.)/g, (whole, sequence: string) => {
    if (sequence.length > 1) return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    const replacement = escapes[sequence];
    if (replacement === undefined) throw new FrontMatterSyntaxError(lineNumber, `unknown escape "${whole}"`);
    return replacement;
  });
}
