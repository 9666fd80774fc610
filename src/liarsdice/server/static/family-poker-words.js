// Poker dice's claims and moves in plain words, from the structured moves the server sends
// (docs/PROTOCOL.md, "Moves": `{"kind": "claim", "category": "pair", "ranks": ["K"],
// "kickers": ["A"]}`, `{"kind": "arrange", "outside": ["K"]}`...). Notation is read only where
// a text format is all there is (a game's record, its analysis: `readMove`).

import { faceWords } from "./dice.js";
import { _, pgettext } from "./i18n.js";
import { bidsWords, faceList, liarWords, withArticles } from "./words.js";

/** @typedef {import("./types.js").Face} Face */
/** @typedef {import("./types.js").Move} Move */

const POKER_ORDER = ["9", "10", "J", "Q", "K", "A"];
export const POKER_FACES = POKER_ORDER;

/**
 * Poker face rank 0..5 (9 lowest, ace highest).
 * @param {Face} face
 */
export function pokerRank(face) {
  return POKER_ORDER.indexOf(String(face));
}

/** @type {[string, string][]} */
export const POKER_CATEGORIES = [
  ["junk", _("Junk")],
  ["high", _("High die")],
  ["pair", _("Pair")],
  ["two pair", _("Two pairs")],
  ["three", _("Three of a kind")],
  ["straight", _("Straight")],
  ["full house", _("Full house")],
  ["four", _("Four of a kind")],
  ["five", _("Five of a kind")],
];

// How many ranks each kind of claim names (a straight: its top face, K low or A high) and
// how many other dice ("kickers") it may add (docs/POKER.md's table of bids).
/** @type {Record<string, {ranks: number, kickers: number}>} */
export const POKER_SHAPES = {
  junk: { ranks: 0, kickers: 0 },
  high: { ranks: 1, kickers: 4 },
  pair: { ranks: 1, kickers: 3 },
  "two pair": { ranks: 2, kickers: 1 },
  three: { ranks: 1, kickers: 2 },
  straight: { ranks: 1, kickers: 0 },
  "full house": { ranks: 2, kickers: 0 },
  four: { ranks: 1, kickers: 1 },
  five: { ranks: 1, kickers: 0 },
};

/**
 * A claim's hand in words: "a pair of kings with an ace and a queen"; "" for no claim.
 * @param {Move | null} move
 */
export function claimWords(move) {
  if (!move || move.kind !== "claim") return "";
  const [r0, r1] = move.ranks;
  /** @param {Face} f */
  const many = (f) => faceWords(f, 2);
  /** @type {Record<string, () => string>} */
  const hands = {
    junk: () => _("junk"),
    straight: () => (r0 === "A" ? _("a high straight (ace to ten)") : _("a low straight (king to nine)")),
    high: () => _("high die {face}", { face: faceWords(r0, 1) }),
    pair: () => _("a pair of {faces}", { faces: many(r0) }),
    "two pair": () => _("two pairs, {faces} and {second}", { faces: many(r0), second: many(r1) }),
    three: () => _("three {faces}", { faces: many(r0) }),
    "full house": () => _("a full house, {faces} over {second}", { faces: many(r0), second: many(r1) }),
    four: () => _("four {faces}", { faces: many(r0) }),
    five: () => _("five {faces}", { faces: many(r0) }),
  };
  const hand = hands[move.category];
  if (!hand) return "";
  const kickers = move.kickers || [];
  return kickers.length ? _("{hand} with {kickers}", { hand: hand(), kickers: withArticles(kickers) }) : hand();
}

/**
 * A move in a sentence, after the player's name ("leaves a king outside the cup") or after
 * "You" (`you`), each a whole predicate message in both persons.
 * @param {Move} move
 */
export function pokerMoveWords(move, you = false) {
  switch (move.kind) {
    case "call":
      return liarWords(you);
    case "accept":
      return you ? pgettext("you", "accept the cup") : _("accepts the cup");
    case "pass":
      if (move.direction === "left") return you ? pgettext("you", "pass the cup to the left") : _("passes the cup to the left");
      return you ? pgettext("you", "pass the cup to the right") : _("passes the cup to the right");
    case "arrange": {
      if (!move.outside.length) return you ? pgettext("you", "put every die under the cup") : _("puts every die under the cup");
      const dice = faceList(move.outside);
      return you ? pgettext("you", "leave {dice} outside the cup", { dice }) : _("leaves {dice} outside the cup", { dice });
    }
    case "roll": {
      const dice = faceList(move.dice);
      if (move.shake && move.dice.length) return you ? pgettext("you", "shake the cup and roll {dice}", { dice }) : _("shakes the cup and rolls {dice}", { dice });
      if (move.shake) return you ? pgettext("you", "shake the cup") : _("shakes the cup");
      if (move.dice.length) return you ? pgettext("you", "roll {dice}", { dice }) : _("rolls {dice}", { dice });
      return you ? pgettext("you", "roll nothing") : _("rolls nothing");
    }
    case "keep": {
      if (!move.dice.length) return you ? pgettext("you", "keep nothing and roll") : _("keeps nothing and rolls");
      const dice = faceList(move.dice);
      return you ? pgettext("you", "keep {dice} and roll the rest", { dice }) : _("keeps {dice} and rolls the rest", { dice });
    }
    default:
      return bidsWords(claimWords(move), you);
  }
}

// ---------------------------------------------------------------- notation, for text formats

const CATEGORIES = ["two pair", "full house", "high", "pair", "three", "four", "five"];

/**
 * The dice a part of notation names: "K A Q" -> ["K", "A", "Q"]; "none" -> [].
 * @param {string} text
 */
function faces(text) {
  const t = text.trim();
  return t && t !== "none" ? t.split(/[\s,]+/).filter(Boolean) : [];
}

/**
 * A move of a record or of an analysis (their notation: "pair K A", "pass left", "out K K",
 * "shake reroll 9", "keep Q Q") as the structured move the server's frames carry; null when
 * it is not poker dice' notation.
 * @param {string} text
 * @returns {Move | null}
 */
export function readPokerMove(text) {
  const t = String(text).trim().replace(/^pass /, "");
  if (t === "liar") return { kind: "call", call: "liar" };
  if (t === "accept") return { kind: "accept" };
  if (t === "left" || t === "right") return { kind: "pass", direction: t };
  if (t === "out" || t.startsWith("out ")) return { kind: "arrange", outside: faces(t.slice(3)) };
  if (t === "no reroll") return { kind: "roll", shake: false, dice: [] };
  if (t === "shake" || t.startsWith("shake ")) return { kind: "roll", shake: true, dice: faces(t.slice(5).replace(/^\s*reroll/, "")) };
  if (t.startsWith("reroll ")) return { kind: "roll", shake: false, dice: faces(t.slice(7)) };
  if (t === "keep" || t.startsWith("keep ")) return { kind: "keep", dice: faces(t.slice(4)) };
  if (t === "junk") return { kind: "claim", category: "junk", ranks: [], kickers: [] };
  if (t === "low straight" || t === "high straight") return { kind: "claim", category: "straight", ranks: [t === "high straight" ? "A" : "K"], kickers: [] };
  const category = CATEGORIES.find((c) => t === c || t.startsWith(`${c} `));
  if (!category) return null;
  const named = faces(t.slice(category.length));
  const n = POKER_SHAPES[category].ranks;
  return { kind: "claim", category, ranks: named.slice(0, n), kickers: named.slice(n) };
}
