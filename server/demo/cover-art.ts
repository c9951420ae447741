import sharp from "../../app/lib/sharp.server";

/**
 * Abstract cover pictures for the demo articles, drawn as SVG and rendered with sharp.
 * No text: a fresh machine may have no fonts, and a picture with missing glyphs looks broken.
 * Everything is derived from a seed string, so the same article always gets the same picture.
 */

export const COVER_WIDTH = 1200;
export const COVER_HEIGHT = 675;

const W = COVER_WIDTH;
const H = COVER_HEIGHT;

interface Palette {
  /** Two dark background tones, a mid tone, two accents and a light highlight. */
  deep: string;
  dark: string;
  mid: string;
  accent: string;
  accent2: string;
  light: string;
}

const PALETTES: Record<string, Palette> = {
  news: { deep: "#0b1533", dark: "#1e3a8a", mid: "#2563eb", accent: "#f43f5e", accent2: "#fbbf24", light: "#e0e7ff" },
  entertainment: { deep: "#1e0b3d", dark: "#5b21b6", mid: "#a21caf", accent: "#f472b6", accent2: "#fb923c", light: "#fde68a" },
  sport: { deep: "#052e1b", dark: "#166534", mid: "#16a34a", accent: "#a3e635", accent2: "#f97316", light: "#ecfccb" },
  worldnews: { deep: "#042f2e", dark: "#115e59", mid: "#0891b2", accent: "#2dd4bf", accent2: "#fcd34d", light: "#f0fdfa" },
  technology: { deep: "#030712", dark: "#1e1b4b", mid: "#4338ca", accent: "#22d3ee", accent2: "#a78bfa", light: "#e0f2fe" },
  schools: { deep: "#3b0d0c", dark: "#9a3412", mid: "#d97706", accent: "#fb7185", accent2: "#fde047", light: "#fff7ed" },
};

const FALLBACK_PALETTE = PALETTES.news;

type Rng = () => number;

/** FNV-1a: a stable 32-bit hash of a string, used to seed the generator. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for picking shapes. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (rng: Rng, min: number, max: number) => min + rng() * (max - min);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const n = (value: number) => Math.round(value * 10) / 10;

/** Shared background: an angled gradient, two soft glows and a vignette. */
function background(rng: Rng, p: Palette, id: string) {
  const angle = between(rng, 0, Math.PI * 2);
  const x1 = n(50 + Math.cos(angle) * 50);
  const y1 = n(50 + Math.sin(angle) * 50);
  const x2 = n(50 - Math.cos(angle) * 50);
  const y2 = n(50 - Math.sin(angle) * 50);
  const glowA = { x: n(between(rng, 0.1, 0.5) * W), y: n(between(rng, 0.1, 0.6) * H), r: n(between(rng, 380, 620)) };
  const glowB = { x: n(between(rng, 0.55, 0.95) * W), y: n(between(rng, 0.4, 0.95) * H), r: n(between(rng, 320, 560)) };
  const defs = `
    <linearGradient id="${id}-bg" x1="${x1}%" y1="${y1}%" x2="${x2}%" y2="${y2}%">
      <stop offset="0" stop-color="${p.deep}"/>
      <stop offset="0.55" stop-color="${p.dark}"/>
      <stop offset="1" stop-color="${p.mid}"/>
    </linearGradient>
    <radialGradient id="${id}-glowA" cx="${glowA.x}" cy="${glowA.y}" r="${glowA.r}" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${p.accent}" stop-opacity="0.55"/>
      <stop offset="1" stop-color="${p.accent}" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="${id}-glowB" cx="${glowB.x}" cy="${glowB.y}" r="${glowB.r}" gradientUnits="userSpaceOnUse">
      <stop offset="0" stop-color="${p.accent2}" stop-opacity="0.4"/>
      <stop offset="1" stop-color="${p.accent2}" stop-opacity="0"/>
    </radialGradient>
    <radialGradient id="${id}-vignette" cx="50%" cy="50%" r="75%">
      <stop offset="0.55" stop-color="#000" stop-opacity="0"/>
      <stop offset="1" stop-color="#000" stop-opacity="0.45"/>
    </radialGradient>`;
  const under = `
    <rect width="${W}" height="${H}" fill="url(#${id}-bg)"/>
    <rect width="${W}" height="${H}" fill="url(#${id}-glowA)"/>
    <rect width="${W}" height="${H}" fill="url(#${id}-glowB)"/>`;
  const over = `<rect width="${W}" height="${H}" fill="url(#${id}-vignette)"/>`;
  return { defs, under, over };
}

/** Soft out-of-focus discs. */
function bokeh(rng: Rng, p: Palette, id: string, count: number) {
  const colours = [p.light, p.accent, p.accent2];
  const defs = colours
    .map(
      (c, i) => `<radialGradient id="${id}-bokeh${i}">
        <stop offset="0" stop-color="${c}" stop-opacity="0.55"/>
        <stop offset="0.7" stop-color="${c}" stop-opacity="0.18"/>
        <stop offset="1" stop-color="${c}" stop-opacity="0"/>
      </radialGradient>`,
    )
    .join("");
  let shapes = "";
  for (let i = 0; i < count; i++) {
    const r = between(rng, 14, 90);
    shapes += `<circle cx="${n(between(rng, 0, W))}" cy="${n(between(rng, 0, H))}" r="${n(r)}" fill="url(#${id}-bokeh${Math.floor(rng() * 3)})" opacity="${n(between(rng, 0.4, 1))}"/>`;
  }
  return { defs, shapes };
}

/** Layered flowing bands across the lower part of the picture. */
function waves(rng: Rng, p: Palette, layers: number) {
  const colours = [p.accent, p.mid, p.accent2, p.light];
  let out = "";
  for (let layer = 0; layer < layers; layer++) {
    const baseY = H * between(rng, 0.5, 0.85) + layer * 18;
    const amplitude = between(rng, 25, 80);
    const phase = between(rng, 0, Math.PI * 2);
    const frequency = between(rng, 1, 2.4);
    let d = `M0 ${n(baseY)}`;
    for (let x = 0; x <= W; x += 40) {
      const y = baseY + Math.sin((x / W) * Math.PI * 2 * frequency + phase) * amplitude;
      d += ` L${x} ${n(y)}`;
    }
    d += ` L${W} ${H} L0 ${H} Z`;
    out += `<path d="${d}" fill="${colours[layer % colours.length]}" opacity="${n(between(rng, 0.12, 0.3))}"/>`;
  }
  return out;
}

// ---------------------------------------------------------------- one motif per category

/** News: a front page seen from afar — column blocks, a bold band and a circle. */
function newsMotif(rng: Rng, p: Palette) {
  let out = "";
  const columns = 3 + Math.floor(rng() * 3);
  const left = between(rng, 60, 180);
  const gap = 22;
  const width = (W * 0.62 - left - gap * (columns - 1)) / columns;
  for (let c = 0; c < columns; c++) {
    let y = between(rng, 70, 140);
    const x = left + c * (width + gap);
    while (y < H - 80) {
      const h = between(rng, 40, 170);
      const bottom = Math.min(y + h, H - 70);
      const colour = pick(rng, [p.light, p.light, p.mid, p.accent]);
      out += `<rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(bottom - y)}" rx="6" fill="${colour}" opacity="${n(between(rng, 0.08, 0.28))}"/>`;
      y = bottom + between(rng, 14, 26);
    }
  }
  const bandY = between(rng, 0.18, 0.7) * H;
  out += `<rect x="-40" y="${n(bandY)}" width="${W + 80}" height="${n(between(rng, 26, 60))}" fill="${p.accent}" opacity="0.55" transform="rotate(${n(between(rng, -9, -3))} ${W / 2} ${n(bandY)})"/>`;
  const cx = between(rng, 0.66, 0.8) * W;
  const cy = between(rng, 0.3, 0.65) * H;
  const r = between(rng, 120, 210);
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${p.accent2}" opacity="0.85"/>`;
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r + 34)}" fill="none" stroke="${p.light}" stroke-width="3" opacity="0.5"/>`;
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r + 74)}" fill="none" stroke="${p.light}" stroke-width="1.5" opacity="0.3"/>`;
  return out;
}

/** Entertainment: stage spotlights fanning from above onto a glowing floor. */
function entertainmentMotif(rng: Rng, p: Palette, id: string) {
  const beams = 3 + Math.floor(rng() * 3);
  const defs = `<linearGradient id="${id}-beam" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${p.light}" stop-opacity="0.6"/>
      <stop offset="1" stop-color="${p.light}" stop-opacity="0"/>
    </linearGradient>
    <radialGradient id="${id}-floor" cx="50%" cy="50%" r="50%">
      <stop offset="0" stop-color="${p.accent2}" stop-opacity="0.8"/>
      <stop offset="1" stop-color="${p.accent2}" stop-opacity="0"/>
    </radialGradient>`;
  let out = "";
  const targetX = between(rng, 0.35, 0.65) * W;
  const targetY = H * 0.86;
  for (let i = 0; i < beams; i++) {
    const sx = (W / (beams - 1 || 1)) * i + between(rng, -60, 60);
    const spread = between(rng, 70, 150);
    const tx = targetX + between(rng, -260, 260);
    out += `<polygon points="${n(sx - 10)},-10 ${n(sx + 10)},-10 ${n(tx + spread)},${n(targetY)} ${n(tx - spread)},${n(targetY)}" fill="url(#${id}-beam)" opacity="${n(between(rng, 0.35, 0.75))}"/>`;
  }
  out += `<ellipse cx="${n(targetX)}" cy="${n(targetY)}" rx="${n(between(rng, 340, 460))}" ry="${n(between(rng, 60, 95))}" fill="url(#${id}-floor)"/>`;
  // A row of stage lights along the top.
  for (let i = 0; i < 9; i++) {
    const x = (W / 8) * i;
    out += `<circle cx="${n(x)}" cy="28" r="9" fill="${pick(rng, [p.accent, p.accent2, p.light])}" opacity="0.9"/>`;
  }
  return { defs, shapes: out };
}

/** Sport: running-track lanes sweeping across, with a ball in motion. */
function sportMotif(rng: Rng, p: Palette) {
  let out = "";
  const cx = between(rng, -0.1, 0.25) * W;
  const cy = between(rng, 1.0, 1.35) * H;
  const base = between(rng, 520, 650);
  const lanes = 6;
  for (let i = 0; i <= lanes; i++) {
    const r = base + i * 46;
    out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="none" stroke="${p.light}" stroke-width="${i === 0 || i === lanes ? 5 : 3}" opacity="${i === 0 || i === lanes ? 0.55 : 0.3}"/>`;
  }
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(base + (lanes * 46) / 2)}" fill="none" stroke="${p.accent2}" stroke-width="${lanes * 46}" opacity="0.16"/>`;
  const bx = between(rng, 0.62, 0.84) * W;
  const by = between(rng, 0.22, 0.45) * H;
  const br = between(rng, 60, 92);
  for (let i = 1; i <= 4; i++) {
    out += `<circle cx="${n(bx - i * br * 0.9)}" cy="${n(by + i * br * 0.35)}" r="${n(br * (1 - i * 0.12))}" fill="${p.accent}" opacity="${n(0.28 - i * 0.05)}"/>`;
  }
  out += `<circle cx="${n(bx)}" cy="${n(by)}" r="${n(br)}" fill="${p.accent}"/>`;
  out += `<path d="M${n(bx - br)} ${n(by)} Q${n(bx)} ${n(by - br * 0.55)} ${n(bx + br)} ${n(by)}" fill="none" stroke="${p.deep}" stroke-width="5" opacity="0.55"/>`;
  out += `<path d="M${n(bx - br)} ${n(by)} Q${n(bx)} ${n(by + br * 0.55)} ${n(bx + br)} ${n(by)}" fill="none" stroke="${p.deep}" stroke-width="5" opacity="0.55"/>`;
  // Speed streaks.
  for (let i = 0; i < 5; i++) {
    const y = by - br * 0.6 + i * br * 0.3;
    const len = between(rng, 140, 300);
    out += `<line x1="${n(bx - br - 30 - len)}" y1="${n(y)}" x2="${n(bx - br - 30)}" y2="${n(y)}" stroke="${p.light}" stroke-width="4" stroke-linecap="round" opacity="${n(between(rng, 0.25, 0.55))}"/>`;
  }
  return out;
}

/** World news: a globe with meridians and parallels, and orbit lines around it. */
function worldMotif(rng: Rng, p: Palette, id: string) {
  const cx = between(rng, 0.55, 0.75) * W;
  const cy = between(rng, 0.45, 0.6) * H;
  const r = between(rng, 210, 270);
  const defs = `<radialGradient id="${id}-globe" cx="35%" cy="30%" r="80%">
      <stop offset="0" stop-color="${p.accent}" stop-opacity="0.95"/>
      <stop offset="0.6" stop-color="${p.mid}" stop-opacity="0.9"/>
      <stop offset="1" stop-color="${p.deep}" stop-opacity="0.95"/>
    </radialGradient>`;
  let out = `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r + 26)}" fill="${p.accent}" opacity="0.12"/>`;
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="url(#${id}-globe)"/>`;
  for (let i = 1; i < 6; i++) {
    const rx = r * Math.abs(Math.cos((i * Math.PI) / 6));
    out += `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(rx)}" ry="${n(r)}" fill="none" stroke="${p.light}" stroke-width="1.6" opacity="0.45"/>`;
  }
  for (let i = -2; i <= 2; i++) {
    const y = cy + (i * r) / 3;
    const half = Math.sqrt(Math.max(r * r - (y - cy) ** 2, 0));
    out += `<line x1="${n(cx - half)}" y1="${n(y)}" x2="${n(cx + half)}" y2="${n(y)}" stroke="${p.light}" stroke-width="1.6" opacity="0.45"/>`;
  }
  const tilt = between(rng, -24, -8);
  out += `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(r * 1.75)}" ry="${n(r * 0.42)}" fill="none" stroke="${p.accent2}" stroke-width="4" opacity="0.8" transform="rotate(${n(tilt)} ${n(cx)} ${n(cy)})"/>`;
  out += `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(r * 2.1)}" ry="${n(r * 0.6)}" fill="none" stroke="${p.light}" stroke-width="1.5" opacity="0.35" transform="rotate(${n(tilt + 14)} ${n(cx)} ${n(cy)})"/>`;
  const angle = between(rng, 0, Math.PI * 2);
  const sx = cx + Math.cos(angle) * r * 1.75;
  const sy = cy + Math.sin(angle) * r * 0.42;
  out += `<circle cx="${n(sx)}" cy="${n(sy)}" r="12" fill="${p.accent2}" transform="rotate(${n(tilt)} ${n(cx)} ${n(cy)})"/>`;
  // Dots for cities on the visible side.
  for (let i = 0; i < 7; i++) {
    const a = between(rng, 0, Math.PI * 2);
    const d = Math.sqrt(rng()) * r * 0.85;
    out += `<circle cx="${n(cx + Math.cos(a) * d)}" cy="${n(cy + Math.sin(a) * d)}" r="5" fill="${p.accent2}" opacity="0.9"/>`;
  }
  return { defs, shapes: out };
}

/** Technology: a dot grid with circuit traces ending in glowing nodes, and a chip. */
function technologyMotif(rng: Rng, p: Palette) {
  let out = "";
  out += `<rect width="${W}" height="${H}" fill="url(#c-dots)"/>`;
  const chipX = between(rng, 0.55, 0.72) * W;
  const chipY = between(rng, 0.35, 0.55) * H;
  const chip = between(rng, 150, 200);
  const traces = 16 + Math.floor(rng() * 8);
  for (let i = 0; i < traces; i++) {
    // Start on a chip edge, go out, turn once, end in a node.
    const side = Math.floor(rng() * 4);
    const along = between(rng, -chip / 2 + 14, chip / 2 - 14);
    let x = chipX + (side === 0 ? -chip / 2 : side === 1 ? chip / 2 : along);
    let y = chipY + (side === 2 ? -chip / 2 : side === 3 ? chip / 2 : along);
    x = Math.round(x / 10) * 10;
    y = Math.round(y / 10) * 10;
    const first = between(rng, 60, 220);
    const second = between(rng, 40, 260) * (rng() < 0.5 ? -1 : 1);
    let x1 = x, y1 = y, x2: number, y2: number;
    if (side < 2) {
      x1 = x + (side === 0 ? -first : first);
      x2 = x1 + (side === 0 ? -Math.abs(second) * 0.5 : Math.abs(second) * 0.5);
      y2 = y1 + second;
    } else {
      y1 = y + (side === 2 ? -first : first);
      y2 = y1 + (side === 2 ? -Math.abs(second) * 0.5 : Math.abs(second) * 0.5);
      x2 = x1 + second;
    }
    const colour = pick(rng, [p.accent, p.accent, p.accent2, p.light]);
    out += `<polyline points="${n(x)},${n(y)} ${n(x1)},${n(y1)} ${n(x2)},${n(y2)}" fill="none" stroke="${colour}" stroke-width="3" stroke-linejoin="round" opacity="0.75"/>`;
    out += `<circle cx="${n(x2)}" cy="${n(y2)}" r="14" fill="${colour}" opacity="0.2"/>`;
    out += `<circle cx="${n(x2)}" cy="${n(y2)}" r="6" fill="${colour}"/>`;
  }
  out += `<rect x="${n(chipX - chip / 2)}" y="${n(chipY - chip / 2)}" width="${n(chip)}" height="${n(chip)}" rx="18" fill="${p.deep}" stroke="${p.accent}" stroke-width="4"/>`;
  out += `<rect x="${n(chipX - chip / 2 + 28)}" y="${n(chipY - chip / 2 + 28)}" width="${n(chip - 56)}" height="${n(chip - 56)}" rx="10" fill="${p.mid}" opacity="0.8"/>`;
  out += `<rect x="${n(chipX - chip / 2 + 52)}" y="${n(chipY - chip / 2 + 52)}" width="${n(chip - 104)}" height="${n(chip - 104)}" rx="6" fill="${p.accent}" opacity="0.85"/>`;
  return out;
}

/** Schools: stacked books, a sweeping pencil line and playful geometric shapes. */
function schoolsMotif(rng: Rng, p: Palette) {
  let out = "";
  const baseX = between(rng, 0.58, 0.72) * W;
  let y = H - between(rng, 70, 110);
  const books = 4 + Math.floor(rng() * 3);
  for (let i = 0; i < books; i++) {
    const h = between(rng, 36, 58);
    const w = between(rng, 260, 360);
    const x = baseX + between(rng, -40, 40) - w / 2;
    y -= h;
    const colour = pick(rng, [p.accent, p.accent2, p.light, p.mid]);
    out += `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h - 4)}" rx="6" fill="${colour}" opacity="0.92"/>`;
    out += `<rect x="${n(x + w - 34)}" y="${n(y + 6)}" width="10" height="${n(h - 16)}" rx="2" fill="${p.deep}" opacity="0.3"/>`;
    out += `<line x1="${n(x + 18)}" y1="${n(y + h - 12)}" x2="${n(x + w - 50)}" y2="${n(y + h - 12)}" stroke="#fff" stroke-width="3" opacity="0.45"/>`;
  }
  // A ruler-like band and scattered shapes.
  const angle = between(rng, -18, -8);
  out += `<g transform="rotate(${n(angle)} ${W * 0.3} ${H * 0.4})">
    <rect x="${n(W * 0.02)}" y="${n(H * 0.36)}" width="${n(W * 0.5)}" height="54" rx="8" fill="${p.accent2}" opacity="0.85"/>
    ${Array.from({ length: 24 }, (_, i) => `<line x1="${n(W * 0.02 + 20 + i * 24)}" y1="${n(H * 0.36)}" x2="${n(W * 0.02 + 20 + i * 24)}" y2="${n(H * 0.36 + (i % 4 === 0 ? 26 : 14))}" stroke="${p.deep}" stroke-width="2.5" opacity="0.6"/>`).join("")}
  </g>`;
  for (let i = 0; i < 8; i++) {
    const x = between(rng, 40, W * 0.48);
    const sy = between(rng, 40, H - 40);
    const s = between(rng, 16, 40);
    const colour = pick(rng, [p.light, p.accent, p.accent2]);
    const kind = Math.floor(rng() * 3);
    if (kind === 0) out += `<circle cx="${n(x)}" cy="${n(sy)}" r="${n(s / 2)}" fill="none" stroke="${colour}" stroke-width="4" opacity="0.7"/>`;
    else if (kind === 1)
      out += `<polygon points="${n(x)},${n(sy - s / 2)} ${n(x + s / 2)},${n(sy + s / 2)} ${n(x - s / 2)},${n(sy + s / 2)}" fill="${colour}" opacity="0.6"/>`;
    else out += `<rect x="${n(x - s / 2)}" y="${n(sy - s / 2)}" width="${n(s)}" height="${n(s)}" rx="4" fill="${colour}" opacity="0.55" transform="rotate(${n(between(rng, 0, 45))} ${n(x)} ${n(sy)})"/>`;
  }
  return out;
}

/**
 * What each category's cover shows, as its alt text: the pictures are abstract drawings (see the
 * motifs above), so the alt text says so instead of pretending to be a photograph of the story.
 */
export const COVER_ALT: Record<string, string> = {
  news: "Abstract illustration in blue: newspaper-like column blocks, a red diagonal band and a yellow sun-like circle.",
  entertainment: "Abstract illustration in purple: stage spotlights fanning down onto a glowing floor.",
  sport: "Abstract illustration in green: curved running-track lanes and a ball in motion.",
  worldnews: "Abstract illustration in teal: a globe with meridians, parallels and orbit lines.",
  technology: "Abstract illustration in dark blue: a circuit chip with traces ending in glowing nodes.",
  schools: "Abstract illustration in orange: a stack of books, a ruler and scattered shapes.",
};

/** The alt text of a category's cover picture. */
export const coverAlt = (category: string) => COVER_ALT[category] ?? COVER_ALT.news!;

/** The SVG source of one cover picture. */
export function coverSvg(category: string, seed: string): string {
  const rng = createRng(hashString(`${category}:${seed}`));
  const p = PALETTES[category] ?? FALLBACK_PALETTE;
  const id = "c";
  const bg = background(rng, p, id);
  let defs = bg.defs;
  let body = bg.under;
  const dots = bokeh(rng, p, id, 10 + Math.floor(rng() * 10));
  // Half of the pictures put their motif on the other side, so neighbouring cards differ.
  const flipped = rng() < 0.5;
  const mirror = (shapes: string) => (flipped ? `<g transform="translate(${W} 0) scale(-1 1)">${shapes}</g>` : shapes);
  defs += dots.defs;
  body += waves(rng, p, 2 + Math.floor(rng() * 2));
  switch (category) {
    case "entertainment": {
      const m = entertainmentMotif(rng, p, id);
      defs += m.defs;
      body += m.shapes + dots.shapes;
      break;
    }
    case "sport":
      body += mirror(sportMotif(rng, p)) + dots.shapes;
      break;
    case "worldnews": {
      const m = worldMotif(rng, p, id);
      defs += m.defs;
      body += dots.shapes + mirror(m.shapes);
      break;
    }
    case "technology":
      defs += `<pattern id="${id}-dots" width="40" height="40" patternUnits="userSpaceOnUse"><circle cx="20" cy="20" r="1.6" fill="${p.light}" opacity="0.16"/></pattern>`;
      body += mirror(technologyMotif(rng, p)) + dots.shapes;
      break;
    case "schools":
      body += dots.shapes + mirror(schoolsMotif(rng, p));
      break;
    default:
      body += dots.shapes + mirror(newsMotif(rng, p));
  }
  body += bg.over;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs}</defs>${body}</svg>`;
}

/** Renders a cover picture to a JPEG file. */
export async function writeCoverJpeg(category: string, seed: string, file: string): Promise<number> {
  const info = await sharp(Buffer.from(coverSvg(category, seed)))
    .resize(W, H)
    .jpeg({ quality: 80, mozjpeg: false, chromaSubsampling: "4:2:0" })
    .toFile(file);
  return info.size;
}
