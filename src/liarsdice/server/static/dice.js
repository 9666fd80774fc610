// Dice drawn as SVG: pips for faces 1..6, the number for bigger dice (the `faces` option goes
// up to 12), the letter for poker dice (9 10 J Q K A). Every die is role="img" with its face
// in words as the accessible name ("five", "queen"), and carries data-face for tests.

const SVG = "http://www.w3.org/2000/svg";

import { npgettext, pgettext, _ } from "./i18n.js";

/** @typedef {import("./types.js").Face} Face */

// A face in words, in the singular or the plural of a count (the terminal's catalogue has the
// same messages: "cinco", "cincos"; poker faces "rey", "reyes").
/** @type {(((n: number) => string) | null)[]} */
const FACE_WORDS = [
  null,
  (n) => npgettext("face", "one", "ones", n),
  (n) => npgettext("face", "two", "twos", n),
  (n) => npgettext("face", "three", "threes", n),
  (n) => npgettext("face", "four", "fours", n),
  (n) => npgettext("face", "five", "fives", n),
  (n) => npgettext("face", "six", "sixes", n),
  (n) => npgettext("face", "seven", "sevens", n),
  (n) => npgettext("face", "eight", "eights", n),
  (n) => npgettext("face", "nine", "nines", n),
  (n) => npgettext("face", "ten", "tens", n),
  (n) => npgettext("face", "eleven", "elevens", n),
  (n) => npgettext("face", "twelve", "twelves", n),
];
/** @type {Record<string, (n: number) => string>} */
const POKER_FACE_WORDS = {
  9: (n) => npgettext("poker face", "nine", "nines", n),
  10: (n) => npgettext("poker face", "ten", "tens", n),
  J: (n) => npgettext("poker face", "jack", "jacks", n),
  Q: (n) => npgettext("poker face", "queen", "queens", n),
  K: (n) => npgettext("poker face", "king", "kings", n),
  A: (n) => npgettext("poker face", "ace", "aces", n),
};

/**
 * A face in words agreeing with the count `n`: (5, 1) -> "five", (5, 3) -> "fives".
 * @param {Face} face
 * @param {number} n
 */
export function faceWords(face, n) {
  const f = typeof face === "number" ? FACE_WORDS[face] : POKER_FACE_WORDS[face];
  return f ? f(n) : String(face);
}

// Pip centres on a 100x100 die, for faces 1..6.
const L = 27, M = 50, R = 73;
/** @type {Record<number, [number, number][]>} */
const PIPS = {
  1: [[M, M]],
  2: [[L, L], [R, R]],
  3: [[L, L], [M, M], [R, R]],
  4: [[L, L], [R, L], [L, R], [R, R]],
  5: [[L, L], [R, L], [M, M], [L, R], [R, R]],
  6: [[L, L], [R, L], [L, M], [R, M], [L, R], [R, R]],
};

/**
 * A face in words: 5 -> "five", "Q" -> "queen".
 * @param {Face} face
 */
export function faceName(face) {
  return faceWords(face, 1);
}

/**
 * A face in words, plural: 5 -> "fives", 6 -> "sixes".
 * @param {Face} face
 */
export function facePlural(face) {
  return faceWords(face, 2);
}

/**
 * An SVG element with these attributes.
 * @param {string} tag
 * @param {Record<string, unknown>} attrs
 */
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * One die. `face` is an int (bidding family) or a poker face string.
 * Options: `match` (highlight: it counts for the bid), `small` (a smaller die), `glyph` (a
 * picture of a face, e.g. in a bid or on a button: not a die anyone holds; hidden from
 * screen readers unless `label` is given), `src` (where a held die comes from: "mine",
 * "shown", "reveal", "outside", "cup", "stash", "replay"; kept as data-src for tests).
 * @param {Face} face
 * @param {{match?: boolean, small?: boolean, glyph?: boolean, src?: string | null, label?: string | null}} [options]
 */
export function die(face, { match = false, small = false, glyph = false, src = null, label = null } = {}) {
  const classes = ["die"];
  if (match) classes.push("match");
  if (small) classes.push("small");
  if (glyph) classes.push("glyph");
  if (typeof face === "string") classes.push("poker");
  /** @type {Record<string, unknown>} */
  const attrs = {
    viewBox: "0 0 100 100",
    class: classes.join(" "),
    "data-face": face,
    focusable: "false",
  };
  if (glyph && !label) {
    attrs["aria-hidden"] = "true";
  } else {
    attrs.role = "img";
    attrs["aria-label"] = label || faceName(face);
  }
  if (src) attrs["data-src"] = src;
  const box = svg("svg", attrs);
  box.append(svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, class: "die-body" }));
  const pips = typeof face === "number" ? PIPS[face] : undefined;
  if (pips) {
    for (const [cx, cy] of pips) box.append(svg("circle", { cx, cy, r: 9, class: "pip" }));
  } else {
    const text = svg("text", {
      x: 50, y: 53, "text-anchor": "middle", "dominant-baseline": "middle", class: "die-label",
    });
    text.textContent = String(face);
    box.append(text);
  }
  return box;
}

/**
 * A die seen from outside the cup: no face (the viewer doesn't know it). Decorative.
 * `blank`: no "?" either (a die that is just counted, e.g. after the game).
 */
export function dieBack({ small = true, blank = false } = {}) {
  const box = svg("svg", { viewBox: "0 0 100 100", class: `die-back${small ? " small" : ""}${blank ? " blank" : ""}`, "aria-hidden": "true", focusable: "false" });
  box.append(svg("rect", { x: 6, y: 6, width: 88, height: 88, rx: 18, class: "die-back-body" }));
  if (!blank) {
    box.append(svg("text", { x: 50, y: 56, "text-anchor": "middle", "dominant-baseline": "middle", class: "die-back-mark" }));
    box.lastChild.textContent = "?";
  }
  return box;
}

/** A dice cup (decorative SVG). */
export function cup() {
  const box = svg("svg", { viewBox: "0 0 100 100", class: "cup", "aria-hidden": "true", focusable: "false" });
  box.append(svg("path", { d: "M22 10 H78 L90 88 Q50 100 10 88 Z", class: "cup-body" }));
  box.append(svg("path", { d: "M14 82 Q50 94 86 82", class: "cup-rim" }));
  box.append(svg("path", { d: "M30 22 L26 76", class: "cup-shine" }));
  return box;
}

/**
 * A row of dice with a text equivalent: the row's accessible name lists the faces in words
 * ("Your dice: two, five, five"), and each die is also named on its own.
 * `matches(face)` decides which dice to highlight.
 * @param {Face[]} faces
 * @param {{label?: string, matches?: (face: Face) => boolean, small?: boolean, attrs?: Record<string, unknown>, src?: string | null}} [options]
 */
export function diceRow(faces, { label = "", matches = () => false, small = false, attrs = {}, src = null } = {}) {
  const row = document.createElement("span");
  row.className = "dice";
  row.setAttribute("role", "group");
  const words = faces.map(faceName).join(", ");
  const listed = words || pgettext("dice", "none");
  row.setAttribute("aria-label", label ? _("{label}: {dice}", { label, dice: listed }) : listed);
  for (const [k, v] of Object.entries(attrs)) row.setAttribute(k, String(v));
  for (const f of faces) row.append(die(f, { match: matches(f), small, src }));
  return row;
}
