// Moves, bids and poker hands in plain words. Notation ("3x5", "pair K A", "show 1,4")
// comes from the server's `legal` list and events; people read sentences.

import { facePlural, faceName } from "./dice.js";
import { parseBid } from "./odds.js";

/** A bid for people: "3x5" -> "3 × fives"; poker bids in words ("a pair of kings"). */
export function bidLabel(text) {
  const bid = parseBid(text);
  if (bid) return `${bid.quantity} × ${bid.quantity === 1 ? faceName(bid.face) : facePlural(bid.face)}`;
  const poker = pokerWords(text);
  return poker || String(text);
}

/** A move in a sentence, after the player's name: "bids 3 × fives", "calls liar". */
export function describeMove(text) {
  const t = String(text);
  if (t === "liar") return "calls liar";
  if (t === "exact") return "calls exact";
  if (t === "accept") return "accepts the cup";
  if (t === "left" || t === "right") return `passes the cup to the ${t}`;
  if (t === "buy") return "buys a die";
  if (t === "no-show") return "shows nothing";
  if (t === "ask turn") return "asks whose turn it is";
  if (t === "ask count") return "asks how many dice are left";
  if (t.startsWith("show ")) return `shows ${withArticles(t.slice(5).split(","))} and re-rolls the rest`;
  if (t.startsWith("out ")) return t === "out none" ? "puts every die under the cup" : `leaves ${faceList(t.slice(4).split(" "))} outside the cup`;
  if (t === "no reroll") return "rolls nothing";
  if (t.startsWith("shake")) return t === "shake" ? "shakes the cup" : `shakes the cup and rolls ${faceList(t.slice(13).split(" "))}`;
  if (t.startsWith("reroll ")) return `rolls ${faceList(t.slice(7).split(" "))}`;
  if (t.startsWith("keep ")) return t === "keep none" ? "keeps nothing and rolls" : `keeps ${faceList(t.slice(5).split(" "))} and rolls the rest`;
  return `bids ${bidLabel(t)}`;
}

/** ["1", "4"] -> "one and four"; poker faces as words too. */
export function faceList(tokens) {
  const words = tokens.filter(Boolean).map((x) => faceName(/^\d+$/.test(x) && !POKER_FACE.has(x) ? Number(x) : x));
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** ["4"] -> "a four"; ["1", "4"] -> "a one and a four" (a die shown is one die, not a count). */
export function withArticles(tokens) {
  const words = tokens.filter(Boolean).map((x) => faceName(/^\d+$/.test(x) && !POKER_FACE.has(x) ? Number(x) : x));
  const a = words.map((w) => (/^(eight|eleven|ace)/.test(w) ? `an ${w}` : `a ${w}`)); // "a one", "an eight"
  if (a.length <= 1) return a.join("");
  return `${a.slice(0, -1).join(", ")} and ${a[a.length - 1]}`;
}

const POKER_FACE = new Set(["9", "10", "J", "Q", "K", "A"]);
const POKER_NAMES = { 9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
const POKER_PLURAL = { 9: "nines", 10: "tens", J: "jacks", Q: "queens", K: "kings", A: "aces" };
const POKER_ORDER = ["9", "10", "J", "Q", "K", "A"];
export const POKER_FACES = POKER_ORDER;

/** Poker face rank 0..5 (9 lowest, ace highest). */
export function pokerRank(face) {
  return POKER_ORDER.indexOf(String(face));
}

const an = (f) => (f === "A" ? "an ace" : `a ${POKER_NAMES[f]}`);
function andList(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
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
  ["junk", "Junk"],
  ["high", "High die"],
  ["pair", "Pair"],
  ["two pair", "Two pairs"],
  ["three", "Three of a kind"],
  ["straight", "Straight"],
  ["full house", "Full house"],
  ["four", "Four of a kind"],
  ["five", "Five of a kind"],
];

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
  switch (cat) {
    case "junk":
      return "junk";
    case "straight":
      return t === "high straight" ? "a high straight (ace to ten)" : "a low straight (king to nine)";
    case "high":
      return k.length > 1 ? `high die ${POKER_NAMES[k[0]]} with ${andList(k.slice(1).map(an))}` : `high die ${POKER_NAMES[k[0]]}`;
    case "pair":
      return k.length > 1 ? `a pair of ${POKER_PLURAL[k[0]]} with ${andList(k.slice(1).map(an))}` : `a pair of ${POKER_PLURAL[k[0]]}`;
    case "two pair":
      return `two pairs, ${POKER_PLURAL[k[0]]} and ${POKER_PLURAL[k[1]]}${k[2] ? ` with ${an(k[2])}` : ""}`;
    case "three":
      return k.length > 1 ? `three ${POKER_PLURAL[k[0]]} with ${andList(k.slice(1).map(an))}` : `three ${POKER_PLURAL[k[0]]}`;
    case "full house":
      return `a full house, ${POKER_PLURAL[k[0]]} over ${POKER_PLURAL[k[1]]}`;
    case "four":
      return k.length > 1 ? `four ${POKER_PLURAL[k[0]]} with ${an(k[1])}` : `four ${POKER_PLURAL[k[0]]}`;
    case "five":
      return `five ${POKER_PLURAL[k[0]]}`;
    default:
      return null;
  }
}

/** 1 -> "1st", 2 -> "2nd", ... */
export function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${s}`;
}
