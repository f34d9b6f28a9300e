/**
 * Renders captcha text as an SVG that a browser shows as-is but a naive script cannot read: every glyph is a
 * path computed from the stroke font (no `<text>`, no font, no answer in the markup), each glyph is scaled,
 * rotated and shifted on its own, its points are jittered, noise curves in the glyphs' own colours cross the
 * text, dots speckle it, and the elements are shuffled so document order says nothing about reading order.
 * Two styles: `bold` (thick straight strokes) and `wavy` (thin strokes bent into random curves).
 */
import { randomInt } from 'node:crypto';
import { GLYPH_HEIGHT, GLYPH_WIDTH, GLYPHS, type Stroke } from './glyphs.js';

/** Image size in CSS pixels (a typical login-form captcha slot). */
export const CAPTCHA_WIDTH = 160;
export const CAPTCHA_HEIGHT = 60;

export type GlyphStyle = 'bold' | 'wavy';

/** A uniform float in [min, max), from the CSPRNG so the distortion cannot be replayed from a seed. */
function rand(min: number, max: number): number {
  return min + (randomInt(0, 1_000_000) / 1_000_000) * (max - min);
}

const f = (n: number) => (Math.round(n * 10) / 10).toString();

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** A dark, saturated colour (glyphs and the noise that imitates them). */
const ink = () => `hsl(${randomInt(0, 360)},${randomInt(55, 80)}%,${randomInt(22, 40)}%)`;

type Point = readonly [number, number];

function pathOf(points: readonly Point[], style: GlyphStyle): string {
  const [first, ...rest] = points;
  if (!first) return '';
  let d = `M${f(first[0])} ${f(first[1])}`;
  let prev = first;
  for (const p of rest) {
    if (style === 'wavy') {
      // A control point pushed sideways off the segment's middle bends each stroke differently every time.
      const mx = (prev[0] + p[0]) / 2 + rand(-3, 3);
      const my = (prev[1] + p[1]) / 2 + rand(-3, 3);
      d += `Q${f(mx)} ${f(my)} ${f(p[0])} ${f(p[1])}`;
    } else {
      d += `L${f(p[0])} ${f(p[1])}`;
    }
    prev = p;
  }
  return d;
}

/** The SVG elements of one glyph placed in its cell. */
function glyphElements(strokes: readonly Stroke[], cx: number, cy: number, unit: number, style: GlyphStyle) {
  const angle = rand(-0.45, 0.45);
  const scale = rand(0.85, 1.15);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const dx = cx + rand(-3, 3);
  const dy = cy + rand(-6, 6);
  const color = ink();
  const width = style === 'bold' ? rand(3, 4) : rand(1.8, 2.5);
  return strokes.map((stroke) => {
    const points = stroke.map(([x, y]): Point => {
      const gx = (x - GLYPH_WIDTH / 2 + rand(-0.2, 0.2)) * unit * scale;
      const gy = (y - GLYPH_HEIGHT / 2 + rand(-0.2, 0.2)) * unit * scale;
      return [dx + gx * cos - gy * sin, dy + gx * sin + gy * cos];
    });
    return `<path d="${pathOf(points, style)}" fill="none" stroke="${color}" stroke-width="${f(width)}" stroke-linecap="round" stroke-linejoin="round"/>`;
  });
}

function noiseCurve(): string {
  const y = () => rand(5, CAPTCHA_HEIGHT - 5);
  const d = `M${f(rand(-5, 15))} ${f(y())}C${f(rand(30, 70))} ${f(rand(-20, 80))} ${f(rand(90, 130))} ${f(rand(-20, 80))} ${f(rand(CAPTCHA_WIDTH - 15, CAPTCHA_WIDTH + 5))} ${f(y())}`;
  return `<path d="${d}" fill="none" stroke="${ink()}" stroke-width="${f(rand(1, 2.4))}"/>`;
}

function dot(): string {
  return `<circle cx="${f(rand(0, CAPTCHA_WIDTH))}" cy="${f(rand(0, CAPTCHA_HEIGHT))}" r="${f(rand(0.7, 1.7))}" fill="${ink()}"/>`;
}

/**
 * The SVG document for `text` (characters of the stroke font). Throws for a character the font lacks, which
 * only a programming error can cause.
 */
export function renderCaptchaSvg(text: string, style: GlyphStyle): string {
  const chars = [...text];
  const cell = (CAPTCHA_WIDTH - 16) / chars.length;
  const unit = Math.min(6, (cell * 0.78) / GLYPH_WIDTH, (CAPTCHA_HEIGHT * 0.7) / GLYPH_HEIGHT);
  const elements: string[] = [];
  chars.forEach((ch, i) => {
    const strokes = GLYPHS[ch];
    if (!strokes) throw new Error(`The captcha font has no glyph for ${JSON.stringify(ch)}.`);
    elements.push(...glyphElements(strokes, 8 + cell * (i + 0.5), CAPTCHA_HEIGHT / 2, unit, style));
  });
  const curves = style === 'wavy' ? randomInt(5, 8) : randomInt(3, 6);
  for (let i = 0; i < curves; i++) elements.push(noiseCurve());
  for (let i = 0, n = randomInt(25, 40); i < n; i++) elements.push(dot());
  const background = `hsl(${randomInt(0, 360)},${randomInt(20, 50)}%,${randomInt(90, 96)}%)`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}" ` +
    `viewBox="0 0 ${CAPTCHA_WIDTH} ${CAPTCHA_HEIGHT}">` +
    `<rect width="100%" height="100%" fill="${background}"/>${shuffle(elements).join('')}</svg>`
  );
}
