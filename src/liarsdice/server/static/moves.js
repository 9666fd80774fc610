// The move picker, built from the view's `legal` list only (each move's `action` integer is
// what is sent; its `text` notation is only read to lay the moves out):
//   * bids: a row of quantities (pick one) and a row of faces (click one to bid), only legal
//     combinations enabled; poker claims: a builder (the kind of hand, then its cards) and
//     one button, enabled only for a legal claim;
//   * show-and-reroll: click your dice to pick which to show;
//   * poker dice: click dice to move them between the cup and outside, to roll them (every
//     die drawn: a die under the cup shakes the cup), or to keep them;
//   * calls and every other move: buttons.
// Every legal move is reachable: anything the layouts don't place becomes a plain button.

import { fill, h } from "./dom.js";
import { die, faceName, faceWords } from "./dice.js";
import { _, parts as withNodes, pgettext } from "./i18n.js";
import { parseBid } from "./odds.js";
import { POKER_CATEGORIES, POKER_FACES, POKER_SHAPES, bidLabel, describeMove, pokerCategory, pokerHand, pokerParts, pokerRank, pokerText, pokerWords } from "./words.js";
import { isPoker, myTurn, nameOf, oddsPercent } from "./table.js";

const ZONES = {
  hand: { key: "hand", label: "", mine: true },
  cup: { key: "cup", label: _("Under the cup"), mine: true },
  outside: { key: "outside", label: _("Outside the cup (everyone sees)"), mine: false },
  fixed: { key: "fixed", label: _("Under the cup"), mine: true },
};

/** Sorted multiset key of faces: [5, 1, 5] -> "1,5,5"; poker faces by rank. */
function multiset(faces, poker) {
  const sorted = [...faces].map(String).sort((a, b) => (poker ? pokerRank(a) - pokerRank(b) : Number(a) - Number(b)));
  return sorted.join(",");
}

function tokensAfter(text, prefix, sep) {
  const rest = text.slice(prefix.length).trim();
  return rest ? rest.split(sep).map((x) => x.trim()).filter(Boolean) : [];
}

/** Which control a legal move goes to. */
function category(text, poker) {
  if (!poker) {
    if (/^\d+x\d+$/.test(text)) return "bid";
    if (text.startsWith("show ")) return "show";
    return "button";
  }
  if (["liar", "accept", "left", "right"].includes(text)) return "button";
  if (text.startsWith("out ")) return "out";
  if (text === "no reroll" || text === "shake" || text.startsWith("shake reroll ") || text.startsWith("reroll ")) return "roll";
  if (text.startsWith("keep ")) return "keep";
  if (pokerCategory(text)) return "bid";
  return "button";
}

const BUTTONS = {
  liar: [_("Liar!"), "call", (cur) => _("Call liar: {bid} is too high", { bid: cur })],
  exact: [_("Exact!"), "call", (cur) => _("Call exact: exactly {bid}", { bid: cur })],
  accept: [_("Accept the cup"), "primary", (cur) => _("Accept the cup and {bid}", { bid: cur })],
  // seen from above, the cup goes clockwise to the left and anticlockwise to the right
  left: [_("Pass left ⟳"), "", () => _("Pass the cup to the left")],
  right: [_("Pass right ⟲"), "", () => _("Pass the cup to the right")],
  "no-show": [_("Don't show"), "", () => _("Show no dice")],
  buy: [_("Buy a die"), "", () => _("Buy a die")],
  "ask turn": [_("Ask whose turn it is (costs a die)"), "", () => _("Ask whose turn it is: costs a die")],
  "ask count": [_("Ask how many dice are left (costs a die)"), "", () => _("Ask how many dice are left: costs a die")],
};

export class MovePicker {
  /** `section` is shown on the player's turn; `body` (a fieldset) holds the controls. */
  constructor(section, body, { onMove, onSelection }) {
    this.section = section;
    this.body = body;
    this.onMove = onMove;
    this.onSelection = onSelection;
    this.signature = "";
    this.S = null;
    this.sel = null; // the dice selection the tray draws
  }

  update(S) {
    this.S = S;
    const show = myTurn(S);
    this.section.hidden = !show;
    if (!show) {
      if (this.signature) {
        this.signature = "";
        this.sel = null;
        fill(this.body);
      }
      return;
    }
    const sig = `${S.view.game_no}|${S.view.round}|${S.seat}|${S.view.legal.map((m) => m.action).join(",")}|${S.oddsOn}`;
    if (sig !== this.signature) {
      this.signature = sig;
      this.build(S);
    }
    this.body.disabled = Boolean(S.pending);
  }

  /** The dice selection for the tray, or null. */
  selection() {
    return this.sel;
  }

  move(m) {
    this.onMove(m);
  }

  build(S) {
    const poker = isPoker(S);
    const groups = new Map();
    for (const move of S.view.legal) {
      const cat = category(move.text, poker);
      if (!groups.has(cat)) groups.set(cat, []);
      groups.get(cat).push(move);
    }
    this.placed = new Set();
    this.sel = null;
    const cur = S.view.current_bid ? bidLabel(S.view.current_bid) : "";
    const parts = [h("legend", { class: "visually-hidden", text: _("Your move") })];
    if (S.view.current_bid) parts.push(h("p", { class: "move-context", id: "move-context" }, withNodes(this.context(S, poker), { bid: h("strong", { text: cur }) })));
    const buttons = (groups.get("button") || []).map((move) => this.button(move, cur));
    if (buttons.length) parts.push(h("div", { class: "move-buttons" }, buttons));
    if (groups.get("bid")) parts.push(poker ? this.pokerBids(groups.get("bid")) : this.bidGrid(groups.get("bid")));
    if (groups.get("show")) parts.push(this.showPicker(groups.get("show")));
    if (groups.get("out")) parts.push(this.arrangePicker(groups.get("out")));
    if (groups.get("roll")) parts.push(this.rollPicker(groups.get("roll")));
    if (groups.get("keep")) parts.push(this.keepPicker(groups.get("keep")));
    fill(this.body, parts);
    this.onSelection();
  }

  /** The sentence above the moves about the standing bid ({bid} left for the bid in bold). */
  context(S, poker) {
    if (!poker) return S.view.bidder === S.seat ? _("Bid to beat: {bid} by you") : _("Bid to beat: {bid} by {name}", { name: nameOf(S, S.view.bidder) });
    if (S.view.bidder === S.seat) return _("Your claim: {bid}. Pass the cup.");
    const answers = S.view.legal.map((m) => m.text);
    if (answers.includes("accept") && answers.includes("liar")) return _("{name} claims {bid}: accept the cup or call liar.", { name: nameOf(S, S.view.bidder) });
    return _("Claim to beat: {bid} by {name}", { name: nameOf(S, S.view.bidder) });
  }

  button(move, cur) {
    const [text, cls, aria] = BUTTONS[move.text] || [capital(describeMove(move.text)), "", () => capital(describeMove(move.text))];
    return h("button", {
      type: "button",
      class: cls,
      "data-move": move.text,
      "aria-label": aria(cur),
      text,
      onclick: () => this.move(move),
    });
  }

  // ------------------------------------------------------------ bidding family: the grid

  bidGrid(bids) {
    const S = this.S;
    const byQty = new Map();
    for (const move of bids) {
      const b = parseBid(move.text);
      if (!byQty.has(b.quantity)) byQty.set(b.quantity, new Map());
      byQty.get(b.quantity).set(b.face, move);
    }
    this.byQty = byQty;
    const qs = [...byQty.keys()].sort((a, b) => a - b);
    const faces = (S.room.rules && S.room.rules.faces) || Math.max(6, ...bids.map((m) => parseBid(m.text).face));
    const wild = S.room.rules ? S.room.rules.wild : null;
    // Start on the least quantity with a bid on a face that isn't wild (the usual raise).
    const plain = qs.find((q) => [...byQty.get(q).keys()].some((f) => f !== wild));
    if (this.qty === undefined || !byQty.has(this.qty) || this.qtyGame !== `${S.view.game_no}/${S.view.round}/${S.view.bids.length}`) {
      this.qty = plain ?? qs[0];
      this.qtyGame = `${S.view.game_no}/${S.view.round}/${S.view.bids.length}`;
    }
    const lo = qs[0];
    const hi = qs[qs.length - 1];
    const qtyButtons = [];
    for (let q = lo; q <= hi; q++) {
      const ok = byQty.has(q);
      qtyButtons.push(
        h("button", {
          type: "button",
          role: "radio",
          class: "qty",
          id: `qty-${q}`,
          "data-qty": q,
          "aria-checked": q === this.qty ? "true" : "false",
          tabindex: q === this.qty ? "0" : "-1",
          disabled: !ok,
          text: String(q),
          onclick: () => this.pickQty(q),
        }),
      );
    }
    this.qtyRow = h("div", { class: "qty-row", role: "radiogroup", "aria-labelledby": "qty-label", onkeydown: (ev) => this.qtyKey(ev) }, qtyButtons);
    this.faceRow = h("div", { class: "face-row", role: "group", "aria-labelledby": "face-label" });
    this.faces = faces;
    this.fillFaces();
    for (const move of bids) this.placed.add(move.action);
    return h(
      "div",
      { class: "bid-grid" },
      h("div", { class: "grid-line" }, h("span", { class: "row-label", id: "qty-label", text: _("How many?") }), this.qtyRow),
      h("div", { class: "grid-line" }, h("span", { class: "row-label", id: "face-label", text: _("Of which face? Click to bid.") }), this.faceRow),
    );
  }

  pickQty(q, focus = false) {
    if (!this.byQty.has(q)) return;
    this.qty = q;
    for (const b of this.qtyRow.querySelectorAll("button.qty")) {
      const on = Number(b.dataset.qty) === q;
      b.setAttribute("aria-checked", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
      if (on && focus) b.focus();
    }
    this.fillFaces();
  }

  qtyKey(ev) {
    const qs = [...this.byQty.keys()].sort((a, b) => a - b);
    const i = qs.indexOf(this.qty);
    const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: qs.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.pickQty(qs[Math.max(0, Math.min(qs.length - 1, to))], true);
  }

  fillFaces() {
    const legal = this.byQty.get(this.qty) || new Map();
    const focusedFace = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.bidFace : undefined;
    const buttons = [];
    for (let f = 1; f <= this.faces; f++) {
      const move = legal.get(f);
      const text = `${this.qty}x${f}`;
      const odds = move ? oddsPercent(this.S, text) : null;
      buttons.push(
        h(
          "button",
          {
            type: "button",
            class: "face",
            id: `face-${f}`,
            "data-bid-face": f,
            "data-move": move ? move.text : null,
            disabled: !move,
            "aria-label": odds ? _("Bid {quantity} {faces}, {odds} likely", { quantity: this.qty, faces: faceWords(f, this.qty), odds }) : _("Bid {quantity} {faces}", { quantity: this.qty, faces: faceWords(f, this.qty) }),
            onclick: () => move && this.move(move),
          },
          die(f, { glyph: true }),
          odds ? h("span", { class: "face-odds", "aria-hidden": "true", text: odds }) : null,
        ),
      );
    }
    fill(this.faceRow, buttons);
    if (focusedFace !== undefined) {
      const again = this.faceRow.querySelector(`[data-bid-face="${focusedFace}"]:not(:disabled)`);
      if (again) again.focus();
    }
  }

  // ------------------------------------------------------------ poker dice: the claim builder

  /**
   * Poker claims, built in two steps: the kind of hand (a select), then its cards (a select per
   * die it names; the other dice, "kickers", optional), and one button that makes the claim,
   * enabled only when the server's legal list holds it. It starts from `startingClaim`; "My
   * hand" sets it to your five dice's reading when that beats the standing claim, "Lowest"
   * back to the least claim that does. Compact on purpose: your dice in the tray above stay
   * in view while you claim.
   */
  pokerBids(bids) {
    this.claimMoves = new Map(bids.map((m) => [m.text, m]));
    for (const m of bids) this.placed.add(m.action);
    this.leastClaim = leastMove(bids).text;
    const hand = pokerHand([...this.S.view.cup, ...this.S.view.outside]);
    this.handClaim = hand && this.claimMoves.has(hand) ? hand : null;
    this.claim = pokerParts(startingClaim(bids, this.S.view.current_bid, hand));
    this.claimBox = h("div", { class: "bid-grid claim-builder", id: "claim-builder" });
    this.drawClaim();
    return this.claimBox;
  }

  /** Redraw the builder for `this.claim`, keeping the focus on the control that had it. */
  drawClaim() {
    const focused = this.claimBox.contains(document.activeElement) ? document.activeElement.id : null;
    const c = this.claim;
    const text = pokerText(c);
    const move = this.claimMoves.get(text) || null;
    const legalKinds = new Set([...this.claimMoves.keys()].map(pokerCategory));
    const kinds = POKER_CATEGORIES.filter(([cat]) => legalKinds.has(cat)).map(([cat, label]) => ({ value: cat, text: label }));
    const slots = [slot("claim-kind", _("Claim a hand:"), select("claim-kind", kinds, c.cat, (cat) => this.pickKind(cat)))];
    RANK_LABELS[c.cat]().forEach((label, i) => {
      const options = this.rankOptions(i);
      slots.push(slot(`claim-rank-${i}`, label, select(`claim-rank-${i}`, options, c.ranks[i], (face) => this.pickRank(i, face))));
    });
    const most = POKER_SHAPES[c.cat].kickers;
    if (most) {
      const kickers = [];
      for (let i = 0; i < most; i++) {
        const options = [{ value: "", text: "—", label: pgettext("dice", "none") }, ...this.kickerOptions()];
        kickers.push(select(`claim-kicker-${i}`, options, c.kickers[i] || "", (face) => this.pickKicker(i, face), { "aria-label": _("Other die {n} (optional)", { n: i + 1 }) }));
      }
      slots.push(h("div", { class: "claim-slot claim-kickers", role: "group", "aria-labelledby": "claim-kickers-label" }, h("span", { class: "claim-slot-label", id: "claim-kickers-label", text: _("Other dice") }), h("span", { class: "claim-kicker-row" }, kickers)));
    }
    const shortcut = (id, label, claim) =>
      h("button", { type: "button", class: "claim-shortcut", id, disabled: claim === text, "data-move": claim, text: label, onclick: () => this.setClaim(claim) });
    fill(
      this.claimBox,
      h("div", { class: "claim-line" }, slots),
      h(
        "div",
        { class: "claim-actions" },
        h("button", { type: "button", class: "primary", id: "claim-button", "data-move": move ? move.text : null, disabled: !move, text: _("Claim {hand}", { hand: pokerWords(text) || text }), onclick: () => move && this.move(move) }),
        this.handClaim ? shortcut("claim-mine", _("My hand: {hand}", { hand: pokerWords(this.handClaim) }), this.handClaim) : null,
        this.leastClaim !== this.handClaim ? shortcut("claim-least", _("Lowest: {hand}", { hand: pokerWords(this.leastClaim) }), this.leastClaim) : null,
      ),
      move ? null : h("p", { class: "hint claim-why", id: "claim-why", role: "status", text: this.whyNot(c) }),
    );
    const again = focused && document.getElementById(focused);
    if (again) again.focus({ preventScroll: true });
  }

  /** Why the claim being built can't be made (it is not in the legal list). */
  whyNot(c) {
    if (c.cat === "high" && c.kickers.filter(Boolean).length === 4 && pokerRank(c.ranks[0]) - Math.min(...c.kickers.map(pokerRank)) === 4) {
      return _("Five dice in a row are a straight: claim the straight.");
    }
    const cur = this.S.view.current_bid;
    return cur ? _("Too low: your claim must beat {bid}.", { bid: pokerWords(cur) || cur }) : _("You can't claim that now.");
  }

  setClaim(text) {
    this.claim = pokerParts(text);
    this.drawClaim();
  }

  /** Another kind of hand: its least legal claim. */
  pickKind(cat) {
    const moves = [...this.claimMoves.values()].filter((m) => pokerCategory(m.text) === cat);
    if (moves.length) this.setClaim(leastMove(moves).text);
  }

  pickRank(i, face) {
    this.claim = withRank(this.claim, i, face);
    this.drawClaim();
  }

  pickKicker(i, face) {
    this.claim = withKicker(this.claim, i, face);
    this.drawClaim();
  }

  /** Faces for rank slot `i`, each enabled only when some legal claim of this kind names those ranks. */
  rankOptions(i) {
    const c = this.claim;
    const named = new Set([...this.claimMoves.keys()].map(pokerParts).filter((p) => p.cat === c.cat).map((p) => pokerText({ ...p, kickers: [] })));
    const faces = c.cat === "straight" ? ["K", "A"] : POKER_FACES;
    return faces.map((face) => ({
      value: face,
      text: c.cat === "straight" ? (face === "A" ? _("high (A K Q J 10)") : _("low (K Q J 10 9)")) : `${face} · ${faceWords(face, c.cat === "high" ? 1 : 2)}`,
      disabled: !named.has(pokerText({ ...withRank(c, i, face), kickers: [] })),
    }));
  }

  /** Faces an other die may show: not one of the ranks named (nor above a high die). */
  kickerOptions() {
    const c = this.claim;
    return POKER_FACES.filter((f) => !c.ranks.includes(f) && (c.cat !== "high" || pokerRank(f) < pokerRank(c.ranks[0]))).map((face) => ({ value: face, text: `${face} · ${faceWords(face, 1)}` }));
  }

  // ------------------------------------------------------------ dice you click

  /**
   * Dice you click to pick some (the four pickers below): ``sel`` is the tray's selection
   * (mode, title, caption, dice; null: no die to click), ``chosen()`` the move the picks make
   * (null: none yet), ``update(m)`` relabels the dice and returns the button's text. Returns
   * the picker (``extra`` before its button) and the function that redraws it.
   */
  dicePicker(id, sel, chosen, update, extra = null) {
    const button = h("button", { type: "button", id, class: "primary", onclick: () => chosen() && this.move(chosen()) });
    const refresh = () => {
      const m = chosen();
      button.disabled = !m;
      button.textContent = update(m);
      this.onSelection();
    };
    const toggle = (i) => {
      const d = sel.dice[i];
      if (d.onpick) d.onpick(); // a die that stands for a choice of its own (the cup's shake)
      else d.picked = !d.picked;
      refresh();
    };
    this.sel = sel && { ...sel, toggle };
    refresh();
    return [h("div", { class: "picker" }, extra, button), refresh];
  }

  /** Show-and-reroll: pick dice to show; the rest are re-rolled. */
  showPicker(moves) {
    const S = this.S;
    const byKey = new Map(moves.map((m) => [multiset(tokensAfter(m.text, "show ", ","), false), m]));
    for (const m of moves) this.placed.add(m.action);
    const dice = S.view.my_dice.map((f) => ({ face: f, picked: false, zone: ZONES.hand, src: "mine", label: "" }));
    const sel = { mode: "show", title: _("Your dice"), caption: _("Click dice to show them to everyone; the others are re-rolled. Then you raise."), dice };
    const [picker] = this.dicePicker("show-button", sel, () => pickedMove(byKey, dice, false), (m) => {
      const picked = dice.filter((d) => d.picked);
      dice.forEach((d) => (d.label = d.picked ? _("{face}: will be shown", { face: faceName(d.face) }) : _("{face}: stays hidden", { face: faceName(d.face) })));
      return picked.length === 0 ? _("Pick dice to show") : m ? _("Show {shown} and re-roll {rolled}", { shown: picked.length, rolled: dice.length - picked.length }) : _("Keep at least one die hidden");
    });
    return picker;
  }

  /** Poker: arrange the five dice between the cup and outside. */
  arrangePicker(moves) {
    const S = this.S;
    const byKey = new Map(moves.map((m) => [m.text === "out none" ? "" : multiset(tokensAfter(m.text, "out ", " "), true), m]));
    for (const m of moves) this.placed.add(m.action);
    const dice = [
      ...S.view.cup.map((f) => ({ face: f, out: false })),
      ...S.view.outside.map((f) => ({ face: f, out: true })),
    ].map((d) => ({ ...d, picked: d.out, zone: d.out ? ZONES.outside : ZONES.cup, src: d.out ? "outside" : "cup", label: "" }));
    const sel = { mode: "arrange", title: _("Arrange the dice"), caption: _("Click a die to move it between the cup and the table. Dice outside are seen by everyone."), dice };
    const [picker] = this.dicePicker("arrange-button", sel, () => pickedMove(byKey, dice, true), (m) => {
      dice.forEach((d) => {
        d.zone = d.picked ? ZONES.outside : ZONES.cup;
        d.src = d.picked ? "outside" : "cup";
        d.label = d.picked ? _("{face}, outside the cup: click to put it under", { face: faceName(d.face) }) : _("{face}, under the cup: click to put it outside", { face: faceName(d.face) });
      });
      const out = dice.filter((d) => d.picked).length;
      return m ? (out ? _("Done: {out} outside, {under} under the cup", { out, under: dice.length - out }) : _("Done: every die under the cup")) : _("Leave at least one die under the cup");
    });
    return picker;
  }

  /** Poker: shake the cup and/or roll dice outside it. */
  rollPicker(moves) {
    const S = this.S;
    const key = (shake, faces) => `${shake ? "S" : "-"}|${multiset(faces, true)}`;
    const byKey = new Map();
    for (const m of moves) {
      this.placed.add(m.action);
      const t = m.text;
      if (t === "no reroll") byKey.set(key(false, []), m);
      else if (t === "shake") byKey.set(key(true, []), m);
      else if (t.startsWith("shake reroll ")) byKey.set(key(true, tokensAfter(t, "shake reroll ", " ")), m);
      else byKey.set(key(false, tokensAfter(t, "reroll ", " ")), m);
    }
    const canShake = moves.some((m) => m.text.startsWith("shake"));
    let shake = false;
    let refresh = null;
    // Every die is drawn: the ones under the cup (clicking one shakes the cup: all of them
    // are re-rolled) and the ones outside (each rolled in view or kept).
    const under = S.view.cup.map((f) => ({ face: f, picked: false, zone: ZONES.cup, src: "cup", label: "", onpick: () => canShake && (shake = !shake) }));
    const outside = S.view.outside.map((f) => ({ face: f, picked: false, zone: ZONES.outside, src: "outside", label: "" }));
    const dice = [...under, ...outside];
    // Shaking is a choice that goes with the roll, not a move of its own: a checkbox.
    const shakeBox = canShake
      ? h("input", { type: "checkbox", id: "shake-toggle", "aria-describedby": "shake-hint", onchange: (ev) => { shake = ev.currentTarget.checked; refresh(); } })
      : null;
    const shakeButton = canShake
      ? h(
          "div",
          { class: "toggle shake-toggle" },
          shakeBox,
          h("label", { for: "shake-toggle", text: _("Shake the cup") }),
          h("span", { class: "hint", id: "shake-hint", text: ` ${_("(re-rolls the dice under it, unseen)")}` }),
        )
      : null;
    const chosen = () => byKey.get(key(shake, outside.filter((d) => d.picked).map((d) => d.face))) || null;
    const caption = under.length && canShake ? _("Click the dice under the cup to shake it (all of them are re-rolled, unseen) and dice outside to roll them in view; the others stay.") : _("Click dice outside the cup to roll them in view.");
    const sel = dice.length ? { mode: "roll", title: pgettext("heading", "Roll"), caption, dice } : null;
    const update = () => {
      for (const d of under) {
        d.picked = shake;
        d.label = shake ? _("{face}, under the cup: will be shaken", { face: faceName(d.face) }) : _("{face}, under the cup: stays", { face: faceName(d.face) });
      }
      outside.forEach((d) => (d.label = d.picked ? _("{face}, outside: will be rolled", { face: faceName(d.face) }) : _("{face}, outside: stays", { face: faceName(d.face) })));
      if (shakeBox) shakeBox.checked = shake;
      const n = outside.filter((d) => d.picked).length;
      return !shake && !n ? _("Roll nothing") : shake && n ? _("Roll the cup and {n} outside", { n }) : shake ? _("Roll the cup") : _("Roll {n} outside", { n });
    };
    let picker;
    [picker, refresh] = this.dicePicker("roll-button", sel, chosen, update, shakeButton);
    return picker;
  }

  /** Poker: five-of-a-kind attempts: keep some dice and roll the rest. */
  keepPicker(moves) {
    const S = this.S;
    const byKey = new Map(moves.map((m) => [m.text === "keep none" ? "" : multiset(tokensAfter(m.text, "keep ", " "), true), m]));
    for (const m of moves) this.placed.add(m.action);
    const dice = S.view.outside.map((f) => ({ face: f, picked: false, zone: ZONES.outside, src: "outside", label: "" }));
    const sel = { mode: "keep", title: _("Make five of a kind"), caption: _("Click the dice to keep; the others are rolled."), dice };
    const [picker] = this.dicePicker("keep-button", sel, () => pickedMove(byKey, dice, true), (m) => {
      dice.forEach((d) => (d.label = d.picked ? _("{face}: kept", { face: faceName(d.face) }) : _("{face}: will be rolled", { face: faceName(d.face) })));
      const n = dice.filter((d) => d.picked).length;
      return m ? _("Keep {kept}, roll {rolled}", { kept: n, rolled: dice.length - n }) : _("Roll at least one die");
    });
    return picker;
  }
}

// ------------------------------------------------------------ the claim builder's pure parts

/** The move with the lowest action number: the least claim (bids are numbered in order). */
function leastMove(moves) {
  return moves.reduce((a, b) => (b.action < a.action ? b : a));
}

/**
 * The claim the builder starts from (notation): the least legal claim, that is the least that
 * beats the standing one; when opening (no claim to beat), your `hand` (its reading in
 * notation, from `pokerHand`). `bids`: the legal claims ({action, text}).
 */
export function startingClaim(bids, currentBid, hand) {
  if (!currentBid && hand && bids.some((m) => m.text === hand)) return hand;
  return leastMove(bids).text;
}

/** Claim `c` ({cat, ranks, kickers}) with rank slot `i` set to `face`: a rank named twice swaps places, other dice that now clash go. */
export function withRank(c, i, face) {
  const ranks = [...c.ranks];
  const j = ranks.indexOf(face);
  if (j >= 0 && j !== i) ranks[j] = ranks[i];
  ranks[i] = face;
  const fits = (k) => !ranks.includes(k) && (c.cat !== "high" || pokerRank(k) < pokerRank(ranks[0]));
  return pokerParts(pokerText({ cat: c.cat, ranks, kickers: c.kickers.filter(fits) }));
}

/** Claim `c` with other die `i` set to `face` ("" removes it): a face picked twice swaps places. */
export function withKicker(c, i, face) {
  const kickers = [...c.kickers];
  const j = face ? kickers.indexOf(face) : -1;
  if (j >= 0 && j !== i) kickers[j] = kickers[i];
  kickers[i] = face;
  return pokerParts(pokerText({ ...c, kickers: kickers.filter(Boolean) }));
}

// The label of each rank slot, per kind of hand ("Pair of [kings]", "Three [jacks]").
const RANK_LABELS = {
  junk: () => [],
  high: () => [pgettext("claim", "High die")],
  pair: () => [pgettext("claim", "Pair of")],
  "two pair": () => [pgettext("claim", "Pairs of"), pgettext("claim", "and")],
  three: () => [pgettext("claim", "Three")],
  straight: () => [pgettext("claim", "Which")],
  "full house": () => [pgettext("claim", "Three"), pgettext("claim", "over two")],
  four: () => [pgettext("claim", "Four")],
  five: () => [pgettext("claim", "Five")],
};

/** A select of `options` ({value, text, disabled, label}) showing `value`; `onpick(value)` on a change. */
function select(id, options, value, onpick, attrs = {}) {
  const el = h(
    "select",
    { id, ...attrs, onchange: (ev) => onpick(ev.currentTarget.value) },
    options.map((o) => h("option", { value: o.value, disabled: Boolean(o.disabled), "aria-label": o.label || null, text: o.text })),
  );
  el.value = value;
  return el;
}

/** A labelled slot of the builder: the label above its control. */
function slot(id, label, control) {
  return h("div", { class: "claim-slot" }, h("label", { class: "claim-slot-label", for: id, text: label }), control);
}

/** The move of the picked dice in ``byKey`` (by the multiset of their faces). */
function pickedMove(byKey, dice, sorted) {
  return byKey.get(multiset(dice.filter((d) => d.picked).map((d) => d.face), sorted)) || null;
}

function capital(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
