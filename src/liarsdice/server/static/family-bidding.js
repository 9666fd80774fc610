// The bidding family in the browser (Classic, Perudo and every rule set where a bid is about
// all the dice on the table: "3 × fives"): its answers to what the shared modules ask of a
// family (family.js's `Family`, as the server's `families/base.py`). The dice under each cup,
// the dice shown (show-and-reroll), the stash, palifico rounds, wilds and the odds helper
// are this module's; the shared modules (table, reveal, log, moves, replay, app) never ask
// which family they have.

import { h, sync } from "./dom.js";
import { _, ngettext, parts as withNodes, pgettext } from "./i18n.js";
import { cup, die, dieBack, diceRow, facePlural, faceWords } from "./dice.js";
import { myTurn, nameOf, seatOfName, speaker } from "./facts.js";
import { bidsWords, liarWords, withArticles } from "./words.js";
import { BiddingControls } from "./family-bidding-moves.js";

/** @typedef {import("./types.js").BidMove} BidMove */
/** @typedef {import("./types.js").BidOdds} BidOdds */
/** @typedef {import("./types.js").Face} Face */
/** @typedef {import("./types.js").Family} Family */
/** @typedef {import("./types.js").LegalEntry} LegalEntry */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").PlateFacts} PlateFacts */
/** @typedef {import("./types.js").RecordRound} RecordRound */
/** @typedef {import("./types.js").Reveal} Reveal */
/** @typedef {import("./types.js").ReplayStep} ReplayStep */
/** @typedef {import("./types.js").ResultWords} ResultWords */
/** @typedef {import("./types.js").RoundResult} RoundResult */
/** @typedef {import("./types.js").SummaryRound} SummaryRound */
/** @typedef {import("./types.js").TableState} TableState */
/** @typedef {import("./types.js").Tip} Tip */
/** @typedef {import("./types.js").View} View */
/**
 * A bidding round's result: it names its players (`caller`, `bidder`, `next_opener`).
 * @typedef {RoundResult & {caller: string, bidder: string}} BiddingResult
 */

// ---------------------------------------------------------------- moves in words

/**
 * A bid for people: {kind: "bid", quantity: 3, face: 5} -> "3 × fives" ("3 × cincos").
 * @param {Move | null} move
 */
function bidWords(move) {
  return move && move.kind === "bid" ? _("{quantity} × {faces}", { quantity: move.quantity, faces: faceWords(move.face, move.quantity) }) : "";
}

/**
 * A move in a sentence, after the player's name: "bids 3 × fives", "calls liar"; `you`: after
 * "You" ("bid 3 × fives"; Spanish "apuestas"). Each is a whole predicate message in both
 * persons (the name comes first in English and in Spanish alike).
 * @param {Move} move
 */
function moveWords(move, you = false) {
  switch (move.kind) {
    case "call":
      return move.call === "exact" ? (you ? pgettext("you", "call exact") : _("calls exact")) : liarWords(you);
    case "buy":
      return you ? pgettext("you", "buy a die") : _("buys a die");
    case "no_show":
      return you ? pgettext("you", "show nothing") : _("shows nothing");
    case "ask":
      if (move.question === "turn") return you ? pgettext("you", "ask whose turn it is") : _("asks whose turn it is");
      return you ? pgettext("you", "ask how many dice are left") : _("asks how many dice are left");
    case "show": {
      const dice = withArticles(move.dice);
      return you ? pgettext("you", "show {dice} and re-roll the rest", { dice }) : _("shows {dice} and re-rolls the rest", { dice });
    }
    default:
      return bidsWords(bidWords(move), you);
  }
}

/**
 * A move of a record or of an analysis (their notation: "3x5", "liar", "show 6 6", "no show",
 * "ask turn") as the structured move the server's frames carry; null when it is not the
 * bidding family's notation.
 * @param {string} text
 * @returns {Move | null}
 */
function readMove(text) {
  const t = String(text).trim();
  if (t === "liar" || t === "exact") return { kind: "call", call: t };
  if (t === "buy") return { kind: "buy" };
  if (t === "no-show" || t === "no show") return { kind: "no_show" };
  if (t === "ask turn" || t === "ask count") return { kind: "ask", question: t.slice(4) };
  if (t.startsWith("show ")) return { kind: "show", dice: t.slice(5).split(/[\s,]+/).filter(Boolean).map(Number) };
  const m = /^(\d+)x(\d+)$/.exec(t);
  return m ? { kind: "bid", quantity: Number(m[1]), face: Number(m[2]) } : null;
}

// ---------------------------------------------------------------- the rounds

/**
 * Dice left of a position in the game, or null.
 * @param {View} view
 * @param {number} seat
 * @returns {number | null}
 */
function stock(view, seat) {
  if (!view || !view.names || seat >= view.names.length) return null;
  return view.dice_counts[seat];
}

/**
 * Dice a position had left when the game ended: the last result's count (results name players).
 * @param {View} view
 * @param {number} seat
 */
function finalStock(view, seat) {
  const res = view && view.results && view.results.length ? view.results[view.results.length - 1] : null;
  if (res && res.dice && view.names && seat < view.names.length) {
    const left = res.dice[view.names[seat]];
    if (typeof left === "number") return left;
  }
  return stock(view, seat);
}

/**
 * Is this round a palifico round (from the view, the result, or what this page saw)?
 * @param {TableState} S
 * @param {number} game
 * @param {number} round
 * @param {RoundResult | null} [res]
 */
function palifico(S, game, round, res = null) {
  if (res && res.palifico === true) return true;
  const v = S.view;
  if (v && v.game_no === game && v.round === round && v.palifico === true) return true;
  return Boolean(S.palificoSeen && S.palificoSeen.has(`${game}/${round}`));
}

/**
 * Total dice in play, stash included.
 * @param {View} view
 */
function diceInPlay(view) {
  if (typeof view.dice_in_play === "number") return view.dice_in_play;
  return (view.dice_counts || []).reduce((a, b) => a + b, 0) + (view.stash_size || 0);
}

/**
 * For each position, the round it went out in (Infinity: still in), from the results.
 * @param {View} view
 * @returns {number[]}
 */
function outRounds(view) {
  const outAt = new Array(view.names.length).fill(Infinity);
  (view.results || []).forEach((res, r) => {
    for (const [name, left] of Object.entries(res.dice || {})) {
      const s = view.names.indexOf(name);
      if (s >= 0 && left === 0 && outAt[s] === Infinity) outAt[s] = r;
    }
  });
  return outAt;
}

// ---------------------------------------------------------------- the odds helper

/**
 * 0.4273 -> "43%", with "<1%" and ">99%" at the ends.
 * @param {number} x
 */
export function percent(x) {
  if (x >= 1) return "100%";
  if (x <= 0) return "0%";
  if (x < 0.005) return "<1%";
  if (x > 0.995) return ">99%";
  return `${Math.round(x * 100)}%`;
}

/**
 * The odds of the bid to beat for this seat, as text (null when the odds are off): the
 * server's `current_bid_odds` (worked out from the seat's own dice by liarsdice.odds).
 * @param {TableState} S
 */
export function oddsText(S) {
  const o = S.view && S.view.current_bid_odds;
  if (!S.oddsOn || !o || S.seat === null) return null;
  const open = (S.view.shown || []).some((d) => d && d.length) || (S.view.stash || []).length > 0;
  return _("Chance it's true: {chance} (exactly: {exactly}). {seen}", { chance: percent(o.at_least), exactly: percent(o.exactly), seen: seenSentence(o, open) });
}

/**
 * What the odds are worked out from, as a sentence: "You hold 1 of them; 10 dice are hidden."
 * (`open`: some dice are on the table face up, so "you can see" rather than "you hold").
 * @param {BidOdds} o
 */
export function seenSentence(o, open = false) {
  const hidden = o.unseen === 0 ? _("no dice are hidden") : ngettext("{n} die is hidden", "{n} dice are hidden", o.unseen);
  const known = o.known === 0 ? pgettext("of them", "none") : String(o.known);
  return open ? _("You can see {known} of them; {hidden}.", { known, hidden }) : _("You hold {known} of them; {hidden}.", { known, hidden });
}

/**
 * A legal bid's chance for this seat as a percentage ("43%": the server's `chance`), or null when the odds are off.
 * @param {TableState} S
 * @param {LegalEntry} entry
 */
function oddsPercent(S, entry) {
  if (!S.oddsOn || S.seat === null || typeof entry.chance !== "number") return null;
  return percent(entry.chance);
}

// ---------------------------------------------------------------- the table

/**
 * A seat's plate: its cup and dice (backs; my own face up), the dice it showed, its chips.
 * @param {TableState} S
 * @param {PlateFacts} facts
 */
function plateStock(S, { p, i, seat, count, out, over, isPlaying }) {
  const v = S.view;
  const shown = v.shown && v.shown[p] ? v.shown[p] : [];
  const chips = v.chips && v.chips.some((c) => c > 0) ? v.chips[p] : null;
  // My own plate shows my dice face up (I know them); after the game nobody's are hidden.
  const mineUp = i === S.seat && isPlaying && !over ? v.my_dice || [] : null;
  return {
    sig: [shown, chips, mineUp],
    build: () => {
      const backs = h("span", { class: "backs", "aria-hidden": "true" });
      const drawn = Math.min(count - Math.min(shown.length, count), 6);
      if (mineUp && mineUp.length) {
        // pictures of my own dice (the tray below holds them for real)
        for (const f of mineUp.slice(0, 6)) backs.append(die(f, { glyph: true, small: true }));
        backs.classList.add("own");
      } else {
        for (let j = 0; j < drawn; j++) backs.append(dieBack({ blank: over }));
      }
      return [
        h("span", { class: "cup-wrap", "aria-hidden": "true" }, cup()),
        backs,
        h("span", { class: "stock-text", text: out ? pgettext("player", "out") : over ? ngettext("{n} die left", "{n} dice left", count) : ngettext("{n} die", "{n} dice", count) }),
        shown.length ? h("span", { class: "shown" }, diceRow(shown, { label: _("{name} shows", { name: seat.name }), small: true, src: "shown" })) : null,
        chips !== null ? h("span", { class: "chips", text: ngettext("{n} chip", "{n} chips", chips) }) : null,
      ];
    },
  };
}

/**
 * The big picture of a bid: "5 ×" and a die (`text`: its notation, for data-bid).
 * @param {Move} move the bid
 * @param {string} text
 */
function bidPicture(move, text) {
  const bid = /** @type {BidMove} */ (move);
  return h(
    "span",
    { class: "bid-picture", id: "current-bid-text", role: "img", "aria-label": bidWords(bid), "data-bid": text },
    h("span", { class: "bid-qty", "aria-hidden": "true", text: String(bid.quantity) }),
    h("span", { class: "bid-times", "aria-hidden": "true", text: "×" }),
    die(bid.face, { glyph: true }),
  );
}

/**
 * The centre under the bid: the dice in play, the stash, palifico's rule, the odds.
 * @param {TableState} S
 */
function centre(S) {
  const v = S.view;
  const total = diceInPlay(v);
  const pal = palifico(S, v.game_no, v.round);
  const odds = v.current_bid_move ? oddsText(S) : null;
  const parts = [h("p", { class: "dice-total", id: "dice-total", "data-total": total }, withNodes(ngettext("{n} die in play", "{n} dice in play", total), { n: h("strong", { text: String(total) }) }))];
  if (v.stash && v.stash.length) parts.push(h("div", { class: "outside" }, h("span", { class: "centre-label", text: _("Stash") }), diceRow(v.stash, { label: _("Stash"), small: true, src: "stash" })));
  else if (v.stash_size) parts.push(h("p", { class: "centre-sub", text: ngettext("Hidden stash: {n} die", "Hidden stash: {n} dice", v.stash_size) }));
  if (pal) parts.push(h("p", { class: "centre-sub", text: _("Ones are not wild; the face can't change.") }));
  if (odds) parts.push(h("p", { class: "odds", id: "current-odds", text: odds }));
  return { sig: [total, odds, v.stash, v.stash_size], parts };
}

/**
 * The dice this seat showed this round (show-and-reroll): still yours, now face up for all.
 * @param {TableState} S
 * @returns {number[]}
 */
function myShown(S) {
  const v = S.view;
  return (v && v.shown && S.seat !== null && v.shown[S.seat]) || [];
}

/**
 * The row of the dice this seat showed, or null.
 * @param {TableState} S
 * @param {(face: Face) => boolean} [matches] which to light up
 */
function shownRow(S, matches = () => false) {
  const faces = myShown(S);
  if (!faces.length) return null;
  return h(
    "div",
    { class: "zone zone-shown", id: "my-shown" },
    h("span", { class: "zone-label", text: _("Shown to everyone") }),
    diceRow(faces, { label: _("Your dice shown to everyone"), matches, src: "shown" }),
  );
}

/**
 * The tray: my dice, the ones matching the bid to beat lit while the odds are on.
 * @param {HTMLElement} el
 * @param {HTMLElement} heading
 * @param {TableState} S
 * @param {Record<string, unknown>} attrs
 */
function tray(el, heading, S, attrs) {
  const v = S.view;
  heading.textContent = _("Your dice");
  const cur = /** @type {BidMove | null} */ (v.current_bid_move);
  const wild = S.room.rules ? S.room.rules.wild : null;
  const pal = palifico(S, v.game_no, v.round);
  /** @param {Face} d */
  const matches = (d) => Boolean(S.oddsOn && cur && (d === cur.face || (!pal && wild !== null && d === wild)));
  const sig = JSON.stringify(["mine", v.game_no, v.round, v.my_dice, v.dice_counts[S.seat], S.oddsOn && cur, myShown(S)]);
  sync(el, sig, () => {
    if (v.my_dice.length === 0 && !myShown(S).length) {
      return h("p", { class: "hint", text: (v.dice_counts[S.seat] || 0) === 0 ? _("You have no dice left: you are out. Watch the others finish.") : _("Rolling…") });
    }
    return [
      v.my_dice.length ? h("div", { class: "zone zone-hand" }, myShown(S).length ? h("span", { class: "zone-label", text: _("Under your cup") }) : null, diceRow(v.my_dice, { label: _("Your dice"), matches, attrs: { id: "my-dice-row", ...attrs }, src: "mine" })) : null,
      shownRow(S, matches),
    ];
  });
}

// ---------------------------------------------------------------- results in words

/**
 * One finished round in words (results name players). Returns {title, sentences[], note,
 * hands: [[name, faces]], matches(face), palifico}.
 * @param {TableState} S
 * @param {RoundResult} result
 * @param {number} index
 * @param {number} [game]
 * @returns {ResultWords}
 */
function describeResult(S, result, index, game = S.view ? S.view.game_no : 0) {
  const res = /** @type {BiddingResult} */ (result);
  const { nm, isMe, about } = speaker(S);
  const title = _("Round {round}", { round: index + 1 });
  const bid = /** @type {BidMove} */ (res.bid_move);
  const reveal = res.reveal || {};
  const pal = palifico(S, game, index, res);
  const all = Object.values(reveal).flat().concat(res.stash || []);
  // Which dice counted: wilds count unless the bid is on the wild face or the round is a
  // palifico round; the server's count decides (this only picks what to light up).
  const wild = S.room.rules ? S.room.rules.wild : null;
  /** @param {Face} d */
  const withWild = (d) => d === bid.face || (wild !== null && d === wild);
  const countsWild = !pal && wild !== null && bid.face !== wild && all.filter(withWild).length === res.count;
  const matches = countsWild ? withWild : (/** @type {Face} */ d) => d === bid.face;
  /** @type {string[]} */
  const sentences = [];
  const note = pal ? _("Palifico round: ones were not wild.") : null;
  const label = bidWords(bid);
  const bidder = nm(res.bidder);
  const exact = res.call === "exact";
  if (isMe(res.bidder)) {
    sentences.push(
      exact
        ? about(res.caller, (o) => _("You called exact on your own bid of {bid}.", o), (o) => _("{name} called exact on your bid of {bid}.", o), { bid: label })
        : about(res.caller, (o) => _("You called liar on your own bid of {bid}.", o), (o) => _("{name} called liar on your bid of {bid}.", o), { bid: label }),
    );
  } else {
    sentences.push(
      exact
        ? about(res.caller, (o) => _("You called exact on {bidder}'s bid of {bid}.", o), (o) => _("{name} called exact on {bidder}'s bid of {bid}.", o), { bid: label, bidder })
        : about(res.caller, (o) => _("You called liar on {bidder}'s bid of {bid}.", o), (o) => _("{name} called liar on {bidder}'s bid of {bid}.", o), { bid: label, bidder }),
    );
  }
  const verdict = exact ? (res.count === bid.quantity ? _("exactly right.") : _("not exact.")) : res.count >= bid.quantity ? _("the bid stands.") : _("the bid was a lie.");
  sentences.push(
    countsWild
      ? ngettext("There was {n} ({wilds} wild): {verdict}", "There were {n} ({wilds} wild): {verdict}", res.count, { wilds: facePlural(wild), verdict })
      : ngettext("There was {n}: {verdict}", "There were {n}: {verdict}", res.count, { verdict }),
  );
  const losses = Object.entries(res.losses || {});
  /** @param {[string, number]} loss */
  const lose = ([n, k]) => about(n, (o) => ngettext("You lose {n} die", "You lose {n} dice", k, o), (o) => ngettext("{name} loses {n} die", "{name} loses {n} dice", k, o));
  /** @param {[string, number]} gained */
  const gain = ([n, k]) => about(n, (o) => ngettext("You gain {n} die", "You gain {n} dice", k, o), (o) => ngettext("{name} gains {n} die", "{name} gains {n} dice", k, o));
  sentences.push(losses.length ? _("{list}.", { list: losses.map(lose).join("; ") }) : _("Nobody loses a die."));
  const gains = Object.entries(res.gains || {});
  if (gains.length) sentences.push(_("{list}.", { list: gains.map(gain).join("; ") }));
  sentences.push(res.next_opener ? about(res.next_opener, () => _("You open the next round."), (o) => _("{name} opens the next round.", o)) : _("That ends the game."));
  /** @type {[string, Face[]][]} */
  const hands = Object.entries(reveal).filter(([, faces]) => faces.length);
  if (res.stash && res.stash.length) hands.push([_("Stash"), res.stash]);
  return { title, sentences: note ? [note, ...sentences] : sentences, note, hands, matches, palifico: pal };
}

/**
 * The heading of a round's result written out under the table.
 * @param {ResultWords} d
 */
function resultHeading(d) {
  return d.palifico ? _("{round} (palifico): what was under the cups", { round: d.title }) : _("{round}: what was under the cups", { round: d.title });
}

// ---------------------------------------------------------------- the reveal

/** What the reveal lifts and counts: every seat's dice on its plate, the counted ones in seat
 * order (then the stash), and who loses how many dice.
 * @param {TableState} S
 * @param {RoundResult} result
 * @param {ResultWords} d
 */
function revealCount(S, result, d) {
  const res = /** @type {BiddingResult} */ (result);
  /** @type {Map<number, Face[]>} */
  const seats = new Map(); // position -> faces (-1: the stash)
  /** @type {[number, number][]} */
  const order = []; // counted dice: [position, i]
  for (const [name, faces] of Object.entries(res.reveal || {})) {
    const s = seatOfName(S, name);
    if (s >= 0) seats.set(s, faces);
  }
  const sorted = [...seats.keys()].sort((a, b) => a - b);
  for (const s of sorted) seats.get(s).forEach((f, i) => d.matches(f) && order.push([s, i]));
  if (res.stash && res.stash.length) {
    seats.set(-1, res.stash);
    res.stash.forEach((f, i) => d.matches(f) && order.push([-1, i]));
  }
  /** @type {Map<number, number>} */
  const losses = new Map();
  for (const [name, k] of Object.entries(res.losses || {})) losses.set(seatOfName(S, name), k);
  return { seats, order, losses, callerSeat: seatOfName(S, res.caller), bidderSeat: seatOfName(S, res.bidder) };
}

/**
 * The reveal panel's count (dice of the bid's face lit one by one) and the verdict.
 * @param {Reveal} r
 * @param {(seat: number) => string} who
 */
function revealStage(r, who) {
  const { res, S } = r;
  const bid = /** @type {BidMove} */ (res.bid_move);
  const wild = S.room.rules ? S.room.rules.wild : null;
  const countsWild = r.d.matches(wild) && wild !== bid.face;
  const shown = r.phase === "lift" ? 0 : r.lit;
  const parts = [
    h(
      "p",
      { class: "counter" },
      h("span", { class: "count-num", id: "reveal-count", "data-final": res.count, "data-lit": r.lit, text: String(shown) }),
      // the face in words agrees with the count shown beside it ("1 six", "2 sixes")
      h("span", { class: "count-label", text: ` ${countsWild ? _("{faces} (with {wilds}) · bid {quantity}", { faces: faceWords(bid.face, shown), wilds: facePlural(wild), quantity: bid.quantity }) : _("{faces} · bid {quantity}", { faces: faceWords(bid.face, shown), quantity: bid.quantity })}` }),
    ),
  ];
  if (r.d.palifico) parts.push(h("p", { class: "palifico", text: _("Palifico: ones not wild") }));
  if (r.phase === "verdict") {
    const verdict = res.call === "exact" ? (res.count === bid.quantity ? _("Exactly right!") : _("Not exact!")) : res.count >= bid.quantity ? _("The bid stands!") : _("It was a lie!");
    const losses = [...r.losses.entries()].map(([s, k]) => (who(s) === "you" ? ngettext("You lose {n} die", "You lose {n} dice", k) : ngettext("{name} loses {n} die", "{name} loses {n} dice", k, { name: who(s) })));
    parts.push(h("p", { class: "verdict", id: "reveal-verdict", text: verdict }), h("p", { class: "centre-sub", text: losses.length ? _("{list}.", { list: losses.join("; ") }) : _("Nobody loses a die.") }));
  }
  return parts;
}

// ---------------------------------------------------------------- first-game tips

// Rules that surprise newcomers, by preset (a room's rule changes override them).
/**
 * @param {TableState} S
 * @param {string} name
 */
const option = (S, name) => (S.room.options ? S.room.options[name] : undefined);
const DIFFERENCE = new Set(["classic", "milton-bradley", "house-rules"]);
const EXACT_ALL = new Set(["classic", "milton-bradley"]);
/** @param {TableState} S */
const losesDifference = (S) => (option(S, "loss") !== undefined ? option(S, "loss") === "difference" : DIFFERENCE.has(S.room.preset));
/** @param {TableState} S */
const exactHitsAll = (S) => (option(S, "exact_count") !== undefined ? String(option(S, "exact_count")).startsWith("all-but-bidder") : EXACT_ALL.has(S.room.preset));
/** @param {TableState} S */
const hadResult = (S) => Boolean(S.view && (S.view.results || []).length > 0);

/** @type {Tip[]} */
const TIPS = [
  {
    id: "dice",
    order: 10,
    when: (S) => S.view && S.room.status === "playing" && S.seat !== null && (S.view.my_dice || []).length > 0,
    text: _("These are your dice. Only you can see them: everyone else has dice hidden under their cups too."),
  },
  {
    id: "bid",
    order: 20,
    when: (S) => myTurn(S) && (S.view.legal || []).some((m) => m.move.kind === "bid"),
    text: _("Your turn. A bid is about all the dice on the table, not just yours: “3 × fives” means at least three dice show a five. Pick how many, then click a face. Ones are wild: they count as any face."),
  },
  {
    id: "difference",
    order: 50,
    when: (S) => hadResult(S) && losesDifference(S),
    text: _("In these rules a wrong call costs more than one die: whoever was wrong loses as many dice as the bid was off by. Bid 6 × fours when there are 3, and a “Liar!” costs you 3 dice."),
  },
  {
    id: "exact",
    order: 60,
    when: (S) => hadResult(S) && exactHitsAll(S),
    text: _("If the count is exactly the bid, the bid stands and everyone but the bidder loses a die: even players who took no part in the call."),
  },
];

// ---------------------------------------------------------------- the replay

/** The replay's table at a step: every seat's dice face up, after the moves made so far.
 * Sets the view's dice counts and stash; returns each position's dice.
 * @param {View} view
 * @param {ReplayStep} step
 * @returns {Map<number, Face[]>}
 */
function replayView(view, { record, rd, moves }) {
  const names = record.players;
  /** @type {Map<string, Face[]>} */
  const dice = new Map(names.map((n) => [n, [...((rd.dice && rd.dice[n]) || [])]]));
  for (const mv of moves) {
    const faces = dice.get(mv.player);
    if (!faces) continue;
    if (mv.show !== undefined && mv.reroll) dice.set(mv.player, [...mv.show, ...mv.reroll]);
    if (mv.buy) faces.push(...mv.buy);
  }
  view.dice_counts = names.map((n) => dice.get(n).length);
  view.stash = rd.stash || null;
  return new Map(names.map((n, i) => [i, dice.get(n)]));
}

/**
 * The round's dice in the replay's list: each player's, and the stash.
 * @param {RecordRound} rd
 */
function replayHands(rd) {
  const dice = Object.entries(rd.dice).map(([name, faces]) => h("li", {}, h("span", { class: "seat-name", text: name }), " ", diceRow(faces, { label: name, small: true, src: "replay" })));
  if (rd.stash) dice.push(h("li", {}, _("Stash"), " ", diceRow(rd.stash, { label: _("Stash"), small: true, src: "replay" })));
  return dice;
}

/**
 * A round's result from the replay summary, in words.
 * @param {SummaryRound} round
 */
function describeSummary(round) {
  const losses = Object.entries(round.losses || {});
  const lost = losses.length ? losses.map(([name, k]) => ngettext("{name} loses {n} die", "{name} loses {n} dice", k, { name })).join("; ") : _("nobody loses a die");
  const o = { name: round.caller, bidder: round.bidder, bid: bidWords(readMove(round.bid)), count: round.count, lost };
  return round.call === "exact" ? _("{name} called exact on {bidder}'s {bid}: there were {count}; {lost}.", o) : _("{name} called liar on {bidder}'s {bid}: there were {count}; {lost}.", o);
}

// ---------------------------------------------------------------- the family

const DUELS = new Set(["openspiel", "snyd-normal", "snyd-joker"]);

/**
 * The bidding family (family.js's `Family`).
 * @type {Family}
 */
export const BIDDING = {
  name: "bidding",
  title: _("Bidding games"),
  titles: {
    classic: _("Classic"),
    perudo: _("Perudo"),
    "milton-bradley": _("Milton Bradley"),
    "house-rules": _("House rules"),
    "spot-on": _("Spot-on"),
    room: _("Online room"),
    openspiel: _("One-die duel (OpenSpiel)"),
    "snyd-normal": _("One-die duel (no wilds)"),
    "snyd-joker": _("One-die duel (ones wild)"),
  },
  lobbyGroups(presets) {
    const mine = presets.filter((p) => p.family === "bidding");
    return [
      { label: _("Bid on all the dice"), order: 10, presets: mine.filter((p) => !DUELS.has(p.name)) },
      { label: _("Two-player duels"), order: 30, presets: mine.filter((p) => DUELS.has(p.name)) },
    ];
  },
  optionsHint: () => _("For example dice=3 (fewer dice, shorter games), wild=none, loss=one."),
  hasOdds: true,
  readMove,
  bidWords,
  moveWords,
  isBid: (move) => move.kind === "bid",
  stock,
  finalStock,
  outRounds,
  palifico,
  plateStock,
  ownBidLabel: () => _("Your bid"),
  bidPicture,
  centre,
  tray,
  trayExtra: (S) => ({ sig: myShown(S), node: shownRow(S) }),
  describeResult,
  resultHeading,
  revealCount,
  revealStage,
  moveContext: (S) => (S.view.bidder === S.seat ? _("Bid to beat: {bid} by you") : _("Bid to beat: {bid} by {name}", { name: nameOf(S, S.view.bidder) })),
  controls: (picker) => new BiddingControls(BIDDING, picker),
  oddsPercent,
  tips: TIPS,
  replayView,
  replayHands,
  replayAside: () => null,
  describeSummary,
};
