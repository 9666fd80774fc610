// Poker dice's move controls (the picker's shell is moves.js): the claim builder (the kind
// of hand, then its cards; it starts from the least claim that beats the standing one, "My
// hand" when your five dice beat it); the dice you click to move between the cup and the
// table, to roll, or to keep for five of a kind; the calls and passes: buttons.

import { fill, h } from "./dom.js";
import { faceName, faceWords } from "./dice.js";
import { _, pgettext } from "./i18n.js";
import { groupMoves, multiset, pickedMove } from "./pickers.js";
import { POKER_CATEGORIES, POKER_FACES, POKER_SHAPES, claimWords, pokerRank } from "./family-poker-words.js";

/** @typedef {import("./types.js").ArrangeMove} ArrangeMove */
/** @typedef {import("./types.js").ButtonWords} ButtonWords */
/** @typedef {import("./types.js").ClaimMove} ClaimMove */
/** @typedef {import("./types.js").KeepMove} KeepMove */
/** @typedef {import("./types.js").LegalEntry} LegalEntry */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").PickDie} PickDie */
/** @typedef {import("./types.js").RollMove} RollMove */
/** @typedef {import("./types.js").TableState} TableState */
/**
 * A claim as the builder edits it: its category (`cat`), the ranks it names, its other dice.
 * @typedef {{cat: string, ranks: string[], kickers: string[]}} ClaimParts
 */
/**
 * An option of the builder's selects.
 * @typedef {{value: string, text: string, disabled?: boolean, label?: string}} Choice
 */

const ZONES = {
  cup: { key: "cup", label: _("Under the cup"), mine: true },
  outside: { key: "outside", label: _("Outside the cup (everyone sees)"), mine: false },
};

/**
 * Poker's buttons: [text, class, aria-label of the claim to beat].
 * @type {Record<string, ButtonWords>}
 */
const BUTTONS = {
  accept: [_("Accept the cup"), "primary", (cur) => _("Accept the cup and {bid}", { bid: cur })],
  // seen from above, the cup goes clockwise to the left and anticlockwise to the right
  left: [_("Pass left ⟳"), "", () => _("Pass the cup to the left")],
  right: [_("Pass right ⟲"), "", () => _("Pass the cup to the right")],
};

/**
 * Which control a legal move goes to (by its structured move).
 * @type {Record<string, string>}
 */
const CONTROLS = { claim: "bid", arrange: "out", roll: "roll", keep: "keep" };
/** @param {Move} move */
const category = (move) => CONTROLS[move.kind] || "button";

/**
 * A button move's key in the buttons' tables ("liar", "accept", "left", "right").
 * @param {Move} move
 */
const buttonKey = (move) => (move.kind === "call" ? move.call : move.kind === "pass" ? move.direction : move.kind);

const rank = pokerRank;

export class PokerControls {
  /**
   * `picker`: the MovePicker whose shell these controls fill.
   * @param {import("./moves.js").MovePicker} picker
   */
  constructor(picker) {
    this.picker = picker;
  }

  /**
   * @param {TableState} S
   * @param {string} cur the claim to beat in words
   */
  build(S, cur) {
    this.S = S;
    const groups = groupMoves(S.view.legal, (m) => category(m.move));
    return [
      this.picker.buttons(groups.get("button") || [], cur, BUTTONS, buttonKey),
      groups.get("bid") ? this.pokerBids(groups.get("bid")) : null,
      groups.get("out") ? this.arrangePicker(groups.get("out")) : null,
      groups.get("roll") ? this.rollPicker(groups.get("roll")) : null,
      groups.get("keep") ? this.keepPicker(groups.get("keep")) : null,
    ];
  }

  /** @param {LegalEntry} m */
  move(m) {
    this.picker.move(m);
  }

  // ------------------------------------------------------------ poker dice: the claim builder

  /**
   * Poker claims, built in two steps: the kind of hand (a select), then its cards (a select per
   * die it names; the other dice, "kickers", optional), and one button that makes the claim,
   * enabled only when the server's legal list holds it. It starts from `startingClaim`; "My
   * hand" sets it to your five dice's reading when that beats the standing claim, "Lowest"
   * back to the least claim that does. Compact on purpose: your dice in the tray above stay
   * in view while you claim.
   * @param {LegalEntry[]} bids
   */
  pokerBids(bids) {
    this.claimMoves = new Map(bids.map((m) => [claimKey(partsOf(m.move)), m]));
    for (const m of bids) this.picker.placed.add(m.action);
    this.leastClaim = partsOf(leastMove(bids).move);
    const hand = this.S.view.hand_claim ? partsOf(this.S.view.hand_claim) : null;
    this.handClaim = hand && this.claimMoves.has(claimKey(hand)) ? hand : null;
    this.claim = startingClaim(bids, this.S.view.current_bid_move, this.handClaim);
    this.claimBox = h("div", { class: "bid-grid claim-builder", id: "claim-builder" });
    this.drawClaim();
    return this.claimBox;
  }

  /**
   * The legal claim of parts `c` ({cat, ranks, kickers}), or null.
   * @param {ClaimParts} c
   */
  legalClaim(c) {
    return this.claimMoves.get(claimKey(c)) || null;
  }

  /** Redraw the builder for `this.claim`, keeping the focus on the control that had it. */
  drawClaim() {
    const focused = this.claimBox.contains(document.activeElement) ? document.activeElement.id : null;
    const c = this.claim;
    const move = this.legalClaim(c);
    const legalKinds = new Set([...this.claimMoves.values()].map((m) => /** @type {ClaimMove} */ (m.move).category));
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
    /**
     * @param {string} id
     * @param {string} label
     * @param {ClaimParts} claim
     */
    const shortcut = (id, label, claim) =>
      h("button", { type: "button", class: "claim-shortcut", id, disabled: claimKey(claim) === claimKey(c), "data-move": this.legalClaim(claim).text, text: label, onclick: () => this.setClaim(claim) });
    const mine = this.handClaim;
    fill(
      this.claimBox,
      h("div", { class: "claim-line" }, slots),
      h(
        "div",
        { class: "claim-actions" },
        h("button", { type: "button", class: "primary", id: "claim-button", "data-move": move ? move.text : null, disabled: !move, text: _("Claim {hand}", { hand: claimWords(asMove(c)) }), onclick: () => move && this.move(move) }),
        mine ? shortcut("claim-mine", _("My hand: {hand}", { hand: claimWords(asMove(mine)) }), mine) : null,
        !mine || claimKey(this.leastClaim) !== claimKey(mine) ? shortcut("claim-least", _("Lowest: {hand}", { hand: claimWords(asMove(this.leastClaim)) }), this.leastClaim) : null,
      ),
      move ? null : h("p", { class: "hint claim-why", id: "claim-why", role: "status", text: this.whyNot(c) }),
    );
    const again = focused && document.getElementById(focused);
    if (again) again.focus({ preventScroll: true });
  }

  /**
   * Why the claim being built can't be made (it is not in the legal list).
   * @param {ClaimParts} c
   */
  whyNot(c) {
    if (c.cat === "high" && c.kickers.filter(Boolean).length === 4 && pokerRank(c.ranks[0]) - Math.min(...c.kickers.map(pokerRank)) === 4) {
      return _("Five dice in a row are a straight: claim the straight.");
    }
    const cur = this.S.view.current_bid_move;
    return cur ? _("Too low: your claim must beat {bid}.", { bid: claimWords(cur) }) : _("You can't claim that now.");
  }

  /** @param {ClaimParts} c */
  setClaim(c) {
    this.claim = normal(c);
    this.drawClaim();
  }

  /**
   * Another kind of hand: its least legal claim.
   * @param {string} cat
   */
  pickKind(cat) {
    const moves = [...this.claimMoves.values()].filter((m) => /** @type {ClaimMove} */ (m.move).category === cat);
    if (moves.length) this.setClaim(partsOf(leastMove(moves).move));
  }

  /**
   * @param {number} i
   * @param {string} face
   */
  pickRank(i, face) {
    this.claim = withRank(this.claim, i, face);
    this.drawClaim();
  }

  /**
   * @param {number} i
   * @param {string} face ("": none)
   */
  pickKicker(i, face) {
    this.claim = withKicker(this.claim, i, face);
    this.drawClaim();
  }

  /**
   * Faces for rank slot `i`, each enabled only when some legal claim of this kind names those ranks.
   * @param {number} i
   * @returns {Choice[]}
   */
  rankOptions(i) {
    const c = this.claim;
    const named = new Set([...this.claimMoves.values()].map((m) => partsOf(m.move)).filter((p) => p.cat === c.cat).map((p) => claimKey({ ...p, kickers: [] })));
    const faces = c.cat === "straight" ? ["K", "A"] : POKER_FACES;
    return faces.map((face) => ({
      value: face,
      text: c.cat === "straight" ? (face === "A" ? _("high (A K Q J 10)") : _("low (K Q J 10 9)")) : `${face} · ${faceWords(face, c.cat === "high" ? 1 : 2)}`,
      disabled: !named.has(claimKey({ ...withRank(c, i, face), kickers: [] })),
    }));
  }

  /**
   * Faces an other die may show: not one of the ranks named (nor above a high die).
   * @returns {Choice[]}
   */
  kickerOptions() {
    const c = this.claim;
    return POKER_FACES.filter((f) => !c.ranks.includes(f) && (c.cat !== "high" || pokerRank(f) < pokerRank(c.ranks[0]))).map((face) => ({ value: face, text: `${face} · ${faceWords(face, 1)}` }));
  }


  // ------------------------------------------------------------ dice you click

  /**
   * Poker: arrange the five dice between the cup and outside.
   * @param {LegalEntry[]} moves
   */
  arrangePicker(moves) {
    const S = this.S;
    const byKey = new Map(moves.map((m) => [multiset(/** @type {ArrangeMove} */ (m.move).outside, rank), m]));
    for (const m of moves) this.picker.placed.add(m.action);
    /** @type {PickDie[]} */
    const dice = [
      ...S.view.cup.map((f) => ({ face: f, out: false })),
      ...S.view.outside.map((f) => ({ face: f, out: true })),
    ].map((d) => ({ ...d, picked: d.out, zone: d.out ? ZONES.outside : ZONES.cup, src: d.out ? "outside" : "cup", label: "" }));
    const sel = { mode: "arrange", title: _("Arrange the dice"), caption: _("Click a die to move it between the cup and the table. Dice outside are seen by everyone."), dice };
    const [picker] = this.picker.dicePicker("arrange-button", sel, () => pickedMove(byKey, dice, rank), (m) => {
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

  /**
   * Poker: shake the cup and/or roll dice outside it.
   * @param {LegalEntry[]} moves
   */
  rollPicker(moves) {
    const S = this.S;
    /**
     * @param {boolean} shake
     * @param {import("./types.js").Face[]} faces
     */
    const key = (shake, faces) => `${shake ? "S" : "-"}|${multiset(faces, rank)}`;
    /** @type {Map<string, LegalEntry>} */
    const byKey = new Map();
    for (const m of moves) {
      this.picker.placed.add(m.action);
      const roll = /** @type {RollMove} */ (m.move);
      byKey.set(key(roll.shake, roll.dice), m);
    }
    const canShake = moves.some((m) => /** @type {RollMove} */ (m.move).shake);
    let shake = false;
    /** @type {() => void} */
    let refresh = null;
    // Every die is drawn: the ones under the cup (clicking one shakes the cup: all of them
    // are re-rolled) and the ones outside (each rolled in view or kept).
    /** @type {PickDie[]} */
    const under = S.view.cup.map((f) => ({ face: f, picked: false, zone: ZONES.cup, src: "cup", label: "", onpick: () => canShake && (shake = !shake) }));
    /** @type {PickDie[]} */
    const outside = S.view.outside.map((f) => ({ face: f, picked: false, zone: ZONES.outside, src: "outside", label: "" }));
    const dice = [...under, ...outside];
    // Shaking is a choice that goes with the roll, not a move of its own: a checkbox.
    const shakeBox = canShake
      ? h("input", { type: "checkbox", id: "shake-toggle", "aria-describedby": "shake-hint", onchange: (ev) => { shake = /** @type {HTMLInputElement} */ (ev.currentTarget).checked; refresh(); } })
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
    [picker, refresh] = this.picker.dicePicker("roll-button", sel, chosen, update, shakeButton);
    return picker;
  }

  /**
   * Poker: five-of-a-kind attempts: keep some dice and roll the rest.
   * @param {LegalEntry[]} moves
   */
  keepPicker(moves) {
    const S = this.S;
    const byKey = new Map(moves.map((m) => [multiset(/** @type {KeepMove} */ (m.move).dice, rank), m]));
    for (const m of moves) this.picker.placed.add(m.action);
    /** @type {PickDie[]} */
    const dice = S.view.outside.map((f) => ({ face: f, picked: false, zone: ZONES.outside, src: "outside", label: "" }));
    const sel = { mode: "keep", title: _("Make five of a kind"), caption: _("Click the dice to keep; the others are rolled."), dice };
    const [picker] = this.picker.dicePicker("keep-button", sel, () => pickedMove(byKey, dice, rank), (m) => {
      dice.forEach((d) => (d.label = d.picked ? _("{face}: kept", { face: faceName(d.face) }) : _("{face}: will be rolled", { face: faceName(d.face) })));
      const n = dice.filter((d) => d.picked).length;
      return m ? _("Keep {kept}, roll {rolled}", { kept: n, rolled: dice.length - n }) : _("Roll at least one die");
    });
    return picker;
  }
}

// ------------------------------------------------------------ the claim builder's pure parts

/**
 * The move with the lowest action number: the least claim (bids are numbered in order).
 * @param {LegalEntry[]} moves
 */
function leastMove(moves) {
  return moves.reduce((a, b) => (b.action < a.action ? b : a));
}

/**
 * A claim move's parts, as the builder edits them: {cat, ranks, kickers}.
 * @param {Move} claim
 * @returns {ClaimParts}
 */
function partsOf(claim) {
  const move = /** @type {ClaimMove} */ (claim);
  return { cat: move.category, ranks: [...move.ranks], kickers: [...move.kickers] };
}

/**
 * Parts back as a claim move (for its words).
 * @param {ClaimParts} c
 * @returns {ClaimMove}
 */
function asMove(c) {
  return { kind: "claim", category: c.cat, ranks: c.ranks, kickers: c.kickers.filter(Boolean) };
}

/**
 * @param {string} a
 * @param {string} b
 */
const byRankDown = (a, b) => pokerRank(b) - pokerRank(a);

/** Parts in the order the server's claims have them: a two pair's ranks and the other dice
 * highest first (so a claim picked in any order finds its legal move).
 * @param {ClaimParts} c
 * @returns {ClaimParts}
 */
function normal(c) {
  const ranks = c.cat === "two pair" ? [...c.ranks].sort(byRankDown) : [...c.ranks];
  return { cat: c.cat, ranks, kickers: c.kickers.filter(Boolean).sort(byRankDown) };
}

/**
 * A claim's key, the same for the same claim however its parts were picked.
 * @param {ClaimParts} c
 */
function claimKey(c) {
  const n = normal(c);
  return JSON.stringify([n.cat, n.ranks, n.kickers]);
}

/**
 * The claim the builder starts from (parts): the least legal claim, that is the least that
 * beats the standing one; when opening (no claim to beat), your `hand` (the parts of the claim
 * your five dice make, when it is legal). `bids`: the legal claims ({action, text, move}).
 * @param {LegalEntry[]} bids
 * @param {Move | null} currentBid
 * @param {ClaimParts | null} hand
 */
export function startingClaim(bids, currentBid, hand) {
  if (!currentBid && hand) return normal(hand);
  return partsOf(leastMove(bids).move);
}

/**
 * Claim `c` ({cat, ranks, kickers}) with rank slot `i` set to `face`: a rank named twice swaps places, other dice that now clash go.
 * @param {ClaimParts} c
 * @param {number} i
 * @param {string} face
 */
export function withRank(c, i, face) {
  const ranks = [...c.ranks];
  const j = ranks.indexOf(face);
  if (j >= 0 && j !== i) ranks[j] = ranks[i];
  ranks[i] = face;
  /** @param {string} k */
  const fits = (k) => !ranks.includes(k) && (c.cat !== "high" || pokerRank(k) < pokerRank(ranks[0]));
  return normal({ cat: c.cat, ranks, kickers: c.kickers.filter(fits) });
}

/**
 * Claim `c` with other die `i` set to `face` ("" removes it): a face picked twice swaps places.
 * @param {ClaimParts} c
 * @param {number} i
 * @param {string} face
 */
export function withKicker(c, i, face) {
  const kickers = [...c.kickers];
  const j = face ? kickers.indexOf(face) : -1;
  if (j >= 0 && j !== i) kickers[j] = kickers[i];
  kickers[i] = face;
  return normal({ ...c, kickers: kickers.filter(Boolean) });
}

// The label of each rank slot, per kind of hand ("Pair of [kings]", "Three [jacks]").
/** @type {Record<string, () => string[]>} */
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

/**
 * A select of `options` ({value, text, disabled, label}) showing `value`; `onpick(value)` on a change.
 * @param {string} id
 * @param {Choice[]} options
 * @param {string} value
 * @param {(value: string) => void} onpick
 * @param {Record<string, unknown>} [attrs]
 */
function select(id, options, value, onpick, attrs = {}) {
  const el = h(
    "select",
    { id, ...attrs, onchange: (ev) => onpick(/** @type {HTMLSelectElement} */ (ev.currentTarget).value) },
    options.map((o) => h("option", { value: o.value, disabled: Boolean(o.disabled), "aria-label": o.label || null, text: o.text })),
  );
  el.value = value;
  return el;
}

/**
 * A labelled slot of the builder: the label above its control.
 * @param {string} id
 * @param {string} label
 * @param {import("./dom.js").Child} control
 */
function slot(id, label, control) {
  return h("div", { class: "claim-slot" }, h("label", { class: "claim-slot-label", for: id, text: label }), control);
}
