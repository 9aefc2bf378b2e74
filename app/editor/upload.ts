import { errors } from '../errors.js';

/** The image types an upload may be, each by its magic bytes and the extensions its name may have. */
const TYPES: Array<{ type: string; ext: RegExp; test: (b: Buffer) => boolean }> = [
  { type: 'image/png', ext: /\.png$/i, test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', ext: /\.jpe?g$/i, test: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', ext: /\.gif$/i, test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', ext: /\.webp$/i, test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'image/avif', ext: /\.avif$/i, test: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && /^avi[fs]/.test(b.subarray(8, 12).toString('latin1')) },
  { type: 'image/x-icon', ext: /\.ico$/i, test: (b) => b.length > 4 && b.readUInt32BE(0) === 0x00000100 },
];

/** The types an upload may be, for the file picker's `accept` (so it offers what the server takes, and not SVG). */
export const UPLOAD_IMAGE_TYPES: readonly string[] = TYPES.map((t) => t.type);

/**
 * The image type of an upload, from its bytes (never from what the browser claims), checked
 * against the name's extension: a PNG named `x.png`, not a script named `x.png` nor a PNG named
 * `x.html`. SVG is refused: it is a document that can carry script, not a picture.
 */
export function sniffImage(body: Buffer, rel: string, claimed: string | undefined): string {
  if (!claimed || !/^image\//i.test(claimed)) throw errors.editorUploadRefused(`Content-Type must be an image type (got ${claimed || 'none'})`);
  if (body.length === 0) throw errors.editorUploadRefused('the file is empty');
  const found = TYPES.find((t) => t.test(body));
  if (!found) throw errors.editorUploadRefused('the file is not a PNG, JPEG, GIF, WebP, AVIF or ICO image (SVG is not taken)');
  if (!found.ext.test(rel)) throw errors.editorUploadRefused(`the file is ${found.type}, but its name ${rel} does not end as one does`);
  return found.type;
}
