import { crc32, deflateSync } from "node:zlib";

/**
 * The pass's images (Apple requires an icon): a plain square in the pass's colour, drawn here as PNG
 * so the service ships no binary assets. Built once per process.
 */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function squarePng(size: number, [r, g, b]: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour RGB
  const row = Buffer.alloc(1 + size * 3);
  for (let x = 0; x < size; x++) row.set([r, g, b], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export const PASS_COLOUR = [21, 94, 117] as const;

let images: Record<string, Buffer> | undefined;

export function passImages(): Record<string, Buffer> {
  images ??= {
    "icon.png": squarePng(29, PASS_COLOUR),
    "icon@2x.png": squarePng(58, PASS_COLOUR),
    "icon@3x.png": squarePng(87, PASS_COLOUR),
    "logo.png": squarePng(50, PASS_COLOUR),
    "logo@2x.png": squarePng(100, PASS_COLOUR),
  };
  return images;
}
