import type { FileHandle } from 'node:fs/promises';
import { RE2JS } from 're2js';
import { listEntries, openDirectoryIn, openRegularFile, readLimited, withDirectory } from './confined-fs.js';
import { InvalidSearchPatternError, WorkspaceAccessError } from './sandbox-errors.js';
import type { ResolvedEntry } from './workspace-view.js';

/** Options of a search. */
export interface GrepOptions {
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  maximumMatches: number;
}

const maximumFileBytes = 1024 * 1024;
const maximumLineLength = 2000;
const maximumDepth = 32;
const maximumFiles = 5000;

interface Progress {
  matches: string[];
  skipped: number;
  files: number;
}

/** Tells whether a line matches. */
type LineMatcher = (line: string) => boolean;

/**
 * Compiles the model's pattern. Expressions run on RE2's linear-time engine (re2js), never on
 * JavaScript's backtracking one: a pattern such as `^(a+)+$` over a file the model wrote itself
 * would otherwise block the whole process — every run in it, its lease renewals and timers — for
 * minutes. RE2 has no backreferences or lookaround; such a pattern is refused with a typed error.
 */
export function compileLineMatcher(pattern: string, regex: boolean, ignoreCase: boolean): LineMatcher {
  if (!regex) {
    if (!ignoreCase) return (line) => line.includes(pattern);
    const lowered = pattern.toLowerCase();
    return (line) => line.toLowerCase().includes(lowered);
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    throw new InvalidSearchPatternError(pattern, (error as Error).message);
  }
  return (line) => compiled.matcher(line).find();
}

/**
 * Searches regular text files below a directory of the view, line by line, walking with the same
 * confined, link-refusing operations as the other file tools. Links, hard-linked files, binary
 * files and files over 1 MiB are skipped and counted; lines longer than 2000 characters are not
 * searched. With the linear-time matcher, one file costs at most time proportional to its size.
 */
export async function grepFiles(entry: ResolvedEntry, options: GrepOptions): Promise<string> {
  const expression = compileLineMatcher(options.pattern, options.regex, options.ignoreCase);
  const progress: Progress = { matches: [], skipped: 0, files: 0 };
  await withDirectory(entry, (directory) => walk(directory, entry.virtualPath, 0, expression, options, progress));
  const lines = progress.matches.length > 0 ? progress.matches : ['(no matches)'];
  if (progress.matches.length >= options.maximumMatches) lines.push(`[stopped after ${options.maximumMatches} matches]`);
  if (progress.skipped > 0) lines.push(`[${progress.skipped} links, hard-linked, binary or large files skipped]`);
  return lines.join('\n');
}

async function walk(
  directory: FileHandle,
  virtualPath: string,
  depth: number,
  expression: LineMatcher,
  options: GrepOptions,
  progress: Progress,
): Promise<void> {
  for (const item of await listEntries(directory)) {
    if (progress.matches.length >= options.maximumMatches || progress.files >= maximumFiles) return;
    const childPath = `${virtualPath === '/' ? '' : virtualPath}/${item.name}`;
    if (item.type === 'directory' && depth < maximumDepth) {
      const child = await openDirectoryIn(directory, item.name, childPath).catch(() => undefined);
      if (!child) continue;
      try {
        await walk(child, childPath, depth + 1, expression, options, progress);
      } finally {
        await child.close();
      }
    } else if (item.type === 'file') {
      await searchFile(directory, item.name, childPath, expression, options, progress);
    } else {
      progress.skipped += 1;
    }
  }
}

async function searchFile(
  directory: FileHandle,
  name: string,
  path: string,
  expression: LineMatcher,
  options: GrepOptions,
  progress: Progress,
): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await openRegularFile(directory, name, path);
  } catch (error) {
    if (!WorkspaceAccessError.isInstance(error)) throw error;
    progress.skipped += 1;
    return;
  }
  if (!handle) return;
  try {
    progress.files += 1;
    const { content, truncated } = await readLimited(handle, maximumFileBytes);
    if (truncated || content.subarray(0, 8192).includes(0)) {
      progress.skipped += 1;
      return;
    }
    const lines = content.toString('utf8').split('\n');
    for (const [index, line] of lines.entries()) {
      if (line.length > maximumLineLength || !expression(line)) continue;
      progress.matches.push(`${path}:${index + 1}: ${line}`);
      if (progress.matches.length >= options.maximumMatches) return;
    }
  } finally {
    await handle.close();
  }
}
