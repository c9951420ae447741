import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { deepImports } from "./scripts/deep-imports.ts";
import { readerChunks } from "./scripts/reader-chunks.ts";

const appDirectory = path.resolve(import.meta.dirname, "app");

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter(), ...(isSsrBuild ? [] : [deepImports(["lucide-react", "radix-ui"])])],
  resolve: { alias: { "~": appDirectory } },
  build: {
    assetsInlineLimit: 0,
    // The browser's files: a few per reader page, not thirty (scripts/reader-chunks.ts, decision 0029).
    ...(isSsrBuild ? {} : { rolldownOptions: { output: { codeSplitting: readerChunks(appDirectory) } } }),
  },
}));
