import type { MouseEvent } from "react";
import { FacebookIcon, LinkedinIcon, XIcon } from "./social-icons";

/** Spec: each share button opens a 600x400 popup. */
export const SHARE_POPUP = { width: 600, height: 400 } as const;

export function shareLinks(url: string, title: string) {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { name: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}`, Icon: FacebookIcon, className: "bg-[#1464d6] hover:bg-[#0f4fa8]" },
    { name: "X", href: `https://x.com/intent/tweet?url=${u}&text=${t}`, Icon: XIcon, className: "bg-slate-900 hover:bg-black" },
    { name: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`, Icon: LinkedinIcon, className: "bg-[#0a66c2] hover:bg-[#084e96]" },
  ];
}

function openPopup(event: MouseEvent<HTMLAnchorElement>) {
  const { width, height } = SHARE_POPUP;
  const left = Math.max(0, (window.screen.width - width) / 2);
  const top = Math.max(0, (window.screen.height - height) / 2);
  const popup = window.open(event.currentTarget.href, "share", `width=${width},height=${height},left=${left},top=${top}`);
  // With popups blocked, the plain link (which also works without JavaScript) opens instead.
  if (popup) {
    popup.opener = null;
    event.preventDefault();
  }
}

/**
 * Facebook, X and LinkedIn share links (the spec's "Twitter" is called X everywhere: issue 27): plain links
 * without JavaScript, a 600x400 popup with it. Each one's accessible name says what it does ("Share on X").
 * Compact (a live story's updates, issue 31): icons only, their names for screen readers.
 */
export function ShareButtons({ url, title, compact = false }: { url: string; title: string; compact?: boolean }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="text-sm font-medium text-slate-700">Share:</span>
      {shareLinks(url, title).map(({ name, href, Icon, className }) => (
        <a
          key={name}
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          onClick={openPopup}
          className={`inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-white ${compact ? "h-8 w-8 justify-center" : "px-3 py-1.5"} ${className}`}
        >
          <Icon className="h-4 w-4" aria-hidden="true" />
          <span className="sr-only">Share on </span>
          {compact ? <span className="sr-only">{name}</span> : name}
          <span className="sr-only"> (opens in a new window)</span>
        </a>
      ))}
    </div>
  );
}
