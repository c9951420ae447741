import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

/**
 * An old site's web server for the import's tests (issue 29), on loopback: every `.jpg` address answers
 * the same photo, which carries EXIF (a copyright and a place) the import must strip; anything else 404.
 * `requests` lists the paths asked for; a path put in `gone` answers 404 until taken out (an image the
 * old site fails to serve for a while).
 */
export async function startOldSite(size = { width: 64, height: 48 }) {
  const photo = await sharp({ create: { ...size, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: "Old Site Photographer", ImageDescription: "taken at 51.5N 0.1W" } })
    .toBuffer();
  const requests: string[] = [];
  const gone = new Set<string>();
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url?.endsWith(".jpg") && !gone.has(req.url)) {
      res.writeHead(200, { "content-type": "image/jpeg", "content-length": photo.length });
      res.end(photo);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    photo,
    requests,
    gone,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
