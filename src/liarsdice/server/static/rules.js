// The games on offer, in plain words: a title and a one-line summary per preset, and the
// rules that are on. The server's `/api/presets` entries carry `rules` (plain sentences);
// these are the client's own words for a server that doesn't send them yet, and the words
// shown in a language other than English (the server's sentences are English).

import { _, currentLanguage, ngettext } from "./i18n.js";

const PRESETS = {
  classic: {
    title: _("Classic"),
    summary: _("The standard game: five dice each, ones are wild, lose as many dice as the bid was off by."),
    rules: [
      _("Everyone starts with 5 dice."),
      _("Ones are wild: they count as any face (except when the bid is on ones)."),
      _("Raise by bidding more dice, or the same number of a higher face. A bid on ones needs only about half the number (3 × fives can be raised to 2 × ones)."),
      _("Call “Liar!” when you think the last bid is too high. The dice are counted."),
      _("Whoever was wrong loses as many dice as the count was off by."),
      _("If the count is exactly the bid, everyone except the bidder loses one die."),
      _("The player who lost dice opens the next round. The last player with dice wins."),
    ],
  },
  perudo: {
    title: _("Perudo"),
    summary: _("The South American classic: lose one die at a time, call “Exact!” to win one back, palifico rounds."),
    rules: [
      _("Everyone starts with 5 dice."),
      _("Ones are wild (they count as any face), but you can't open a round by bidding on ones."),
      _("Raise by bidding more dice, or the same number of a higher face. Switching to ones needs half the number rounded up; switching back needs double plus one."),
      _("Call “Liar!” when you think the last bid is too high: whoever was wrong loses one die."),
      _("Call “Exact!” when you think the bid is exactly right: if so you win back a die (never above 5), if not you lose one."),
      _("When a player first drops to one die, the next round is palifico: ones are not wild and the face can't change after the opening bid."),
      _("The player who lost a die opens the next round. The last player with dice wins."),
    ],
  },
  "milton-bradley": {
    title: _("Milton Bradley"),
    summary: _("The 1987 board game: show some dice and re-roll the rest before you raise."),
    rules: [
      _("Everyone starts with 5 dice. Ones are wild."),
      _("Before raising you may show some of your dice to everyone and re-roll the rest (keep at least one hidden). Then you must raise."),
      _("Shown dice stay on the table for the round and count for every bid."),
      _("Call “Liar!” when you think the last bid is too high. Whoever was wrong loses as many dice as the count was off by."),
      _("If the count is exactly the bid, everyone except the bidder loses a die (a player down to their last die keeps it, unless they made the call)."),
      _("The winner of the challenge opens the next round. The last player with dice wins."),
    ],
  },
  "house-rules": {
    title: _("House rules"),
    summary: _("A table's house rules: roll for who starts, and asking questions costs a die."),
    rules: [
      _("Everyone starts with 5 dice. Ones are wild."),
      _("To decide who starts, everyone rolls one die: the highest opens."),
      _("Call “Liar!” when you think the last bid is too high. Whoever was wrong loses as many dice as the count was off by; an exact count costs the caller one die."),
      _("Asking “whose turn is it?” or “how many dice are left?” costs you a die at the end of the round."),
      _("The player who lost dice opens the next round. The last player with dice wins."),
    ],
  },
  "spot-on": {
    title: _("Spot-on"),
    summary: _("No wild dice, and you can call a bid exactly right."),
    rules: [
      _("Everyone starts with 5 dice. No face is wild."),
      _("Raise by bidding more dice (any face), or the same number of a higher face."),
      _("Call “Liar!” when you think the last bid is too high: whoever was wrong loses one die."),
      _("Call “Spot on!” when you think the bid is exactly right: if so everyone else loses a die, if not you lose one."),
      _("The player who made the called bid opens the next round. The last player with dice wins."),
    ],
  },
  room: {
    title: _("Online room"),
    summary: _("Four dice each, sixes below ones, and a bid stands until everyone has called it."),
    rules: [
      _("Everyone starts with 4 dice. No face is wild; faces rank 2, 3, 4, 5, 6 and then 1 highest."),
      _("Each bid may not lower the number or the face, and must raise at least one of them."),
      _("A bid is settled only when every other player has called it."),
      _("If the bid is true the bidder wins the game outright; if not the bidder loses a die."),
      _("A player who runs out of dice loses a point and is out."),
    ],
  },
  openspiel: {
    title: _("One-die duel (OpenSpiel)"),
    summary: _("Two players, one die each, one round: the research game."),
    rules: [
      _("Two players, one die each, a single round."),
      _("Sixes are wild (a bid on sixes counts only sixes)."),
      _("Raise by bidding more dice, or the same number of a higher face."),
      _("Call “Liar!” to end it: the caller wins if the bid was false."),
    ],
  },
  "snyd-normal": {
    title: _("One-die duel (no wilds)"),
    summary: _("Two players, one die each, one round, no wild dice."),
    rules: [
      _("Two players, one die each, a single round. No face is wild."),
      _("Raise by bidding more dice, or the same number of a higher face."),
      _("Call “Liar!” to end it: the caller wins if the bid was false."),
    ],
  },
  "snyd-joker": {
    title: _("One-die duel (ones wild)"),
    summary: _("Two players, one die each, one round, ones are wild."),
    rules: [
      _("Two players, one die each, a single round. Ones are wild for the other faces."),
      _("Raise by bidding more dice, or the same number of a higher face."),
      _("Call “Liar!” to end it: the caller wins if the bid was false."),
    ],
  },
  "poker-dice": {
    title: _("Poker dice"),
    summary: _("One cup of five poker dice goes round the table: claim a poker hand and pass it on."),
    rules: [
      _("One cup of five poker dice (9, 10, jack, queen, king, ace) travels around the table. Everyone has 3 lives."),
      _("The first player rolls under the cup, looks, claims a poker hand (true or not) and passes the cup left or right."),
      _("The next player either calls “Liar!” (the cup is lifted) or accepts the cup."),
      _("Accepting: look, leave any dice you like outside the cup for everyone to see, re-roll the dice under the cup or outside, and claim a higher hand."),
      _("If the hand is at least what was claimed, the caller loses a life; otherwise the bidder does."),
      _("Accepting five of a kind means making five of a kind yourself in three rolls, or losing a life."),
      _("The last player with lives wins."),
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
  const ours = PRESETS[preset && preset.name];
  if (ours && currentLanguage() !== "en") return ours.rules;
  if (preset && Array.isArray(preset.rules) && preset.rules.length) return preset.rules.map(String);
  return (PRESETS[preset && preset.name] || { rules: [] }).rules;
}

/** Rule options changed from the preset, as sentences ({dice: 3} -> "Everyone starts with 3 dice."). */
export function optionSentences(options) {
  const out = [];
  for (const [k, v] of Object.entries(options || {})) {
    switch (k) {
      case "dice":
        out.push(Array.isArray(v) ? _("Starting dice per seat: {dice}.", { dice: v.join(", ") }) : ngettext("Changed: everyone starts with {n} die.", "Changed: everyone starts with {n} dice.", Number(v), { n: v }));
        break;
      case "lives":
        out.push(ngettext("Changed: everyone starts with {n} life.", "Changed: everyone starts with {n} lives.", Number(v), { n: v }));
        break;
      case "wild":
        out.push(v === "none" || v === null ? _("Changed: no face is wild.") : _("Changed: {face}s are wild.", { face: v }));
        break;
      case "loss":
        out.push(v === "one" ? _("Changed: a lost challenge costs one die.") : _("Changed: a lost challenge costs as many dice as the count was off by."));
        break;
      case "palifico":
        out.push(v === true || v === "true" ? _("Changed: palifico rounds are on.") : _("Changed: no palifico rounds."));
        break;
      case "faces":
        out.push(_("Changed: dice have {n} faces.", { n: v }));
        break;
      default:
        out.push(_("Changed: {option} is {value}.", { option: k.replaceAll("_", " "), value: Array.isArray(v) ? v.join(", ") : v }));
    }
  }
  return out;
}

/** The basics every newcomer needs, whatever the preset. */
export const BASICS = [
  _("Everyone rolls their dice under a cup and sees only their own."),
  _("Take turns bidding how many dice of one face there are on the whole table, counting everyone's dice: “four fives” means at least four dice show five."),
  _("Each bid must beat the last one. If you think the last bid is too high, call “Liar!”: the cups are lifted and the dice counted."),
];
