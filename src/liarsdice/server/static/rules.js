// The games on offer, in plain words: a title and a one-line summary per preset, and the
// rules that are on. The server's `/api/presets` entries carry `rules` (plain sentences);
// these are the client's own words for a server that doesn't send them yet.

const PRESETS = {
  classic: {
    title: "Classic",
    summary: "The standard game: five dice each, ones are wild, lose as many dice as the bid was off by.",
    rules: [
      "Everyone starts with 5 dice.",
      "Ones are wild: they count as any face (except when the bid is on ones).",
      "Raise by bidding more dice, or the same number of a higher face. A bid on ones needs only about half the number (3 × fives can be raised to 2 × ones).",
      "Call “Liar!” when you think the last bid is too high. The dice are counted.",
      "Whoever was wrong loses as many dice as the count was off by.",
      "If the count is exactly the bid, everyone except the bidder loses one die.",
      "The player who lost dice opens the next round. The last player with dice wins.",
    ],
  },
  perudo: {
    title: "Perudo",
    summary: "The South American classic: lose one die at a time, call “Exact!” to win one back, palifico rounds.",
    rules: [
      "Everyone starts with 5 dice.",
      "Ones are wild (they count as any face), but you can't open a round by bidding on ones.",
      "Raise by bidding more dice, or the same number of a higher face. Switching to ones needs half the number rounded up; switching back needs double plus one.",
      "Call “Liar!” when you think the last bid is too high: whoever was wrong loses one die.",
      "Call “Exact!” when you think the bid is exactly right: if so you win back a die (never above 5), if not you lose one.",
      "When a player first drops to one die, the next round is palifico: ones are not wild and the face can't change after the opening bid.",
      "The player who lost a die opens the next round. The last player with dice wins.",
    ],
  },
  "milton-bradley": {
    title: "Milton Bradley",
    summary: "The 1987 board game: show some dice and re-roll the rest before you raise.",
    rules: [
      "Everyone starts with 5 dice. Ones are wild.",
      "Before raising you may show some of your dice to everyone and re-roll the rest (keep at least one hidden). Then you must raise.",
      "Shown dice stay on the table for the round and count for every bid.",
      "Call “Liar!” when you think the last bid is too high. Whoever was wrong loses as many dice as the count was off by.",
      "If the count is exactly the bid, everyone except the bidder loses a die (a player down to their last die keeps it, unless they made the call).",
      "The winner of the challenge opens the next round. The last player with dice wins.",
    ],
  },
  "house-rules": {
    title: "House rules",
    summary: "A table's house rules: roll for who starts, and asking questions costs a die.",
    rules: [
      "Everyone starts with 5 dice. Ones are wild.",
      "To decide who starts, everyone rolls one die: the highest opens.",
      "Call “Liar!” when you think the last bid is too high. Whoever was wrong loses as many dice as the count was off by; an exact count costs the caller one die.",
      "Asking “whose turn is it?” or “how many dice are left?” costs you a die at the end of the round.",
      "The player who lost dice opens the next round. The last player with dice wins.",
    ],
  },
  "spot-on": {
    title: "Spot-on",
    summary: "No wild dice, and you can call a bid exactly right.",
    rules: [
      "Everyone starts with 5 dice. No face is wild.",
      "Raise by bidding more dice (any face), or the same number of a higher face.",
      "Call “Liar!” when you think the last bid is too high: whoever was wrong loses one die.",
      "Call “Spot on!” when you think the bid is exactly right: if so everyone else loses a die, if not you lose one.",
      "The player who made the called bid opens the next round. The last player with dice wins.",
    ],
  },
  room: {
    title: "Online room",
    summary: "Four dice each, sixes below ones, and a bid stands until everyone has called it.",
    rules: [
      "Everyone starts with 4 dice. No face is wild; faces rank 2, 3, 4, 5, 6 and then 1 highest.",
      "Each bid may not lower the number or the face, and must raise at least one of them.",
      "A bid is settled only when every other player has called it.",
      "If the bid is true the bidder wins the game outright; if not the bidder loses a die.",
      "A player who runs out of dice loses a point and is out.",
    ],
  },
  openspiel: {
    title: "One-die duel (OpenSpiel)",
    summary: "Two players, one die each, one round: the research game.",
    rules: [
      "Two players, one die each, a single round.",
      "Sixes are wild (a bid on sixes counts only sixes).",
      "Raise by bidding more dice, or the same number of a higher face.",
      "Call “Liar!” to end it: the caller wins if the bid was false.",
    ],
  },
  "snyd-normal": {
    title: "One-die duel (no wilds)",
    summary: "Two players, one die each, one round, no wild dice.",
    rules: [
      "Two players, one die each, a single round. No face is wild.",
      "Raise by bidding more dice, or the same number of a higher face.",
      "Call “Liar!” to end it: the caller wins if the bid was false.",
    ],
  },
  "snyd-joker": {
    title: "One-die duel (ones wild)",
    summary: "Two players, one die each, one round, ones are wild.",
    rules: [
      "Two players, one die each, a single round. Ones are wild for the other faces.",
      "Raise by bidding more dice, or the same number of a higher face.",
      "Call “Liar!” to end it: the caller wins if the bid was false.",
    ],
  },
  "poker-dice": {
    title: "Poker dice",
    summary: "One cup of five poker dice goes round the table: claim a poker hand and pass it on.",
    rules: [
      "One cup of five poker dice (9, 10, jack, queen, king, ace) travels around the table. Everyone has 3 lives.",
      "The first player rolls under the cup, looks, claims a poker hand (true or not) and passes the cup left or right.",
      "The next player either calls “Liar!” (the cup is lifted) or accepts the cup.",
      "Accepting: look, leave any dice you like outside the cup for everyone to see, re-roll the dice under the cup or outside, and claim a higher hand.",
      "If the hand is at least what was claimed, the caller loses a life; otherwise the bidder does.",
      "Accepting five of a kind means making five of a kind yourself in three rolls, or losing a life.",
      "The last player with lives wins.",
    ],
  },
};

/** The preset's title for people ("Perudo"), falling back to the name. */
export function presetTitle(name) {
  return (PRESETS[name] && PRESETS[name].title) || String(name || "");
}

/** One line on what the game is like. */
export function presetSummary(preset) {
  const known = PRESETS[preset.name];
  if (known) return known.summary;
  // The server's own description.
  return String(preset.description || "");
}

/** The rules that are on, as sentences: the server's when it sends them, else ours. */
export function presetRules(preset) {
  if (preset && Array.isArray(preset.rules) && preset.rules.length) return preset.rules.map(String);
  return (PRESETS[preset && preset.name] || { rules: [] }).rules;
}

/** Rule options changed from the preset, as sentences ({dice: 3} -> "Everyone starts with 3 dice."). */
export function optionSentences(options) {
  const out = [];
  for (const [k, v] of Object.entries(options || {})) {
    switch (k) {
      case "dice":
        out.push(Array.isArray(v) ? `Starting dice per seat: ${v.join(", ")}.` : `Changed: everyone starts with ${v} ${Number(v) === 1 ? "die" : "dice"}.`);
        break;
      case "lives":
        out.push(`Changed: everyone starts with ${v} ${Number(v) === 1 ? "life" : "lives"}.`);
        break;
      case "wild":
        out.push(v === "none" || v === null ? "Changed: no face is wild." : `Changed: ${v}s are wild.`);
        break;
      case "loss":
        out.push(v === "one" ? "Changed: a lost challenge costs one die." : "Changed: a lost challenge costs as many dice as the count was off by.");
        break;
      case "palifico":
        out.push(v === true || v === "true" ? "Changed: palifico rounds are on." : "Changed: no palifico rounds.");
        break;
      case "faces":
        out.push(`Changed: dice have ${v} faces.`);
        break;
      default:
        out.push(`Changed: ${k.replaceAll("_", " ")} is ${Array.isArray(v) ? v.join(", ") : v}.`);
    }
  }
  return out;
}

/** The basics every newcomer needs, whatever the preset. */
export const BASICS = [
  "Everyone rolls their dice under a cup and sees only their own.",
  "Take turns bidding how many dice of one face there are on the whole table, counting everyone's dice: “four fives” means at least four dice show five.",
  "Each bid must beat the last one. If you think the last bid is too high, call “Liar!”: the cups are lifted and the dice counted.",
];
