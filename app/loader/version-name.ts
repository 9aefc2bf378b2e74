/**
 * The one check of a site version label (manifest `version`, staticExport.version, the name a
 * tarball is given). A version becomes a directory in `<stateDir>/sites`, beside names the loader
 * uses for itself: a bundle versioned `ACTIVE` once replaced the active pointer with a directory
 * and broke every later activation. Compared without case, because the state dir may sit on a
 * case-insensitive filesystem where `active` and `ACTIVE` are the same entry.
 */

/** Names in sites/ that belong to the loader (sites-dir.ts), never to a version. */
const LOADER_NAMES = new Set(['active']);
/** Windows device names: a directory named so cannot be created or removed there. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** Why `version` cannot be a site version, or undefined when it can. */
export function versionNameProblem(version: string): string | undefined {
  if (version.length === 0) return 'is empty';
  if (version.length > 128) return 'is longer than 128 characters';
  if (LOADER_NAMES.has(version.toLowerCase())) return `"${version}" is reserved for the loader's active pointer (sites/ACTIVE)`;
  if (version.startsWith('.')) return `"${version}" starts with "."; such names are the loader's temp work in sites/`;
  if (WINDOWS_DEVICE.test(version)) return `"${version}" is a reserved device name on Windows`;
  return undefined;
}

/** Names that are not a version's directory even if a future loader wrote one (defence in depth). */
export function isReservedDirName(name: string): boolean {
  return name.startsWith('.') || LOADER_NAMES.has(name.toLowerCase()) || WINDOWS_DEVICE.test(name);
}
