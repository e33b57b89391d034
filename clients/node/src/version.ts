/** The package version (package.json), sent in the User-Agent. */
export const VERSION = '0.1.0-preview.0';
