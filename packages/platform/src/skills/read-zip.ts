import { unzipSync } from 'fflate';

/** Why a package was refused; each is a typed 4xx for the caller. */
export class InvalidPackageError extends Error {
  readonly code = 'invalid-skill-package';
  constructor(readonly problems: readonly { path: string; message: string }[]) {
    super(`The skill package is invalid: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`);
    this.name = 'InvalidPackageError';
  }
}

/** A file of a package: a safe relative path and its bytes. */
export interface PackageFile {
  path: string;
  content: Uint8Array;
}

/** Limits that stop zip bombs and absurd packages. */
export const packageLimits = { maximumFiles: 1000, maximumTotalBytes: 50 * 1024 * 1024 } as const;

/**
 * Checks a path inside a package: relative, forward slashes, no `..`, no empty or hidden-root
 * segments, no NUL. A path that fails would let a package write outside its folder.
 */
export function unsafePathReason(path: string): string | undefined {
  if (path.length === 0 || path.length > 500) return 'empty or too long';
  if (path.includes('\0')) return 'contains NUL';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'is absolute';
  const segments = path.split('/');
  if (segments.some((segment) => segment === '..')) return 'climbs out with ".."';
  if (segments.some((segment) => segment === '' || segment === '.')) return 'has an empty or "." segment';
  return undefined;
}

interface CentralEntry {
  name: string;
  isSymlink: boolean;
  isDirectory: boolean;
  uncompressedSize: number;
}

/** Reads the zip central directory: names, sizes and whether an entry is a symbolic link. */
function readCentralDirectory(data: Uint8Array): CentralEntry[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let end = -1;
  for (let offset = data.length - 22; offset >= Math.max(0, data.length - 22 - 65_535); offset -= 1) {
    if (view.getUint32(offset, true) === 0x06054b50) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new InvalidPackageError([{ path: '(zip)', message: 'not a zip file (no end of central directory)' }]);
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const entries: CentralEntry[] = [];
  const decoder = new TextDecoder();
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > data.length || view.getUint32(offset, true) !== 0x02014b50) {
      throw new InvalidPackageError([{ path: '(zip)', message: 'corrupt central directory' }]);
    }
    const madeBy = view.getUint16(offset + 4, true);
    const uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const external = view.getUint32(offset + 38, true);
    const name = decoder.decode(data.subarray(offset + 46, offset + 46 + nameLength));
    const unixMode = madeBy >> 8 === 3 ? (external >>> 16) & 0o170000 : 0;
    entries.push({ name, isSymlink: unixMode === 0o120000, isDirectory: name.endsWith('/'), uncompressedSize });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Unpacks a zip in memory after checking every entry: no symbolic links, no unsafe paths, at
 * most `packageLimits` files and bytes. Every problem is reported; nothing is written.
 */
export function readZipPackage(data: Uint8Array): PackageFile[] {
  const entries = readCentralDirectory(data);
  const problems: { path: string; message: string }[] = [];
  let total = 0;
  for (const entry of entries) {
    if (entry.isSymlink) problems.push({ path: entry.name, message: 'is a symbolic link' });
    const reason = unsafePathReason(entry.isDirectory ? entry.name.slice(0, -1) : entry.name);
    if (reason) problems.push({ path: entry.name, message: `path ${reason}` });
    total += entry.uncompressedSize;
  }
  if (entries.length > packageLimits.maximumFiles)
    problems.push({ path: '(zip)', message: `more than ${packageLimits.maximumFiles} entries` });
  if (total > packageLimits.maximumTotalBytes)
    problems.push({ path: '(zip)', message: `unpacks to more than ${packageLimits.maximumTotalBytes} bytes` });
  if (problems.length > 0) throw new InvalidPackageError(problems);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(data, {
      filter: (file) => !file.name.endsWith('/') && file.originalSize <= packageLimits.maximumTotalBytes,
    });
  } catch (error) {
    throw new InvalidPackageError([{ path: '(zip)', message: `cannot be unpacked: ${(error as Error).message}` }]);
  }
  const unpacked = Object.entries(files).map(([path, content]) => ({ path, content }));
  if (unpacked.reduce((sum, file) => sum + file.content.length, 0) > packageLimits.maximumTotalBytes) {
    throw new InvalidPackageError([{ path: '(zip)', message: `unpacks to more than ${packageLimits.maximumTotalBytes} bytes` }]);
  }
  return unpacked;
}
