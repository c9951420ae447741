/** Upload kinds, their accepted types (decided from the file's bytes on the server) and size limits. */
export type UploadKind = "image" | "video" | "file" | "logo" | "favicon";

export interface AcceptedType {
  mime: string;
  /** Extension used when the original name has none we accept. */
  extension: string;
  extensions: string[];
  /** file-type's extension for containers that share a MIME type (old Office files are "cfb"). */
  detectedAs?: string;
}

export interface UploadRule {
  bucket: "images" | "videos" | "files";
  label: string;
  maxBytes: number;
  maxLabel: string;
  types: AcceptedType[];
  /** The `accept` attribute of the file input. */
  accept: string;
  wrongTypeMessage: string;
}

const MB = 1024 * 1024;

/** What multipart framing may add to a file's size in a request's declared length. */
const MULTIPART_SLACK_BYTES = 64 * 1024;

/** The most a request carrying one file of this rule may declare (the file plus multipart framing). */
export function declaredLengthLimitOf(rule: UploadRule): number {
  return rule.maxBytes + MULTIPART_SLACK_BYTES;
}

/** The refusal of a file over the rule's size, in the browser and on the server alike. */
export function tooLargeMessage(rule: UploadRule): string {
  return `${rule.label} is larger than the ${rule.maxLabel} limit.`;
}

const JPEG: AcceptedType = { mime: "image/jpeg", extension: "jpg", extensions: ["jpg", "jpeg"] };
const PNG: AcceptedType = { mime: "image/png", extension: "png", extensions: ["png"] };
const GIF: AcceptedType = { mime: "image/gif", extension: "gif", extensions: ["gif"] };
const WEBP: AcceptedType = { mime: "image/webp", extension: "webp", extensions: ["webp"] };
const SVG: AcceptedType = { mime: "image/svg+xml", extension: "svg", extensions: ["svg"] };
const ICO: AcceptedType = { mime: "image/x-icon", extension: "ico", extensions: ["ico"] };

export const UPLOAD_RULES: Record<UploadKind, UploadRule> = {
  image: {
    bucket: "images",
    label: "Image",
    maxBytes: 10 * MB,
    maxLabel: "10 MB",
    types: [JPEG, PNG, GIF, WEBP],
    accept: "image/jpeg,image/png,image/gif,image/webp",
    wrongTypeMessage: "Only JPEG, PNG, GIF and WebP images are accepted.",
  },
  video: {
    bucket: "videos",
    label: "Video",
    maxBytes: 100 * MB,
    maxLabel: "100 MB",
    types: [
      // An MP4 with the "M4V " brand is read as video/x-m4v; it plays as MP4 and is stored as one.
      { mime: "video/mp4", extension: "mp4", extensions: ["mp4", "m4v"], detectedAs: "m4v" },
      { mime: "video/webm", extension: "webm", extensions: ["webm"] },
      { mime: "video/quicktime", extension: "mov", extensions: ["mov", "qt"] },
    ],
    accept: "video/mp4,video/webm,video/quicktime",
    wrongTypeMessage: "Only MP4, WebM and QuickTime videos are accepted.",
  },
  file: {
    bucket: "files",
    label: "File",
    maxBytes: 50 * MB,
    maxLabel: "50 MB",
    types: [
      { mime: "application/pdf", extension: "pdf", extensions: ["pdf"] },
      // .doc and .xls are both OLE compound files; file-type reports them as "cfb".
      { mime: "application/x-cfb", extension: "doc", extensions: ["doc", "xls"], detectedAs: "cfb" },
      {
        mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        extension: "docx",
        extensions: ["docx"],
      },
      {
        mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        extension: "xlsx",
        extensions: ["xlsx"],
      },
    ],
    accept: ".pdf,.doc,.docx,.xls,.xlsx",
    wrongTypeMessage: "Only PDF, Word and Excel files are accepted.",
  },
  logo: {
    bucket: "images",
    label: "Logo",
    maxBytes: 10 * MB,
    maxLabel: "10 MB",
    types: [JPEG, PNG, SVG, WEBP],
    accept: "image/jpeg,image/png,image/svg+xml,image/webp",
    wrongTypeMessage: "Only JPEG, PNG, SVG and WebP logos are accepted.",
  },
  favicon: {
    bucket: "images",
    label: "Favicon",
    maxBytes: 10 * MB,
    maxLabel: "10 MB",
    types: [ICO, PNG],
    accept: "image/x-icon,image/png",
    wrongTypeMessage: "Only ICO and PNG favicons are accepted.",
  },
};
