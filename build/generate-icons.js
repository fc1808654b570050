#!/usr/bin/env node
// Draws Steward's app icons and tray icons (committed; rerun after changing a shape or a colour):
//   node build/generate-icons.js
// PNG for Linux and macOS (template images there), ICO for Windows. No image dependency: shapes are
// signed distance functions, supersampled, written with zlib; an ICO holds PNG images (Windows Vista+).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const ICONS = join(here, 'icons');
const TRAY = join(ICONS, 'tray');

// ---- PNG encoding ---------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** RGBA, 8 bits per channel, no interlace; every scanline uses filter 0. */
export function encodePng(width, height, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    raw[y * (width * 4 + 1)] = 0;
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * An .ico file: a directory of images, each stored as a PNG. Width/height 256 are written as 0, as the
 * format asks. `images` are [size, pngBytes] pairs, smallest first.
 */
export function encodeIco(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(([size, png]) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2);
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map(([, png]) => png)]);
}

// ---- Shapes (unit square, y down) ----------------------------------------------------------

const roundedRect = (cx, cy, hw, hh, r) => (x, y) => {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
const circle = (cx, cy, r) => (x, y) => Math.hypot(x - cx, y - cy) - r;
const capsule = (ax, ay, bx, by, r) => (x, y) => {
  const px = x - ax;
  const py = y - ay;
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - dx * t, py - dy * t) - r;
};
const union = (...shapes) => (x, y) => Math.min(...shapes.map((s) => s(x, y)));

function hex(color) {
  const n = Number.parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * A scene is a list of layers painted in order; a layer is {shape, color} or {shape, cut: true}
 * (a cut clears what is below it: template images are black with transparent holes).
 */
function render(size, layers, samples = 4) {
  const out = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy += 1) {
        for (let sx = 0; sx < samples; sx += 1) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          let pixel = [0, 0, 0, 0];
          for (const layer of layers) {
            if (layer.shape(x, y) > 0) continue;
            pixel = layer.cut ? [0, 0, 0, 0] : [...(typeof layer.color === 'function' ? layer.color(x, y) : hex(layer.color)), 1];
          }
          r += pixel[0] * pixel[3];
          g += pixel[1] * pixel[3];
          b += pixel[2] * pixel[3];
          a += pixel[3];
        }
      }
      const i = (py * size + px) * 4;
      out[i] = a ? Math.round(r / a) : 0;
      out[i + 1] = a ? Math.round(g / a) : 0;
      out[i + 2] = a ? Math.round(b / a) : 0;
      out[i + 3] = Math.round((a / (samples * samples)) * 255);
    }
  }
  return encodePng(size, size, out);
}

// ---- The app icon: a note kept current (a page with lines and a check badge) ---------------

const TOP = hex('#2f7f86');
const BOTTOM = hex('#1c3a5a');
const gradient = (_x, y) => TOP.map((c, i) => Math.round(c + (BOTTOM[i] - c) * y));

function appIcon() {
  return [
    { shape: roundedRect(0.5, 0.5, 0.44, 0.44, 0.1), color: gradient },
    { shape: roundedRect(0.45, 0.48, 0.22, 0.29, 0.04), color: '#f6f4ee' },
    { shape: capsule(0.32, 0.33, 0.58, 0.33, 0.022), color: '#2f7f86' },
    { shape: capsule(0.32, 0.42, 0.58, 0.42, 0.022), color: '#7aa9ad' },
    { shape: capsule(0.32, 0.51, 0.5, 0.51, 0.022), color: '#7aa9ad' },
    { shape: capsule(0.32, 0.6, 0.44, 0.6, 0.022), color: '#7aa9ad' },
    { shape: circle(0.67, 0.7, 0.155), color: '#1c3a5a' },
    { shape: circle(0.67, 0.7, 0.13), color: '#f2b33d' },
    { shape: union(capsule(0.605, 0.705, 0.65, 0.75, 0.024), capsule(0.65, 0.75, 0.735, 0.655, 0.024)), color: '#1c3a5a' },
  ];
}

// ---- Tray icons: one disc per state of the status model, with a glyph -----------------------

/**
 * The glyph alone tells the states apart (macOS template images are one colour): a check, three
 * dots, two bars, an exclamation mark, a cross.
 */
const GLYPHS = {
  idle: union(capsule(0.3, 0.52, 0.44, 0.66, 0.075), capsule(0.44, 0.66, 0.71, 0.36, 0.075)),
  working: union(circle(0.28, 0.5, 0.085), circle(0.5, 0.5, 0.085), circle(0.72, 0.5, 0.085)),
  paused: union(capsule(0.36, 0.3, 0.36, 0.7, 0.07), capsule(0.64, 0.3, 0.64, 0.7, 0.07)),
  attention: union(capsule(0.5, 0.27, 0.5, 0.56, 0.08), circle(0.5, 0.74, 0.085)),
  error: union(capsule(0.33, 0.33, 0.67, 0.67, 0.08), capsule(0.67, 0.33, 0.33, 0.67, 0.08)),
};
/** The panel's `--state-*` colours (renderer/src/styles.css, light theme): a test keeps the two equal. */
export const STATE_COLORS = { idle: '#2d7a4b', working: '#2563c9', paused: '#6b7480', attention: '#b26b00', error: '#b3261e' };
/** Windows asks a tray icon for 16 px at 100 % scaling up to 32 px at 200 %. */
const ICO_TRAY_SIZES = [16, 20, 24, 32, 40, 48];
const ICO_APP_SIZES = [16, 24, 32, 48, 64, 128, 256];
const DISC = circle(0.5, 0.5, 0.47);

function trayIcon(state, template) {
  if (template) return [{ shape: DISC, color: '#000000' }, { shape: GLYPHS[state], cut: true }];
  return [{ shape: DISC, color: STATE_COLORS[state] }, { shape: GLYPHS[state], color: '#ffffff' }];
}

function write(file, png) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, png);
}

function generate() {
  // Linux takes the NxN set, macOS the 512 (electron-builder makes the .icns), Windows icon.ico.
  for (const size of [16, 32, 48, 64, 128, 256, 512]) write(join(ICONS, `${size}x${size}.png`), render(size, appIcon(), size < 64 ? 8 : 4));
  write(join(ICONS, 'icon.ico'), encodeIco(ICO_APP_SIZES.map((size) => [size, render(size, appIcon(), size < 64 ? 8 : 4)])));
  for (const state of Object.keys(GLYPHS)) {
    for (const [suffix, size] of [['', 16], ['@2x', 32]]) {
      write(join(TRAY, `${state}${suffix}.png`), render(size, trayIcon(state, false), 8));
      write(join(TRAY, `${state}Template${suffix}.png`), render(size, trayIcon(state, true), 8));
    }
    write(join(TRAY, `${state}.ico`), encodeIco(ICO_TRAY_SIZES.map((size) => [size, render(size, trayIcon(state, false), 8)])));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) generate();
