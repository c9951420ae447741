/** Types of scripts/ensure-build.mjs (plain JavaScript, so npm start needs no TypeScript loader). */
export declare const SERVER_ENTRY: string;
export declare function ensureBuild(): void;
