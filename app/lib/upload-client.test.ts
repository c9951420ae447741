import { afterEach, describe, expect, it, vi } from "vitest";
import { UPLOAD_RULES } from "~/lib/upload-rules";
import { sendUpload } from "./upload-client";

function answer(status: number, body: unknown) {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("sendUpload", () => {
  it("posts the file as the multipart field 'file' and resolves with the answer", async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => answer(201, { url: "/media/images/a.png", contentType: "image/png" }));
    vi.stubGlobal("fetch", fetchMock);
    const file = new File([new Uint8Array([1, 2, 3])], "a.png", { type: "image/png" });

    const result = await sendUpload("/api/uploads/comment?kind=image", file, UPLOAD_RULES.image);

    expect(result).toEqual({ url: "/media/images/a.png", contentType: "image/png" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/uploads/comment?kind=image");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("same-origin");
    const sent = (init.body as FormData).get("file");
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe("a.png");
  });

  it("refuses a file over the rule's limit without sending it", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    const file = new File([new Uint8Array(8)], "big.png", { type: "image/png" });

    await expect(sendUpload("/api/admin/uploads/image", file, { ...UPLOAD_RULES.image, maxBytes: 4 })).rejects.toThrow(
      "Image is larger than the 10 MB limit.",
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("rejects with the server's message", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => answer(415, { error: "Only JPEG, PNG, GIF and WebP images are accepted." })));
    const file = new File(["text"], "a.txt", { type: "text/plain" });

    await expect(sendUpload("/api/admin/uploads/image", file, UPLOAD_RULES.image)).rejects.toThrow(
      "Only JPEG, PNG, GIF and WebP images are accepted.",
    );
  });

  it("names the HTTP status when the answer carries no message", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => answer(502, "<html>Bad gateway</html>")));
    const file = new File(["x"], "a.png", { type: "image/png" });

    await expect(sendUpload("/api/admin/uploads/image", file, UPLOAD_RULES.image)).rejects.toThrow("The upload failed (HTTP 502).");
  });

  it("explains a network failure", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const file = new File(["x"], "a.png", { type: "image/png" });

    await expect(sendUpload("/api/admin/uploads/image", file, UPLOAD_RULES.image)).rejects.toThrow(
      "The upload could not reach the server. Check your connection and try again.",
    );
  });
});
