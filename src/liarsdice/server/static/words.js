// Words shared by every rule family: faces in lists ("a one and a four"), the sentences of a
// call and of a bid ("calls liar", "bids {bid}"), ordinals. Each family says its own moves,
// bids and hands with these (family-bidding.js, family-poker.js).

import { faceName } from "./dice.js";
import { _, andList, currentLanguage, pgettext } from "./i18n.js";

/** @typedef {import("./types.js").Face} Face */

/**
 * ["1", "4"] or [1, 4] -> "one and four"; poker faces as words too.
 * @param {Face[]} faces
 */
export function faceList(faces) {
  return andList(faces.filter((x) => x !== "" && x !== null && x !== undefined).map((x) => faceName(x)));
}

// A die shown is one die, not a count: "a one", "an eight" ("un uno", "un ocho").
/** @type {Record<Face, () => string>} */
const ARTICLED = {
  1: () => _("a one"),
  2: () => _("a two"),
  3: () => _("a three"),
  4: () => _("a four"),
  5: () => _("a five"),
  6: () => _("a six"),
  7: () => _("a seven"),
  8: () => _("an eight"),
  9: () => _("a nine"),
  10: () => _("a ten"),
  11: () => _("an eleven"),
  12: () => _("a twelve"),
  J: () => _("a jack"),
  Q: () => _("a queen"),
  K: () => _("a king"),
  A: () => _("an ace"),
};
/** @param {Face} f */
const an = (f) => (ARTICLED[f] ? ARTICLED[f]() : String(f));

/**
 * [4] -> "a four"; [1, 4] -> "a one and a four"; ["K", "A"] -> "a king and an ace".
 * @param {Face[]} faces
 */
export function withArticles(faces) {
  return andList(faces.filter((x) => x !== "" && x !== null && x !== undefined).map(an));
}

/** Calling liar, after the player's name ("calls liar") or after "You" (`you`). */
export function liarWords(you = false) {
  return you ? pgettext("you", "call liar") : _("calls liar");
}

/**
 * Making the bid `bid` (already in words), after the name ("bids 3 × fives") or after "You".
 * @param {string} bid
 */
export function bidsWords(bid, you = false) {
  return you ? pgettext("you", "bid {bid}", { bid }) : _("bids {bid}", { bid });
}

/**
 * 1 -> "1st", 2 -> "2nd", ... ("1.º" in Spanish: one message, "{n}th", for every number).
 * @param {number} n
 */
export function ordinal(n) {
  if (currentLanguage() !== "en") return pgettext("ordinal", "{n}th", { n });
  /** @type {Record<number, string>} */
  const suffixes = { 1: "st", 2: "nd", 3: "rd" };
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : suffixes[n % 10] || "th";
  return `${n}${s}`;
}
