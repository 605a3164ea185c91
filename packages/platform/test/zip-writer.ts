import zlib from 'node:zlib';
import crc32 from 'crc-32';

/** One entry of a hand-made zip: its deflated bytes and what the headers claim about them. */
export interface RawZipEntry {
  name: string;
  /** The entry's data: raw deflate (method 8), or the bytes themselves when `stored`. */
  deflated: Uint8Array;
  /** Method 0 (stored): the headers' compressed size is then `declaredSize` too, as the format requires. */
  stored?: boolean;
  /** The uncompressed size both headers declare (a lying zip declares less than the real size). */
  declaredSize: number;
  /** The CRC32 both headers declare. */
  crc: number;
}

/** An honest entry for `content`. */
export function honestEntry(name: string, content: Uint8Array): RawZipEntry {
  return { name, deflated: zlib.deflateRawSync(content), declaredSize: content.length, crc: crc32.buf(content) >>> 0 };
}

/**
 * The deflate data of `megabytes` MiB of zeros, made in milliseconds: one fully flushed 1 MiB
 * block repeated (each flush point is byte-aligned and needs no history), then an empty final block.
 */
export function deflatedZeros(megabytes: number): Uint8Array {
  const piece = zlib.deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array.from({ length: megabytes }, () => piece), Buffer.from([0x03, 0x00])]);
}

/**
 * Writes a zip file byte by byte (local headers, data, central directory, end record), so that a
 * test can make the headers say what it wants — which no zip library lets it do on purpose.
 */
export function writeZip(entries: readonly RawZipEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    const method = entry.stored ? 0 : 8;
    const compressedSize = entry.stored ? entry.declaredSize : entry.deflated.length;
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(compressedSize, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(method, 10);
    header.writeUInt16LE(0x21, 14);
    header.writeUInt32LE(entry.crc, 16);
    header.writeUInt32LE(compressedSize, 20);
    header.writeUInt32LE(entry.declaredSize, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, Buffer.from(entry.deflated));
    central.push(header, name);
    offset += local.length + name.length + entry.deflated.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}
