import crc32 from 'crc-32';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

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

const zipProblem = (message: string) => new InvalidPackageError([{ path: '(zip)', message }]);
const decoder = new TextDecoder();

/** An entry's name: yauzl is asked for raw bytes so that every unsafe name is reported here, not only the first. */
const nameOf = (entry: Entry): string => decoder.decode(entry.fileName as unknown as Uint8Array);

/** Whether the entry is a symbolic link (Unix "made by" with the link file type in its mode bits). */
const isSymbolicLink = (entry: Entry): boolean =>
  entry.versionMadeBy >> 8 === 3 && ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

function openZip(data: Uint8Array): Promise<ZipFile> {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) reject(zipProblem(`not a readable zip file (${error?.message ?? 'no archive'})`));
      else resolve(zip);
    });
  });
}

/** Every entry of the central directory (yauzl never trusts the local headers). */
function listEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (error: Error) => reject(zipProblem(`corrupt central directory (${error.message})`)));
    zip.readEntry();
  });
}

/**
 * Inflates one entry as a stream: yauzl stops it as soon as it yields more bytes than the
 * central directory declares (so a lying header can never make it inflate a bomb), `budget`
 * caps the bytes it may add to the package, and the CRC32 of what came out must match.
 */
function inflateEntry(zip: ZipFile, entry: Entry, path: string, budget: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (openError, stream) => {
      if (openError || !stream) {
        reject(new InvalidPackageError([{ path, message: `cannot be unpacked (${openError?.message ?? 'no data'})` }]));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let checksum = 0;
      const fail = (message: string) => {
        stream.destroy();
        reject(new InvalidPackageError([{ path, message }]));
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > budget) return fail(`unpacks to more than the ${packageLimits.maximumTotalBytes} bytes a package may hold`);
        checksum = crc32.buf(chunk, checksum);
        chunks.push(chunk);
      });
      stream.on('error', (error: Error) => fail(`its real contents do not match its header (${error.message})`));
      stream.on('end', () => {
        if (checksum >>> 0 !== entry.crc32) return fail('its CRC32 does not match its contents (corrupt or altered)');
        resolve(new Uint8Array(Buffer.concat(chunks, size)));
      });
    });
  });
}

/**
 * Unpacks a zip in memory after checking every entry: no symbolic links, no unsafe paths, no
 * encryption, at most `packageLimits` files and declared bytes (every such problem is reported
 * at once). Each file is then inflated as a stream and must match its declared size and its
 * CRC32, with the running total capped, so a bomb is cut off after a few kilobytes. Nothing
 * is written. yauzl reads the archive (it trusts the central directory only and enforces the
 * declared sizes while inflating); this file adds the package rules and the checksum.
 */
export async function readZipPackage(data: Uint8Array): Promise<PackageFile[]> {
  const zip = await openZip(data);
  try {
    if (zip.entryCount > packageLimits.maximumFiles) throw zipProblem(`more than ${packageLimits.maximumFiles} entries`);
    const entries = await listEntries(zip);
    const problems: { path: string; message: string }[] = [];
    let declared = 0;
    const seen = new Set<string>();
    for (const entry of entries) {
      const name = nameOf(entry);
      if (seen.has(name)) problems.push({ path: name, message: 'appears twice' });
      seen.add(name);
      const isDirectory = name.endsWith('/');
      if (isSymbolicLink(entry)) problems.push({ path: name, message: 'is a symbolic link' });
      if (entry.isEncrypted()) problems.push({ path: name, message: 'is encrypted' });
      const reason = unsafePathReason(isDirectory ? name.slice(0, -1) : name);
      if (reason) problems.push({ path: name, message: `path ${reason}` });
      declared += entry.uncompressedSize;
    }
    if (declared > packageLimits.maximumTotalBytes)
      problems.push({ path: '(zip)', message: `unpacks to more than ${packageLimits.maximumTotalBytes} bytes` });
    if (problems.length > 0) throw new InvalidPackageError(problems);
    const files: PackageFile[] = [];
    let total = 0;
    for (const entry of entries) {
      const path = nameOf(entry);
      if (path.endsWith('/')) continue;
      const content = await inflateEntry(zip, entry, path, packageLimits.maximumTotalBytes - total);
      total += content.length;
      files.push({ path, content });
    }
    return files;
  } finally {
    zip.close();
  }
}
