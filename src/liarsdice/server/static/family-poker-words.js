// Poker dice's claims and moves in plain words, and the parts of a claim the claim builder
// works with. Notation ("pair K A Q", "out K K", "keep Q Q") comes from the server's `legal`
// list and events; people read sentences.

import { faceWords } from "./dice.js";
import { _, pgettext } from "./i18n.js";
import { bidsWords, faceList, liarWords, withArticles } from "./words.js";

const POKER_ORDER = ["9", "10", "J", "Q", "K", "A"];
export const POKER_FACES = POKER_ORDER;

/** Poker face rank 0..5 (9 lowest, ace highest). */
export function pokerRank(face) {
  return POKER_ORDER.indexOf(String(face));
}

/** The category of a poker bid ("pair", "two pair", "straight", ...), or null. */
export function pokerCategory(text) {
  const t = String(text);
  if (t === "junk") return "junk";
  if (t === "low straight" || t === "high straight") return "straight";
  for (const c of ["two pair", "full house", "high", "pair", "three", "four", "five"]) {
    if (t === c || t.startsWith(`${c} `)) return c;
  }
  return null;
}

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
 * A poker claim in parts: "pair K A Q" -> {cat: "pair", ranks: ["K"], kickers: ["A", "Q"]},
 * "high straight" -> {cat: "straight", ranks: ["A"], kickers: []}; null if not a claim.
 */
export function pokerParts(text) {
  const cat = pokerCategory(text);
  if (!cat) return null;
  if (cat === "straight") return { cat, ranks: [String(text) === "high straight" ? "A" : "K"], kickers: [] };
  const tokens = pokerTokens(text);
  const n = POKER_SHAPES[cat].ranks;
  return { cat, ranks: tokens.slice(0, n), kickers: tokens.slice(n) };
}

const byRankDown = (a, b) => pokerRank(b) - pokerRank(a);

/** A claim's parts back in notation, as the engine writes it (two pairs and kickers highest first). */
export function pokerText({ cat, ranks, kickers }) {
  if (cat === "junk") return "junk";
  if (cat === "straight") return ranks[0] === "A" ? "high straight" : "low straight";
  const made = cat === "two pair" ? [...ranks].sort(byRankDown) : ranks;
  const others = kickers.filter(Boolean).sort(byRankDown);
  return [cat, ...made, ...others].join(" ");
}

/**
 * The best reading of five poker dice as a claim, in notation, as the engine reads a hand
 * (core/poker/hands.py's `hand_bid`): ["K", "9", "K", "J", "10"] -> "pair K J 10 9"; null
 * unless five poker faces.
 */
export function pokerHand(faces) {
  const dice = (faces || []).map(String);
  if (dice.length !== 5 || dice.some((f) => pokerRank(f) < 0)) return null;
  const counts = new Map();
  for (const f of dice) counts.set(f, (counts.get(f) || 0) + 1);
  // The faces, most often first, then highest first: K K J 10 9 -> [K, J, 10, 9].
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || pokerRank(b[0]) - pokerRank(a[0]));
  const shape = groups.map(([, n]) => n).join("");
  const f = groups.map(([face]) => face);
  const cat = { 5: "five", 41: "four", 32: "full house", 311: "three", 221: "two pair", 2111: "pair" }[shape];
  if (cat) return pokerText({ cat, ranks: f.slice(0, POKER_SHAPES[cat].ranks), kickers: f.slice(POKER_SHAPES[cat].ranks) });
  if (pokerRank(f[0]) - pokerRank(f[4]) === 4) return pokerText({ cat: "straight", ranks: [f[0]], kickers: [] });
  return pokerText({ cat: "high", ranks: f.slice(0, 1), kickers: f.slice(1) });
}

/** The dice a poker bid names, after its category: "pair K A Q" -> ["K", "A", "Q"]. */
export function pokerTokens(text) {
  const cat = pokerCategory(text);
  if (!cat || cat === "junk" || cat === "straight") return [];
  return String(text).slice(cat.length).trim().split(/\s+/).filter(Boolean);
}

/** A poker bid in words: "pair K A Q" -> "a pair of kings, an ace and a queen"; null if not one. */
export function pokerWords(text) {
  const t = String(text);
  const cat = pokerCategory(t);
  if (!cat) return null;
  const k = pokerTokens(t);
  const one = (f) => faceWords(f, 1);
  const many = (f) => faceWords(f, 2);
  const hand = (() => {
    switch (cat) {
      case "junk":
        return _("junk");
      case "straight":
        return t === "high straight" ? _("a high straight (ace to ten)") : _("a low straight (king to nine)");
      case "high":
        return _("high die {face}", { face: one(k[0]) });
      case "pair":
        return _("a pair of {faces}", { faces: many(k[0]) });
      case "two pair":
        return _("two pairs, {faces} and {second}", { faces: many(k[0]), second: many(k[1]) });
      case "three":
        return _("three {faces}", { faces: many(k[0]) });
      case "full house":
        return _("a full house, {faces} over {second}", { faces: many(k[0]), second: many(k[1]) });
      case "four":
        return _("four {faces}", { faces: many(k[0]) });
      case "five":
        return _("five {faces}", { faces: many(k[0]) });
      default:
        return null;
    }
  })();
  if (hand === null) return null;
  const kickers = cat === "two pair" ? k.slice(2, 3) : cat === "four" ? k.slice(1, 2) : ["high", "pair", "three"].includes(cat) ? k.slice(1) : [];
  if (!kickers.length) return hand;
  return _("{hand} with {kickers}", { hand, kickers: withArticles(kickers) });
}

/** A claim for people ("a pair of kings"), or the notation when it is not one. */
export function claimWords(text) {
  return pokerWords(text) || String(text);
}

/**
 * A move in a sentence, after the player's name ("leaves a king outside the cup") or after
 * "You" (`you`), each a whole predicate message in both persons.
 */
export function pokerMoveWords(text, you = false) {
  const t = String(text);
  const dice = (from) => faceList(t.slice(from).split(" "));
  if (t === "liar") return liarWords(you);
  if (t === "accept") return you ? pgettext("you", "accept the cup") : _("accepts the cup");
  if (t === "left") return you ? pgettext("you", "pass the cup to the left") : _("passes the cup to the left");
  if (t === "right") return you ? pgettext("you", "pass the cup to the right") : _("passes the cup to the right");
  if (t === "out none") return you ? pgettext("you", "put every die under the cup") : _("puts every die under the cup");
  if (t.startsWith("out ")) return you ? pgettext("you", "leave {dice} outside the cup", { dice: dice(4) }) : _("leaves {dice} outside the cup", { dice: dice(4) });
  if (t === "no reroll") return you ? pgettext("you", "roll nothing") : _("rolls nothing");
  if (t === "shake") return you ? pgettext("you", "shake the cup") : _("shakes the cup");
  if (t.startsWith("shake")) return you ? pgettext("you", "shake the cup and roll {dice}", { dice: dice(13) }) : _("shakes the cup and rolls {dice}", { dice: dice(13) });
  if (t.startsWith("reroll ")) return you ? pgettext("you", "roll {dice}", { dice: dice(7) }) : _("rolls {dice}", { dice: dice(7) });
  if (t === "keep none") return you ? pgettext("you", "keep nothing and roll") : _("keeps nothing and rolls");
  if (t.startsWith("keep ")) return you ? pgettext("you", "keep {dice} and roll the rest", { dice: dice(5) }) : _("keeps {dice} and rolls the rest", { dice: dice(5) });
  return bidsWords(claimWords(t), you);
}
