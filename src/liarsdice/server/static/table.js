// The table: seats, my dice, the bids of the round, the current bid (with odds), the move
// picker built from the view's `legal` list, the reveal of the last round and the game over
// banner. Everything shown here comes from the frames the server sent this browser: the
// server's view of this seat (its own dice only) and public facts.

import { fill, h, plural } from "./dom.js";
import { diceRow, facePlural } from "./dice.js";
import { bidOdds, parseBid, percent } from "./odds.js";

// ---------------------------------------------------------------- words

/** A bid for people: "3x5" -> "3 × fives"; poker bids ("pair K") stay as they are. */
export function bidLabel(text) {
  const bid = parseBid(text);
  return bid ? `${bid.quantity} × ${facePlural(bid.face)}` : String(text);
}

/** A move in a sentence, after the player's name: "bids 3 × fives", "calls liar". */
export function describeMove(text) {
  const t = String(text);
  if (t === "liar") return "calls liar";
  if (t === "exact") return "calls exact";
  if (t === "accept") return "accepts the cup";
  if (t === "left" || t === "right") return `passes the cup ${t}`;
  if (t === "buy") return "buys a die";
  if (t === "no-show") return "shows nothing";
  if (t.startsWith("show ")) return `shows ${t.slice(5).replaceAll(",", ", ")}`;
  if (t.startsWith("out ")) return t === "out none" ? "puts every die under the cup" : `leaves ${t.slice(4)} outside`;
  if (t === "no reroll") return "rolls nothing";
  if (t.startsWith("shake")) return t === "shake" ? "shakes the cup" : `shakes the cup and rolls ${t.slice(13)}`;
  if (t.startsWith("reroll ")) return `rolls ${t.slice(7)}`;
  if (t.startsWith("keep ")) return t === "keep none" ? "keeps nothing and rolls" : `keeps ${t.slice(5)} and rolls`;
  return `bids ${bidLabel(t)}`;
}

export function nameOf(S, seat) {
  if (seat === null || seat === undefined || seat < 0) return "nobody";
  const names = (S.view && S.view.names) || [];
  if (seat < names.length) return names[seat];
  const info = S.room && S.room.seats[seat];
  return info ? info.name : `seat ${seat + 1}`;
}

const isPoker = (S) => S.room && S.room.family === "poker";
const myTurn = (S) => S.view && S.seat !== null && S.view.to_move === S.seat && S.view.legal.length > 0;

/** Dice left (bidding) or lives (poker) of a seat in the current game, or null. */
function stock(S, seat) {
  const v = S.view;
  if (!v || seat >= v.names.length) return null;
  return isPoker(S) ? v.lives[seat] : v.dice_counts[seat];
}

// ---------------------------------------------------------------- seats

export function renderSeats(el, S) {
  const v = S.view;
  const playing = S.room.status === "playing";
  const items = S.room.seats.map((seat) => {
    const i = seat.seat;
    const n = stock(S, i);
    const turn = playing && v && v.to_move === i;
    const out = v && n === 0;
    const marks = [];
    if (i === S.seat) marks.push(h("span", { class: "badge me", text: "you" }));
    if (i === S.room.host) marks.push(h("span", { class: "badge", text: "host" }));
    if (seat.kind === "bot") marks.push(h("span", { class: "badge bot", text: `bot · ${seat.level}` }));
    else if (seat.away) marks.push(h("span", { class: "badge away", text: "away: a bot plays" }));
    else marks.push(h("span", { class: `badge ${seat.connected ? "online" : "offline"}`, text: seat.connected ? "online" : "offline" }));
    let count = null;
    if (n !== null) {
      count = out ? "out" : isPoker(S) ? plural(n, "life", "lives") : plural(n, "die", "dice");
    }
    const extra = [];
    if (v && !isPoker(S) && v.shown[i] && v.shown[i].length) {
      extra.push(h("span", { class: "shown" }, "shown: ", diceRow(v.shown[i], { label: `${seat.name} shows`, small: true })));
    }
    if (v && !isPoker(S) && v.chips && v.chips.some((c) => c > 0)) extra.push(h("span", { class: "meta", text: `${v.chips[i]} chips` }));
    if (v && isPoker(S) && playing && v.holder === i) extra.push(h("span", { class: "meta", text: "holds the cup" }));
    return h(
      "li",
      {
        class: `seat${turn ? " turn" : ""}${i === S.seat ? " mine" : ""}${out ? " out" : ""}`,
        "data-seat": i,
        "aria-current": turn ? "true" : null,
      },
      h("span", { class: "seat-name", text: seat.name }),
      " ",
      marks,
      count !== null ? h("span", { class: "count", text: count }) : null,
      extra,
      turn ? h("span", { class: "turn-mark", text: i === S.seat ? "your turn" : "to move" }) : null,
    );
  });
  fill(el, items);
}

// ---------------------------------------------------------------- status line, my dice

export function turnText(S) {
  const v = S.view;
  const st = S.room.status;
  if (st === "lobby") return S.room.seats.length < 2 ? "Waiting for players: invite someone or add a bot." : "Waiting for the host to start.";
  if (!v) return "";
  if (st === "finished" || v.to_move === -4) return ""; // the game-over banner says it
  if (v.to_move < 0) return "Rolling…";
  if (myTurn(S)) return "Your turn.";
  return `Waiting for ${nameOf(S, v.to_move)}.`;
}

export function renderMine(area, el, S) {
  const v = S.view;
  if (S.seat === null || !v || S.room.status !== "playing") {
    area.hidden = true;
    return;
  }
  area.hidden = false;
  area.querySelector("h4").textContent = isPoker(S) ? "Your view of the cup" : "Your dice";
  const attrs = { "data-seat": S.seat, "data-round": v.round, "data-game": v.game_no };
  if (isPoker(S)) {
    const parts = [];
    if (v.cup.length) {
      parts.push(diceRow(v.cup, { label: "Under the cup (only you see them)", attrs: { id: "my-dice-row", ...attrs } }));
    } else {
      parts.push(h("p", { class: "hint", text: "You can't see under the cup now." }));
    }
    if (v.passed_cup && v.passed_cup.length) {
      parts.push(h("p", { class: "meta" }, "You passed: ", diceRow(v.passed_cup, { label: "You passed", small: true })));
    }
    fill(el, parts);
    return;
  }
  if (v.my_dice.length === 0) {
    fill(el, h("p", { class: "hint", text: (v.dice_counts[S.seat] || 0) === 0 ? "You have no dice: you are out." : "Rolling…" }));
    return;
  }
  const cur = parseBid(v.current_bid);
  const matches = (d) => S.oddsOn && cur && S.room.rules && (d === cur.face || (!v.palifico && d === S.room.rules.wild));
  fill(el, diceRow(v.my_dice, { label: "Your dice", matches, attrs: { id: "my-dice-row", ...attrs } }));
}

// ---------------------------------------------------------------- the public middle

export function renderPublic(el, S) {
  const v = S.view;
  const parts = [];
  if (v && isPoker(S) && S.room.status === "playing") {
    parts.push(h("p", {}, `Under the cup: ${plural(v.cup_count, "die", "dice")}.`));
    if (v.outside.length) parts.push(h("p", {}, "Outside the cup: ", diceRow(v.outside, { label: "Outside the cup" })));
    if (v.direction) parts.push(h("p", { class: "meta", text: `The cup goes ${v.direction > 0 ? "left" : "right"} this round.` }));
    if (v.five_attempts.length) {
      parts.push(h("p", {}, "Five-of-a-kind attempts: ", v.five_attempts.map((a, i) => diceRow(a, { label: `Attempt ${i + 1}`, small: true }))));
    }
  } else if (v && !isPoker(S) && S.room.status === "playing") {
    if (v.stash) parts.push(h("p", {}, "Stash: ", diceRow(v.stash, { label: "Stash" })));
    else if (v.stash_size) parts.push(h("p", { class: "meta", text: `Stash: ${plural(v.stash_size, "hidden die", "hidden dice")}.` }));
    if (v.palifico) parts.push(h("p", { class: "meta", text: "Palifico round: ones are not wild; keep the face." }));
  }
  fill(el, parts);
}

/** The odds of a bidding-family bid for this seat, as text (null when not applicable). */
export function oddsText(S, text) {
  const bid = parseBid(text);
  if (!S.oddsOn || !bid || !S.view || !S.room.rules || S.seat === null) return null;
  const o = bidOdds(S.view, S.room.rules, bid);
  return `chance it's true: ${percent(o.atLeast)} (exactly: ${percent(o.exactly)}; you see ${o.known}, ${o.unseen} unseen)`;
}

export function renderCurrentBid(el, S) {
  const v = S.view;
  if (!v || S.room.status !== "playing") {
    fill(el);
    return;
  }
  if (!v.current_bid) {
    fill(el, h("p", { text: "No bid yet this round." }));
    return;
  }
  const odds = oddsText(S, v.current_bid);
  fill(
    el,
    h("p", {}, "Bid to beat: ", h("strong", { id: "current-bid-text", text: bidLabel(v.current_bid) }), ` by ${nameOf(S, v.bidder)}`),
    odds ? h("p", { class: "odds", id: "current-odds", text: odds }) : null,
  );
}

export function renderBids(el, S) {
  const v = S.view;
  const bids = v && S.room.status === "playing" ? v.bids : [];
  if (!bids.length) {
    fill(el, h("li", { class: "empty", text: "none yet" }));
    return;
  }
  fill(el, bids.map(([seat, text]) => h("li", { "data-seat": seat }, h("span", { class: "seat-name", text: nameOf(S, seat) }), `: ${bidLabel(text)}`)));
}

// ---------------------------------------------------------------- results

/**
 * One finished round in words. Bidding results name players; poker results give seats.
 * Returns {title, sentences[], hands: [[name, faces]], matches(face)}.
 */
export function describeResult(S, res, index) {
  if (isPoker(S)) {
    const who = (x) => (typeof x === "number" ? nameOf(S, x) : x);
    const sentences = [];
    if (res.call === "five") {
      sentences.push(`${who(res.caller)} accepted ${who(res.bidder)}'s bid of ${res.bid}.`);
      sentences.push(res.success ? "Five of a kind was made: nobody loses a life." : "No five of a kind in three rolls.");
    } else {
      sentences.push(`${who(res.caller)} called liar on ${who(res.bidder)}'s bid of ${res.bid}.`);
      sentences.push(`The hand reads ${res.reading}: ${res.stood ? "the bid stands" : "the bid was a lie"}.`);
    }
    if (res.loser !== null && res.loser !== undefined) sentences.push(`${who(res.loser)} loses a life.`);
    const names = (S.view && S.view.names) || [];
    sentences.push(`Lives: ${res.lives.map((n, i) => `${names[i] ?? i} ${n}`).join(", ")}.`);
    const hands = [["The hand", res.hand]];
    res.attempts.forEach((a, i) => hands.push([`Roll ${i + 1}`, a]));
    return { title: `Round ${index + 1}`, sentences, hands, matches: () => false };
  }
  const bid = parseBid(res.bid);
  const reveal = res.reveal || {};
  const all = Object.values(reveal).flat().concat(res.stash || []);
  // Which dice counted: the server's count decides whether wilds counted this round
  // (they don't in a palifico round); this only picks what to highlight.
  const wild = S.room.rules ? S.room.rules.wild : null;
  const withWild = (d) => d === bid.face || (wild !== null && d === wild);
  const countsWild = wild !== null && bid.face !== wild && all.filter(withWild).length === res.count;
  const matches = countsWild ? withWild : (d) => d === bid.face;
  const sentences = [
    `${res.caller} called ${res.call} on ${res.bidder}'s bid of ${bidLabel(res.bid)}.`,
    `There ${res.count === 1 ? "was" : "were"} ${res.count}${countsWild ? ` (${facePlural(wild)} wild)` : ""}: ` +
      (res.call === "exact"
        ? res.count === bid.quantity ? "exactly right." : "not exact."
        : res.count >= bid.quantity ? "the bid stands." : "the bid was a lie."),
  ];
  const losses = Object.entries(res.losses || {});
  sentences.push(losses.length ? losses.map(([n, k]) => `${n} loses ${plural(k, "die", "dice")}`).join("; ") + "." : "Nobody loses a die.");
  const gains = Object.entries(res.gains || {});
  if (gains.length) sentences.push(gains.map(([n, k]) => `${n} gains ${plural(k, "die", "dice")}`).join("; ") + ".");
  sentences.push(res.next_opener ? `${res.next_opener} opens the next round.` : "That ends the game.");
  const hands = Object.entries(reveal).filter(([, faces]) => faces.length);
  if (res.stash && res.stash.length) hands.push(["Stash", res.stash]);
  return { title: `Round ${index + 1}`, sentences, hands, matches };
}

export function renderReveal(el, S) {
  const results = (S.view && S.view.results) || [];
  if (!results.length) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const i = results.length - 1;
  const d = describeResult(S, results[i], i);
  fill(
    el,
    h("h4", { text: `${d.title}: the reveal` }),
    d.sentences.map((s) => h("p", { text: s })),
    h(
      "ul",
      { class: "hands" },
      d.hands.map(([name, faces]) =>
        h("li", {}, h("span", { class: "seat-name", text: name }), " ", diceRow(faces, { label: name, matches: d.matches, small: true })),
      ),
    ),
  );
}

export function renderHistory(details, list, S) {
  const results = (S.view && S.view.results) || [];
  details.hidden = results.length < 2;
  fill(
    list,
    results.slice(0, -1).map((res, i) => {
      const d = describeResult(S, res, i);
      return h("li", {}, h("strong", { text: `${d.title}: ` }), d.sentences.join(" "));
    }),
  );
}

export function renderGameOver(el, S) {
  const v = S.view;
  const over = v && (S.room.status === "finished" || v.to_move === -4) && v.winner !== null && v.winner !== undefined;
  el.hidden = !over;
  if (!over) return;
  const mine = v.winner === S.seat;
  fill(
    el,
    h("strong", { text: `Game ${v.game_no} over: ` }),
    h("span", { id: "winner", "data-seat": v.winner, text: mine ? "you win!" : `${nameOf(S, v.winner)} wins.` }),
  );
}

// ---------------------------------------------------------------- the move picker

const POKER_VERBS = ["liar", "accept", "left", "right"];

/** Which control a legal move goes to. */
function category(text, poker) {
  if (!poker) {
    if (/^\d+x\d+$/.test(text)) return "bid";
    if (text.startsWith("show ")) return "show"; // one per subset of the hidden dice
    return "button";
  }
  if (POKER_VERBS.includes(text)) return "button";
  if (text === "out" || text.startsWith("out ")) return "out";
  if (text === "no reroll" || text.startsWith("shake") || text.startsWith("reroll ")) return "roll";
  if (text.startsWith("keep ")) return "keep";
  return "bid";
}

function buttonLabel(text, S) {
  const cur = S.view.current_bid ? bidLabel(S.view.current_bid) : "";
  switch (text) {
    case "liar":
      return ["Liar!", `Call liar on ${cur}`];
    case "exact":
      return ["Exact!", `Call exact: exactly ${cur}`];
    case "accept":
      return ["Accept the cup", `Accept ${cur}`];
    case "left":
      return ["Pass left", "Pass the cup left"];
    case "right":
      return ["Pass right", "Pass the cup right"];
    case "no-show":
      return ["Don't show", "Show no dice"];
    case "buy":
      return ["Buy a die", "Buy a die"];
    default:
      return [text, text];
  }
}

function optionLabel(text, cat) {
  if (cat === "show") return text.slice(5).replaceAll(",", ", ");
  if (cat === "out") return text === "out none" ? "none: every die under the cup" : text.slice(4);
  if (cat === "keep") return text === "keep none" ? "nothing: roll all five" : `${text.slice(5)}, roll the rest`;
  if (cat === "roll") {
    if (text === "no reroll") return "roll nothing";
    if (text === "shake") return "shake the cup";
    if (text.startsWith("shake reroll ")) return `shake the cup and roll ${text.slice(13)}`;
    return `roll ${text.slice(7)} in view`;
  }
  return bidLabel(text);
}

const GROUPS = {
  show: { label: "Dice to show (the others are re-rolled)", button: "Show and re-roll" },
  out: { label: "Dice to leave outside the cup", button: "Arrange" },
  roll: { label: "Roll", button: "Roll" },
  keep: { label: "Dice to keep", button: "Keep and roll" },
};

/**
 * The controls for the seat's legal moves, rebuilt only when the legal list changes (so a
 * presence update doesn't reset what the player was choosing). Bids: a quantity and a face
 * select that only ever offer legal combinations (bidding family), or one select of hands
 * (poker); other moves are buttons (or a select and a button for the long poker lists).
 */
export class MovePicker {
  constructor(section, fieldset, onMove) {
    this.section = section;
    this.fieldset = fieldset;
    this.onMove = onMove;
    this.signature = "";
    this.S = null;
    this.bids = [];
  }

  update(S) {
    this.S = S;
    const show = myTurn(S) && S.room.status === "playing";
    this.section.hidden = !show;
    if (!show) {
      this.signature = "";
      fill(this.fieldset);
      return;
    }
    const sig = `${S.view.game_no}|${S.view.round}|${S.view.legal.map((m) => m.action).join(",")}`;
    if (sig !== this.signature) {
      this.signature = sig;
      this.build(S);
    }
    this.fieldset.disabled = Boolean(S.pending);
    this.refreshOdds();
  }

  build(S) {
    const poker = isPoker(S);
    const groups = new Map();
    for (const move of S.view.legal) {
      const cat = category(move.text, poker);
      if (!groups.has(cat)) groups.set(cat, []);
      groups.get(cat).push(move);
    }
    const parts = [h("legend", { class: "visually-hidden", text: "Your move" })];
    this.bids = groups.get("bid") || [];
    if (this.bids.length) parts.push(poker ? this.pokerBidPicker() : this.bidPicker());
    const buttons = (groups.get("button") || []).map((move) => {
      const [text, aria] = buttonLabel(move.text, S);
      return h("button", {
        type: "button",
        class: move.text === "liar" || move.text === "exact" ? "call" : "",
        "data-move": move.text,
        "aria-label": aria,
        text,
        onclick: () => this.onMove(move),
      });
    });
    if (buttons.length) parts.push(h("div", { class: "move-buttons" }, buttons));
    for (const [cat, spec] of Object.entries(GROUPS)) {
      const moves = groups.get(cat);
      if (!moves) continue;
      const id = `move-${cat}`;
      const select = h("select", { id }, moves.map((m, i) => h("option", { value: i, text: optionLabel(m.text, cat) })));
      parts.push(
        h(
          "div",
          { class: "picker" },
          h("label", { for: id, text: spec.label }),
          select,
          h("button", { type: "button", "data-group": cat, text: spec.button, onclick: () => this.onMove(moves[Number(select.value)]) }),
        ),
      );
    }
    fill(this.fieldset, parts);
  }

  /** Quantity and face selects constrained to the legal bids, and the Bid button. */
  bidPicker() {
    const byQty = new Map();
    for (const move of this.bids) {
      const b = parseBid(move.text);
      if (!byQty.has(b.quantity)) byQty.set(b.quantity, []);
      byQty.get(b.quantity).push({ ...move, face: b.face });
    }
    this.byQty = byQty;
    // Quantities in numeric order; the least legal bid (the first in the engine's order,
    // which may be a wild bid of a smaller quantity) is selected to start with.
    const first = parseBid(this.bids[0].text).quantity;
    this.qty = h(
      "select",
      { id: "bid-qty", onchange: () => this.fillFaces() },
      [...byQty.keys()].sort((a, b) => a - b).map((q) => h("option", { value: q, text: String(q), selected: q === first })),
    );
    this.face = h("select", { id: "bid-face", onchange: () => this.refreshOdds() });
    this.bidButton = h("button", { type: "button", id: "bid-button", class: "primary", onclick: () => this.sendBid() });
    this.oddsEl = h("span", { id: "bid-odds", class: "odds" });
    this.fillFaces();
    return h(
      "div",
      { class: "picker bid-picker" },
      h("label", { for: "bid-qty", text: "Quantity" }),
      this.qty,
      h("label", { for: "bid-face", text: "Face" }),
      this.face,
      this.bidButton,
      this.oddsEl,
    );
  }

  fillFaces() {
    const moves = this.byQty.get(Number(this.qty.value)) || [];
    fill(this.face, moves.map((m) => h("option", { value: m.action, text: `${m.face} (${facePlural(m.face)})` })));
    this.refreshOdds();
  }

  /** Poker: one select of every legal hand (in the engine's order, lowest first). */
  pokerBidPicker() {
    this.face = null;
    this.qty = h("select", { id: "bid-hand", onchange: () => this.refreshOdds() }, this.bids.map((m) => h("option", { value: m.action, text: m.text })));
    this.bidButton = h("button", { type: "button", id: "bid-button", class: "primary", onclick: () => this.sendBid() });
    this.oddsEl = null;
    return h("div", { class: "picker bid-picker" }, h("label", { for: "bid-hand", text: "Hand" }), this.qty, this.bidButton);
  }

  selectedBid() {
    if (!this.bids.length) return null;
    const action = Number(this.face ? this.face.value : this.qty.value);
    return this.bids.find((m) => m.action === action) || null;
  }

  sendBid() {
    const move = this.selectedBid();
    if (move) this.onMove(move);
  }

  refreshOdds() {
    const move = this.selectedBid();
    if (!move || !this.bidButton) return;
    this.bidButton.textContent = `Bid ${bidLabel(move.text)}`;
    if (this.oddsEl) this.oddsEl.textContent = oddsText(this.S, move.text) || "";
  }
}
