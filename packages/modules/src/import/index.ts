/** Excel import and export: the exceljs peer, safe cells, streamed exports, bounded unpacking, the user import. */
export * from './cells.js';
export * from './codes.js';
export * from './export.js';
export * from './options.js';
export * from './provider.js';
export * from './sheet-zip.js';
export * from './unpacked.js';
export * from './users-import.js';
