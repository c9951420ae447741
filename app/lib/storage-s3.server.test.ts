import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3Storage } from "./storage-s3.server";
import type { Storage } from "./storage.server";

// s3rver: a local S3-compatible server (its default account: key S3RVER, secret S3RVER).
let server: S3rver;
let dir: string;
let storage: Storage;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-s3-"));
  server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir, configureBuckets: [{ name: "frontpage" }] });
  const { port } = (await server.run()) as { port: number };
  storage = createS3Storage({
    bucket: "frontpage",
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  });
});

afterAll(async () => {
  await server?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function tempFileWith(content: Buffer) {
  await fs.mkdir(storage.tempDir, { recursive: true });
  const file = path.join(storage.tempDir, `t-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  await fs.writeFile(file, content);
  return file;
}

describe("the S3 media store", () => {
  it("stores an upload, removes the temporary file, and reads it back whole and by range", async () => {
    const bytes = Buffer.from("0123456789abcdefghij");
    const temp = await tempFileWith(bytes);
    await storage.put("videos", "1-abc.mp4", temp, "video/mp4");
    await expect(fs.access(temp)).rejects.toThrow();
    expect(await storage.exists("videos", "1-abc.mp4")).toBe(true);

    const whole = await storage.fetchObject("videos", "1-abc.mp4");
    expect(whole?.status).toBe(200);
    expect(Buffer.from(await whole!.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await storage.fetchObject("videos", "1-abc.mp4", "bytes=10-14");
    expect(part?.status).toBe(206);
    expect(await part!.text()).toBe("abcde");
  });

  it("keeps browser URLs on the site, so stored links do not depend on the driver", () => {
    expect(storage.publicUrl("images", "1-abc.png")).toBe("/media/images/1-abc.png");
    expect(storage.localPath("images", "1-abc.png")).toBeNull();
    expect(storage.cdnUrl("images", "1-abc.png")).toBeNull();
  });

  it("deletes, and a missing object is reported as missing", async () => {
    const temp = await tempFileWith(Buffer.from("x"));
    await storage.put("files", "2-def.pdf", temp, "application/pdf");
    await storage.delete("files", "2-def.pdf");
    expect(await storage.exists("files", "2-def.pdf")).toBe(false);
    expect(await storage.fetchObject("files", "2-def.pdf")).toBeNull();
    await expect(storage.delete("files", "2-def.pdf")).resolves.toBeUndefined();
  });

  it("refuses a name that is not one we generate", async () => {
    await expect(storage.exists("images", "../secrets.json")).rejects.toThrow(/unsafe/);
  });

  // s3rver checks the access key of a Signature V4 request, not the signature itself (aws4fetch computes it).
  it("sends signed requests: an unknown access key is refused", async () => {
    const wrong = createS3Storage({
      bucket: "frontpage",
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${(server.httpServer.address() as import("node:net").AddressInfo).port}`,
      accessKeyId: "NOT-A-KEY",
      secretAccessKey: "S3RVER",
    });
    const temp = await tempFileWith(Buffer.from("x"));
    await expect(wrong.put("images", "3-ghi.png", temp, "image/png")).rejects.toThrow(/HTTP 403/);
    expect(await storage.exists("images", "3-ghi.png")).toBe(false);
  });
});
