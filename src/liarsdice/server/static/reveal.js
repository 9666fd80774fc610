// The reveal after a call: the cups lift, every seat's dice appear on its place at the table,
// the dice that count for the bid light up one by one while the centre counts them, then the
// verdict and the loss (the loser's lost dice fall away). With prefers-reduced-motion the
// final state is shown at once. The dice shown are the result's public `reveal` (sent to
// everyone once the round is over). The same result is also written out as text under the
// table and announced in the live region, once the count is done.
//
// The server holds the next round while a reveal shows (`room.reveal`, the reveal phase) and
// decides its timeline (`room.reveal.plan`: the lift, one step per counted die, the pause, then
// the verdict, which stays at least `hold` seconds): the page's animation follows that plan,
// so the verdict is always seen. The verdict stays until every player at the table pressed
// Continue (the `continue` message) or the phase's time ran out; anyone seated may press Wait
// once (the `wait` message: the server holds the round up to 15 s more); "Skip" jumps to the
// verdict. When the phase ends the reveal ends with it, and only then does the page show the
// next round (or the ranking).

import { animateOnce, changed, h, reducedMotion, signature } from "./dom.js";
import { _, ngettext, pgettext } from "./i18n.js";
import { cup, die } from "./dice.js";
import { familyOf } from "./family.js";
import { me, nameOf, seatName, who } from "./facts.js";
import { describeResult } from "./table.js";
import { play } from "./sound.js";

/** @typedef {import("./types.js").Drawing} Drawing */
/** @typedef {import("./types.js").Reveal} Reveal */
/** @typedef {import("./types.js").RevealPhase} RevealPhase */
/** @typedef {import("./types.js").RevealPlan} RevealPlan */
/** @typedef {import("./types.js").RoomState} RoomState */
/** @typedef {import("./types.js").RoundResult} RoundResult */
/** @typedef {import("./types.js").TableState} TableState */
/**
 * What a change of the reveal tells the page: the verdict shows, or the reveal ended.
 * @typedef {{verdict?: boolean, ended?: boolean}} RevealChange
 */

// Without a server plan (a reveal the server does not hold: nobody else at the table)
const LIFT_MS = 900; // cups lift, dice appear
const STEP_MS = 320; // one counted die (shorter when there are many)
const COUNT_MAX_MS = 3000;
const PAUSE_MS = 450; // after the count, before the verdict
const HOLD_MS = 2500; // the verdict stays
const STATIC_HOLD_MS = 3000; // reduced motion: the final state stays this long

/**
 * The reveal's timeline in ms: the server's plan, else the page's own (same shape). `left`:
 * ms until the server ends the phase (null: unknown); a frame that came late (a slow network,
 * a busy machine) squeezes the count, never the verdict's hold.
 * @param {RevealPlan | null} plan
 * @param {number} counted
 * @param {number | null} [left]
 */
export function revealTimeline(plan, counted, left = null) {
  if (plan) {
    let lift = plan.lift * 1000;
    let verdictAt = plan.verdict_at * 1000;
    let pause = plan.pause * 1000;
    const hold = plan.hold * 1000;
    if (typeof left === "number" && left - hold < verdictAt) {
      const scale = Math.max(0, left - hold) / verdictAt;
      [lift, verdictAt, pause] = [lift * scale, verdictAt * scale, pause * scale];
    }
    const step = counted ? Math.min(plan.step * 1000, Math.max(0, verdictAt - pause - lift) / counted) : 0;
    return { lift, step, verdictAt, hold };
  }
  const step = counted ? Math.min(STEP_MS, COUNT_MAX_MS / counted) : 0;
  return { lift: LIFT_MS, step, verdictAt: LIFT_MS + step * counted + PAUSE_MS, hold: HOLD_MS };
}

export class RevealController {
  /**
   * @param {{onChange: (change?: RevealChange) => void, onContinue: (() => boolean) | null, onWait?: (() => boolean) | null}} callbacks
   */
  constructor({ onChange, onContinue, onWait = null }) {
    this.onChange = onChange;
    this.onContinue = onContinue; // tell the server this page is done looking (or null)
    this.onWait = onWait; // ask the server to hold the round (or null: a watcher)
    /** @type {Reveal | null} */
    this.r = null; // the reveal in progress
    /** @type {ReturnType<typeof setTimeout>[]} */
    this.timers = [];
    this.held = false; // the server holds the next round (its reveal phase is on)
  }

  active() {
    return this.r !== null;
  }

  /** The reveal's count is not done: its result must not be told yet (text, log). */
  hidesResult() {
    return Boolean(this.r && this.r.phase !== "verdict");
  }

  /**
   * Follow the server's reveal phase (`room.reveal`, or null): while it is on the verdict
   * stays; when it ends (the next round or the game's end arrived) the reveal ends at once.
   * @param {RevealPhase | null} phase
   */
  syncPhase(phase) {
    const was = this.held;
    this.held = Boolean(phase);
    if (this.r) this.r.phaseInfo = phase || null;
    if (was && !this.held && this.r) this.finish(true);
    else if (this.r && this.r.phase === "verdict" && !this.held && this.r.done) this.finish(true);
  }

  clear() {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }

  /**
   * @param {number} ms
   * @param {() => void} fn
   */
  later(ms, fn) {
    this.timers.push(setTimeout(fn, ms));
  }

  /** Start the reveal of `res`, round `index` of the game (`still`: in its final state, for a
   * page opened during the reveal phase), timed by the server's `phase.plan` when it holds
   * the round.
   * @param {TableState} S
   * @param {RoundResult} res
   * @param {number} index
   * @param {RoomState["reveal"]} [phase]
   */
  start(S, res, index, still = false, phase = null) {
    this.finish(false);
    const family = familyOf(S);
    const d = describeResult(S, res, index);
    // the dice lifted (by position; -1: the centre's) and counted ([position, i]), the losses
    const { seats, order, losses, callerSeat, bidderSeat } = family.revealCount(S, res, d);
    this.r = {
      S,
      res,
      index,
      family,
      d,
      seats,
      order,
      lit: 0,
      phase: "lift",
      losses,
      callerSeat,
      bidderSeat,
      key: `${S.view ? S.view.game_no : 0}/${index}`,
    };
    if (!still) play("call");
    if (still || reducedMotion()) {
      this.r.lit = order.length;
      this.r.phase = "verdict";
      this.onChange({ verdict: true });
      this.later(STATIC_HOLD_MS, () => this.holdOver());
      return;
    }
    this.onChange();
    this.later(250, () => play("lift"));
    const left = phase && typeof phase.endsAt === "number" ? phase.endsAt - Date.now() : null;
    const t = revealTimeline(phase && phase.plan, order.length, left);
    this.r.timeline = t;
    const step = t.step;
    this.later(t.lift, () => {
      if (!this.r) return;
      this.r.phase = "count";
      this.onChange();
    });
    order.forEach((_, k) => {
      this.later(t.lift + step * (k + 1), () => {
        if (!this.r) return;
        this.r.lit = k + 1;
        play("count", k);
        this.onChange();
      });
    });
    this.later(t.verdictAt, () => {
      if (!this.r) return;
      this.r.phase = "verdict";
      this.r.lit = order.length;
      const mine = me(S) !== null && this.r.losses.has(me(S));
      play(mine ? "lose" : "bid");
      this.onChange({ verdict: true });
    });
    this.later(t.verdictAt + t.hold, () => this.holdOver());
  }

  /** The verdict has been shown long enough: end, unless the server still holds the round. */
  holdOver() {
    if (!this.r) return;
    this.r.done = true;
    if (!this.held) this.finish(true);
  }

  /** "Skip": jump to the verdict (without a reveal phase on the server: end the reveal). */
  skip() {
    const r = this.r;
    if (!r) return;
    if (!this.held) {
      this.finish(true);
      return;
    }
    if (r.phase === "verdict") return;
    this.clear();
    r.phase = "verdict";
    r.lit = r.order.length;
    this.onChange({ verdict: true });
    this.later(HOLD_MS, () => this.holdOver());
  }

  /** "Wait": ask the table to hold the round (once per reveal). */
  wait() {
    const r = this.r;
    if (!r || !this.held || !this.onWait || r.waited) return;
    if (this.onWait()) {
      r.waited = true;
      this.onChange();
    }
  }

  /** "Continue": done looking. The server's phase ends once every player is; without one
   * (or for a spectator) the reveal ends here at once. */
  continue() {
    const r = this.r;
    if (!r) return;
    if (this.held && this.onContinue && this.onContinue()) {
      r.continued = true;
      this.onChange();
      return;
    }
    this.finish(true);
  }

  /** End the reveal (at once); `notify`: re-render. */
  finish(notify = true) {
    this.clear();
    if (!this.r) return;
    this.r = null;
    if (notify) this.onChange({ ended: true });
  }

  /**
   * The seat loses dice in the reveal's verdict (for the plate's animation).
   * @param {number} seat
   */
  losesAt(seat) {
    return Boolean(this.r && this.r.phase === "verdict" && this.r.losses.has(seat));
  }

  /**
   * What a seat's plate draws during the reveal: {sig, build} or null.
   * @param {number} seat
   * @returns {Drawing | null}
   */
  diceFor(seat) {
    const r = this.r;
    if (!r || !r.seats.has(seat)) return null;
    const faces = r.seats.get(seat);
    if (!faces.length) return null; // out before this round: the plate says "out"
    const litSet = new Set(r.order.slice(0, r.lit).filter(([s]) => s === seat).map(([, i]) => i));
    const lost = r.phase === "verdict" ? r.losses.get(seat) || 0 : 0;
    const name = nameOf(r.S, seat);
    return {
      sig: `${r.key}|${r.phase}|${[...litSet].join(",")}|${lost}`,
      build: () => {
        const row = h("span", { class: `dice revealed${r.phase === "lift" ? " lifting" : ""}`, role: "group", "aria-label": _("{name}'s dice: {dice}", { name, dice: faces.join(", ") || pgettext("dice", "none") }) });
        faces.forEach((f, i) => {
          const el = die(f, { small: true, src: "reveal" });
          if (litSet.has(i)) el.classList.add("lit");
          if (lost && i >= faces.length - lost) el.classList.add("lost");
          row.append(el);
        });
        return [r.phase === "lift" ? h("span", { class: "cup-lifted", "aria-hidden": "true" }, cup()) : null, row, lost ? h("span", { class: "loss-float", text: `−${lost}` }) : null];
      },
    };
  }

  /**
   * The centre's reveal panel.
   * @param {HTMLElement} el
   */
  renderStage(el) {
    const r = this.r;
    el.hidden = !r;
    if (!r) {
      el.replaceChildren();
      changed(el, "");
      return;
    }
    const ph = r.phaseInfo;
    const others = ph && r.continued ? (ph.waiting || []).filter((s) => s !== r.S.seat && !(ph.ready || []).includes(s)) : [];
    const heldBy = ph ? ph.held_by || [] : [];
    const iWaited = Boolean(r.waited || (r.S.seat !== null && heldBy.includes(r.S.seat)));
    const sig = `${r.key}|${r.phase}|${r.lit}|${r.continued ? `w${others.join(",")}` : ""}|${heldBy.join(",")}|${iWaited}|${this.held}`;
    const was = signature(el);
    if (!changed(el, sig)) return;
    const first = !was || !was.startsWith(r.key);
    const { res, S, family } = r;
    const caller = who(S, r.callerSeat);
    const bidder = who(S, r.bidderSeat);
    const parts = [callLine(res.call, caller, bidder, family.bidWords(res.bid_move)), ...family.revealStage(r, (s) => who(S, s))];
    if (heldBy.length) {
      const names = heldBy.map((s) => (s === S.seat ? pgettext("player", "you") : seatName(S, s)));
      parts.push(h("p", { class: "centre-sub", id: "reveal-held", text: ngettext("{names} asked the table to wait.", "{names} asked the table to wait.", names.length, { names: names.join(", ") }) }));
    }
    if (r.continued) {
      const names = others.map((s) => (s === S.seat ? pgettext("player", "you") : seatName(S, s)));
      parts.push(h("p", { class: "centre-sub", id: "reveal-waiting", text: names.length ? _("Waiting for {names}…", { names: names.join(", ") }) : _("The next round starts in a moment…") }));
    } else {
      const verdict = r.phase === "verdict";
      const buttons = [h("button", { type: "button", id: "reveal-skip", class: "small", text: verdict ? _("Continue") : _("Skip"), onclick: () => (verdict ? this.continue() : this.skip()) })];
      if (this.held && this.onWait && r.S.seat !== null && !iWaited) {
        buttons.push(h("button", { type: "button", id: "reveal-wait", class: "small secondary", text: _("Wait"), title: _("Hold the next round (up to 15 seconds) until you press Continue"), onclick: () => this.wait() }));
      }
      parts.push(h("p", { class: "reveal-actions" }, ...buttons));
    }
    el.dataset.state = r.phase;
    el.dataset.round = String(r.index);
    const focused = el.contains(document.activeElement) && document.activeElement.id === "reveal-skip";
    el.replaceChildren(...parts);
    const button = document.getElementById("reveal-skip");
    if (focused && button) button.focus();
    if (first) animateOnce(el, "enter");
  }
}

/**
 * The reveal's first line: who called what on whose bid, one sentence for each case (the
 * second person for the viewer); accepting a poker-dice claim reads "You accept ...".
 * @param {string} call
 * @param {string} caller "you", or a name
 * @param {string} bidder "you", or a name
 * @param {string} bid
 */
function callLine(call, caller, bidder, bid) {
  const you = caller === "you";
  const yours = bidder === "you";
  const o = { name: caller, bidder, bid };
  let text;
  if (call === "five" || call === "accept") {
    if (you) text = _("You accept {bidder}'s claim of {bid}.", o);
    else text = yours ? _("{name} accepts your claim of {bid}.", o) : _("{name} accepts {bidder}'s claim of {bid}.", o);
  } else if (call === "exact") {
    if (you) text = _("You call Exact! on {bidder}'s bid of {bid}.", o);
    else text = yours ? _("{name} calls Exact! on your bid of {bid}.", o) : _("{name} calls Exact! on {bidder}'s bid of {bid}.", o);
  } else if (you) text = _("You call Liar! on {bidder}'s bid of {bid}.", o);
  else text = yours ? _("{name} calls Liar! on your bid of {bid}.", o) : _("{name} calls Liar! on {bidder}'s bid of {bid}.", o);
  // the call in one big word above its sentence (an accepted claim is no call)
  const word = call === "exact" ? _("Exact!") : call === "five" || call === "accept" ? null : _("Liar!");
  return h("p", { class: "call-line", id: "reveal-call" }, word ? h("span", { class: "call-word", "aria-hidden": "true", text: word }) : null, h("strong", { class: "call-text", text }));
}
