// Poker dice in the browser (one cup of five dice passed around the table, claims about the
// hand under it, lives): its answers to what the shared modules ask of a family (family.js's
// `Family`, as the server's `families/base.py`). The cup, the dice outside it, lives, the
// holder of the cup and the five-of-a-kind attempts are this module's; the shared modules
// never ask which family they have.

import { h, sync } from "./dom.js";
import { _, ngettext, parts as withNodes, pgettext } from "./i18n.js";
import { die, diceRow } from "./dice.js";
import { nameOf, speaker } from "./facts.js";
import { claimWords, pokerMoveWords, readPokerMove } from "./family-poker-words.js";
import { PokerControls } from "./family-poker-moves.js";

/** @typedef {import("./types.js").Face} Face */
/** @typedef {import("./types.js").Family} Family */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").PlateFacts} PlateFacts */
/** @typedef {import("./types.js").RecordRound} RecordRound */
/** @typedef {import("./types.js").Reveal} Reveal */
/** @typedef {import("./types.js").ReplayStep} ReplayStep */
/** @typedef {import("./types.js").ResultWords} ResultWords */
/** @typedef {import("./types.js").RevealCount} RevealCount */
/** @typedef {import("./types.js").RoundResult} RoundResult */
/** @typedef {import("./types.js").SummaryRound} SummaryRound */
/** @typedef {import("./types.js").TableState} TableState */
/** @typedef {import("./types.js").View} View */
/**
 * A poker round's result: it gives positions (`caller`, `bidder`, `loser`).
 * @typedef {RoundResult & {caller: number, bidder: number}} PokerResult
 */

// ---------------------------------------------------------------- the rounds

/**
 * Lives left of a position in the game, or null.
 * @param {View} view
 * @param {number} seat
 * @returns {number | null}
 */
function stock(view, seat) {
  if (!view || !view.names || seat >= view.names.length) return null;
  return view.lives[seat];
}

/**
 * For each position, the round it went out in (Infinity: still in), from the results.
 * @param {View} view
 * @returns {number[]}
 */
function outRounds(view) {
  const outAt = new Array(view.names.length).fill(Infinity);
  (view.results || []).forEach((res, r) => {
    for (const s of res.eliminated || []) if (outAt[s] === Infinity) outAt[s] = r;
    (res.lives || []).forEach((l, s) => {
      if (l === 0 && outAt[s] === Infinity) outAt[s] = r;
    });
  });
  return outAt;
}

// ---------------------------------------------------------------- the table

/**
 * A seat's plate: its lives as hearts, and whether it holds the cup.
 * @param {TableState} S
 * @param {PlateFacts} facts
 */
function plateStock(S, { p, count, out, isPlaying }) {
  const holds = S.view.holder === p;
  return {
    sig: [holds],
    build: () => {
      const hearts = h("span", { class: "lives", "aria-hidden": "true" });
      for (let j = 0; j < Math.min(count, 9); j++) hearts.append(h("span", { class: "heart", text: "♥" }));
      return [
        hearts,
        h("span", { class: "stock-text", text: out ? pgettext("player", "out") : ngettext("{n} life", "{n} lives", count) }),
        isPlaying && holds ? h("span", { class: "holder", text: _("has the cup") }) : null,
      ];
    },
  };
}

/**
 * The big picture of a claim: the hand in words (`text`: its notation, for data-bid).
 * @param {Move} claim
 * @param {string} text
 */
function bidPicture(claim, text) {
  return h("span", { class: "bid-picture poker-bid", id: "current-bid-text", "data-bid": text, text: claimWords(claim) });
}

/**
 * The centre under the claim: the dice outside the cup, how many are under it, the way it goes.
 * @param {TableState} S
 */
function centre(S) {
  const v = S.view;
  /** @type {HTMLElement[]} */
  const parts = [];
  if (v.outside && v.outside.length) parts.push(h("div", { class: "outside" }, h("span", { class: "centre-label", text: _("Outside the cup") }), diceRow(v.outside, { label: _("Outside the cup"), small: true, src: "outside" })));
  parts.push(h("p", { class: "centre-sub", id: "cup-count", text: !v.direction ? ngettext("{n} die under the cup", "{n} dice under the cup", v.cup_count) : v.direction > 0 ? ngettext("{n} die under the cup · passing left", "{n} dice under the cup · passing left", v.cup_count) : ngettext("{n} die under the cup · passing right", "{n} dice under the cup · passing right", v.cup_count) }));
  return { sig: [v.outside, v.cup_count, v.direction], parts };
}

/**
 * The tray: what I see of the cup (while I look under it) and the dice outside it.
 * @param {HTMLElement} el
 * @param {HTMLElement} heading
 * @param {TableState} S
 * @param {Record<string, unknown>} attrs
 */
function tray(el, heading, S, attrs) {
  const v = S.view;
  heading.textContent = _("Your view of the cup");
  const sig = JSON.stringify(["poker", v.game_no, v.round, v.cup, v.outside, v.passed_cup]);
  sync(el, sig, () => [
    v.cup.length
      ? h("div", { class: "zone zone-cup" }, v.outside.length ? h("span", { class: "zone-label", text: _("Under the cup") }) : null, diceRow(v.cup, { label: _("Under the cup (only you see them)"), attrs: { id: "my-dice-row", ...attrs }, src: "cup" }))
      : h("p", { class: "hint", text: _("You can't see under the cup now.") }),
    v.outside.length ? h("div", { class: "zone zone-outside" }, h("span", { class: "zone-label", text: _("Outside the cup (everyone sees)") }), diceRow(v.outside, { label: _("Outside the cup"), src: "outside" })) : null,
    v.passed_cup && v.passed_cup.length ? h("p", { class: "meta" }, withNodes(_("You passed: {dice}"), { dice: diceRow(v.passed_cup, { label: _("You passed"), small: true, src: "cup" }) })) : null,
  ]);
}

// ---------------------------------------------------------------- results in words

/**
 * One finished round in words (poker results give positions).
 * @param {TableState} S
 * @param {RoundResult} result
 * @param {number} index
 * @returns {ResultWords}
 */
function describeResult(S, result, index) {
  const res = /** @type {PokerResult} */ (result);
  const { nm, isMe, about } = speaker(S);
  const title = _("Round {round}", { round: index + 1 });
  /** @type {string[]} */
  const sentences = [];
  const bid = claimWords(res.bid_move);
  const bidder = nm(res.bidder);
  if (res.call === "five" || res.call === "accept") {
    sentences.push(
      isMe(res.bidder)
        ? about(res.caller, (o) => _("You accepted your own bid of {bid}.", o), (o) => _("{name} accepted your bid of {bid}.", o), { bid })
        : about(res.caller, (o) => _("You accepted {bidder}'s bid of {bid}.", o), (o) => _("{name} accepted {bidder}'s bid of {bid}.", o), { bid, bidder }),
    );
    sentences.push(res.success ? _("Five of a kind was made: nobody loses a life.") : _("No five of a kind in three rolls."));
  } else {
    sentences.push(
      isMe(res.bidder)
        ? about(res.caller, (o) => _("You called liar on your own bid of {bid}.", o), (o) => _("{name} called liar on your bid of {bid}.", o), { bid })
        : about(res.caller, (o) => _("You called liar on {bidder}'s bid of {bid}.", o), (o) => _("{name} called liar on {bidder}'s bid of {bid}.", o), { bid, bidder }),
    );
    const reading = claimWords(res.reading_move);
    sentences.push(res.stood ? _("The hand reads {reading}: the bid stands.", { reading }) : _("The hand reads {reading}: the bid was a lie.", { reading }));
  }
  if (res.loser !== null && res.loser !== undefined) sentences.push(about(res.loser, () => _("You lose a life."), (o) => _("{name} loses a life.", o)));
  /** @type {[string, Face[]][]} */
  const hands = [[_("The hand"), res.hand]];
  (res.attempts || []).forEach((a, i) => hands.push([_("Roll {n}", { n: i + 1 }), a]));
  return { title, sentences, note: null, hands, matches: () => false, palifico: false };
}

// ---------------------------------------------------------------- the reveal

/**
 * What the reveal lifts and counts: the hand under the cup, die by die; the loser's life.
 * @param {TableState} _S
 * @param {RoundResult} result
 * @returns {RevealCount}
 */
function revealCount(_S, result) {
  const res = /** @type {PokerResult} */ (result);
  /** @type {Map<number, Face[]>} */
  const seats = new Map([[-1, res.hand || []]]); // -1: the hand, in the centre
  const order = (res.hand || []).map((_f, i) => /** @type {[number, number]} */ ([-1, i]));
  /** @type {Map<number, number>} */
  const losses = new Map();
  if (res.loser !== null && res.loser !== undefined) losses.set(res.loser, 1);
  return { seats, order, losses, callerSeat: res.caller, bidderSeat: res.bidder };
}

/**
 * The reveal panel's hand (lit die by die), its reading and who loses a life.
 * @param {Reveal} r
 * @param {(seat: number) => string} who
 */
function revealStage(r, who) {
  const { res } = r;
  const shown = r.phase === "lift" ? 0 : r.lit;
  const row = h("span", { class: "dice revealed", role: "group", "aria-label": _("The hand: {dice}", { dice: (res.hand || []).join(", ") }) });
  (res.hand || []).forEach((f, i) => {
    const el = die(f, { src: "reveal" });
    el.classList.add(i >= shown ? "waiting" : "lit");
    row.append(el);
  });
  /** @type {HTMLElement[]} */
  const parts = [row];
  if (r.phase === "verdict") {
    const reading = claimWords(res.reading_move);
    // The hand is the claim itself: the call line above names it already (a shorter panel
    // keeps the plates below it uncovered).
    const same = reading === claimWords(res.bid_move);
    const verdict = same ? (res.stood ? _("The bid stands!") : _("It was a lie!")) : res.stood ? _("{hand}: the bid stands.", { hand: reading }) : _("{hand}: it was a lie!", { hand: reading });
    parts.push(h("p", { class: "verdict", id: "reveal-verdict", text: verdict.charAt(0).toUpperCase() + verdict.slice(1) }));
    if (res.loser !== null && res.loser !== undefined) parts.push(h("p", { class: "centre-sub", text: who(res.loser) === "you" ? _("You lose a life.") : _("{name} loses a life.", { name: who(res.loser) }) }));
  }
  return parts;
}

/**
 * The sentence above the moves about the standing claim ({bid}: the claim, in bold).
 * @param {TableState} S
 */
function moveContext(S) {
  if (S.view.bidder === S.seat) return _("Your claim: {bid}. Pass the cup.");
  const answers = S.view.legal.map((m) => m.move.kind);
  if (answers.includes("accept") && answers.includes("call")) return _("{name} claims {bid}: accept the cup or call liar.", { name: nameOf(S, S.view.bidder) });
  return _("Claim to beat: {bid} by {name}", { name: nameOf(S, S.view.bidder) });
}

// ---------------------------------------------------------------- the replay

/**
 * Take `take` (a multiset of faces) out of `from`; what is left.
 * @template {Face} F
 * @param {F[]} from
 * @param {Face[]} take
 */
function without(from, take) {
  const left = [...from];
  for (const f of take) {
    const i = left.findIndex((x) => String(x) === String(f));
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/** The replay's table at a step: the lives, the cup and the dice outside it after the moves
 * made so far. Sets the view's poker facts; no seat holds dice of its own.
 * @param {View} view
 * @param {ReplayStep} step
 * @returns {Map<number, Face[]>}
 */
function replayView(view, { record, rd, moves, rounds, r, toMove, bidder, direction }) {
  const names = record.players;
  const before = r > 0 && rounds[r - 1] ? rounds[r - 1].lives || {} : {};
  const start = Number((record.options && record.options.lives) ?? 3);
  view.lives = names.map((n) => (n in before ? before[n] : start));
  let all = [...rd.roll];
  /** @type {string[]} */
  let out = [];
  for (const mv of moves) {
    if (mv.attempts && mv.attempts.length) {
      const last = mv.attempts[mv.attempts.length - 1];
      all = [...last.keep, ...(last.rolled || [])];
      out = [];
      continue;
    }
    if (mv.out) {
      out = [...mv.out];
      const cupDice = without(all, out);
      const rolled = [...(mv.rolled || [])];
      const newCup = mv.shake ? rolled.splice(0, cupDice.length) : cupDice;
      const rerolled = mv.reroll || [];
      out = [...without(out, rerolled), ...rolled.splice(0, rerolled.length)];
      all = [...newCup, ...out];
    }
  }
  view.outside = out;
  view.cup_count = all.length - out.length;
  view.direction = direction;
  view.holder = toMove >= 0 ? toMove : bidder;
  view.hand = all;
  view.under = without(all, out);
  return new Map();
}

/**
 * The round's dice in the replay's list: the opening roll.
 * @param {RecordRound} rd
 */
function replayHands(rd) {
  return [h("li", {}, withNodes(_("The opening roll: {dice}"), { dice: diceRow(rd.roll, { label: pgettext("noun", "Roll"), small: true, src: "replay" }) }))];
}

/**
 * Under the replay's table: the dice under the cup and outside it, and the claim.
 * @param {View} v
 */
function replayAside(v) {
  return [
    h("span", { class: "meta" }, _("Under the cup:"), " "),
    diceRow(v.under, { label: _("Under the cup"), small: true, src: "replay" }),
    v.outside.length ? [h("span", { class: "meta" }, " · ", _("outside:"), " "), diceRow(v.outside, { label: _("Outside the cup"), small: true, src: "replay" })] : null,
    v.current_bid_move ? h("span", { class: "meta", text: ` · ${_("the bid: {bid}", { bid: claimWords(v.current_bid_move) })}` }) : null,
  ];
}

/**
 * A round's result from the replay summary, in words.
 * @param {SummaryRound} round
 */
function describeSummary(round) {
  const losses = Object.entries(round.losses || {});
  const lost = losses.length ? losses.map(([name, k]) => ngettext("{name} loses {n} life", "{name} loses {n} lives", k, { name })).join("; ") : _("nobody loses a life");
  const bid = claimWords(readPokerMove(round.bid));
  if (round.call === "accept") {
    const o = { name: round.accepter, bid, lost };
    return round.success ? _("{name} accepted {bid}: five of a kind made; {lost}.", o) : _("{name} accepted {bid}: no five of a kind; {lost}.", o);
  }
  const o = { name: round.caller, bidder: round.bidder, bid, hand: round.hand.join(" "), lost };
  return round.stood ? _("{name} called liar on {bidder}'s {bid}: the hand {hand} stands; {lost}.", o) : _("{name} called liar on {bidder}'s {bid}: the hand {hand} was a lie; {lost}.", o);
}

// ---------------------------------------------------------------- the family

/**
 * Poker dice (family.js's `Family`).
 * @type {Family}
 */
export const POKER = {
  name: "poker",
  title: _("Poker dice"),
  titles: { "poker-dice": _("Poker dice") },
  lobbyGroups: (presets) => [{ label: _("Poker dice"), order: 20, presets: presets.filter((p) => p.family === "poker") }],
  optionsHint: () => _("For example lives=2."),
  hasOdds: false,
  readMove: readPokerMove,
  bidWords: claimWords,
  moveWords: pokerMoveWords,
  isBid: (move) => move.kind === "claim",
  stock,
  finalStock: stock,
  outRounds,
  palifico: () => false,
  plateStock,
  ownBidLabel: () => _("Your claim"),
  bidPicture,
  centre,
  tray,
  trayExtra: () => ({ sig: [], node: null }),
  describeResult,
  resultHeading: (d) => _("{round}: what was under the cup", { round: d.title }),
  revealCount,
  revealStage,
  moveContext,
  controls: (picker) => new PokerControls(picker),
  tips: [],
  replayView,
  replayHands,
  replayAside,
  describeSummary,
};
