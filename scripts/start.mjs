// `npm start`: serves the production build, building it first when there is none or it is older than
// the sources (scripts/ensure-build.mjs). Plain JavaScript run by node itself, so the server's
// process carries no TypeScript loader.
import cluster from "node:cluster";
import { pathToFileURL } from "node:url";
import { ensureBuild, SERVER_ENTRY } from "./ensure-build.mjs";

// A cluster's workers run this file too (decision 0027): the primary has built already.
if (cluster.isPrimary) ensureBuild();
process.env.NODE_ENV ??= "production";
await import(pathToFileURL(SERVER_ENTRY).href);
