// The replay viewer for finished games: it downloads the game's JSON record (every die is in
// it: the game is over) and the server's replay summary (each round's count and losses), and
// replays the game on the table, as in live play (the seats around the felt, every seat's
// dice face up, the bid to beat in the centre, the losses at each call), with step back and
// forward, play and pause at a chosen speed, and a link to every step
// (/r/{room}/replay/{game}?step=N). The moves are also written out as a list under the table:
// the same steps in words, for screen readers. Keys: ← → step, Home and End jump, Space plays.

import { getJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { diceRow } from "./dice.js";
import { familyOfPreset } from "./family.js";
import { presetTitle } from "./rules.js";
import { renderCentre, renderSeats } from "./table.js";

/** @typedef {import("./types.js").Family} Family */
/** @typedef {import("./types.js").GameRecord} GameRecord */
/** @typedef {import("./types.js").RecordMove} RecordMove */
/** @typedef {import("./types.js").ReplaySummary} ReplaySummary */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").SummaryRound} SummaryRound */
/** @typedef {import("./types.js").TableReveal} TableReveal */
/** @typedef {import("./types.js").TableState} TableState */
/** @typedef {import("./types.js").View} View */

/**
 * @param {string} room
 * @param {number} game
 * @param {string} format "json", "text" or "summary"
 */
const recordUrl = (room, game, format) =>
  `/api/rooms/${encodeURIComponent(room)}/games/${game}/record?format=${format}`;

/**
 * The address of a replay, at a step (1 = the first).
 * @param {string} room
 * @param {number} game
 * @param {number | null} [step]
 */
export const replayPath = (room, game, step = null) =>
  `/r/${encodeURIComponent(room)}/replay/${game}${step === null ? "" : `?step=${step}`}`;

/** Milliseconds a step stays on the table at 1× when playing. */
const STEP_MS = 1600;
const SPEEDS = [0.5, 1, 2, 4];

/** The replay's (and the rating pages') own styles (the table's are style.css's), once. */
export function loadStyles() {
  if (document.getElementById("replay-css")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/replay.css", id: "replay-css" }));
}

const BOT_NAME = /^([a-z]+)-bot-\d+$/;

/**
 * One move of a record in words (`family`: the record's), in the record's own key order.
 * @param {RecordMove} move
 * @param {Family} family
 */
export function describeRecordMove(move, family) {
  /** @type {string[]} */
  const parts = [];
  // each key's value is of its own type (docs/RECORD.md): `bid` a string, `show` dice...
  for (const [key, value] of Object.entries(/** @type {Record<string, any>} */ (move))) {
    switch (key) {
      case "bid":
        parts.push(_("bids {bid}", { bid: family.bidWords(family.readMove(value)) }));
        break;
      case "call":
        parts.push(value === "liar" ? _("calls liar") : value === "exact" ? _("calls exact") : _("calls {call}", { call: value }));
        break;
      case "show":
        parts.push(value.length ? _("shows {dice}", { dice: value.join(" ") }) : _("shows nothing"));
        break;
      case "reroll":
        if (value.length) parts.push(_("re-rolls {dice}", { dice: value.join(" ") }));
        break;
      case "buy":
        parts.push(_("buys a die: {dice}", { dice: value.join(" ") }));
        break;
      case "ask":
        parts.push(_("asks \"{question}\"", { question: value }));
        break;
      case "pass":
        parts.push(value === "left" ? _("passes the cup left") : value === "right" ? _("passes the cup right") : _("passes the cup {direction}", { direction: value }));
        break;
      case "accept":
        parts.push(_("accepts"));
        break;
      case "out":
        parts.push(value.length ? _("leaves {dice} outside", { dice: value.join(" ") }) : _("puts every die under the cup"));
        break;
      case "shake":
        parts.push(value ? _("shakes the cup") : _("doesn't shake"));
        break;
      case "rolled":
        parts.push(value.length ? _("rolled {dice}", { dice: value.join(" ") }) : _("rolled nothing"));
        break;
      case "attempts":
        value.forEach((/** @type {{keep: string[], rolled?: string[]}} */ a, /** @type {number} */ i) => parts.push(a.keep.length ? _("roll {n}: keeps {kept}, rolls {rolled}", { n: i + 1, kept: a.keep.join(" "), rolled: (a.rolled || []).join(" ") }) : _("roll {n}: keeps nothing, rolls {rolled}", { n: i + 1, rolled: (a.rolled || []).join(" ") })));
        break;
      default:
        break; // "player", and anything a later record version adds
    }
  }
  return parts.join(", ");
}

/**
 * What the table shows at step (round r, move m; m = -1: the roll): a room and a view shaped
 * like the live ones (table.js draws them), every seat's dice face up, and the round's result
 * once its last move is made. `family`: the record's (family.js).
 * @param {GameRecord} record
 * @param {ReplaySummary | null} summary
 * @param {number} r
 * @param {number} m
 * @param {Family} family
 * @returns {{S: TableState, reveal: TableReveal, result: SummaryRound | null}}
 */
export function tableAt(record, summary, r, m, family, game = 0) {
  const names = record.players;
  /** @param {string} name */
  const seatOf = (name) => names.indexOf(name);
  const rd = record.rounds[r];
  const moves = rd.moves.slice(0, m + 1);
  const rounds = (summary && summary.ok && summary.rounds) || [];
  const result = m === rd.moves.length - 1 && rd.moves.length ? rounds[r] || null : null;
  const gameOver = result && r === record.rounds.length - 1 && summary.winner;
  /** @type {string | null} */
  let bid = null;
  let bidder = -1;
  let direction = 0;
  for (const mv of moves) {
    if (mv.bid !== undefined) {
      bid = mv.bid;
      bidder = seatOf(mv.player);
    }
    if (mv.pass) direction = mv.pass === "left" ? 1 : -1;
  }
  const next = rd.moves[m + 1];
  const toMove = next ? seatOf(next.player) : -1;
  /** @type {View} */
  const view = {
    names,
    game_no: game,
    round: r,
    current_bid: bid,
    current_bid_move: bid === null ? null : family.readMove(bid),
    bidder,
    to_move: gameOver ? -4 : toMove,
    winner: gameOver ? seatOf(summary.winner) : null,
  };
  const seatDice = family.replayView(view, { record, rd, moves, rounds, r, toMove, bidder, direction });
  const losses = result ? result.losses || {} : {};
  // (the facts of a room the table reads)
  const room = /** @type {Room} */ ({
    seats: names.map((name, i) => {
      const bot = BOT_NAME.exec(name);
      return /** @type {Seat} */ ({ seat: i, name, kind: bot ? "bot" : "human", level: bot ? bot[1] : null, connected: true, player: null });
    }),
    status: gameOver ? "finished" : "playing",
    family: family.name,
    preset: record.rules,
    host: -1,
    timer: null,
  });
  // only what the table's drawing reads of a room's state (no socket, no log, no clocks)
  const S = /** @type {TableState} */ ({ room, view, seat: null, oddsOn: false, host: false, palificoSeen: new Set() });
  /** @type {TableReveal} */
  const reveal = {
    active: () => false,
    losesAt: (i) => Boolean(losses[names[i]]),
    diceFor: (i) => {
      const faces = seatDice.get(i);
      if (!faces || !faces.length) return null;
      const lost = losses[names[i]] || 0;
      return {
        sig: `replay|${r}|${m}|${faces.join(",")}|${lost}`,
        build: () => [
          diceRow(faces, { label: _("{name}'s dice", { name: names[i] }), small: true, src: "replay" }),
          h("span", { class: "stock-text", text: lost ? ngettext("{n} die, −{lost}", "{n} dice, −{lost}", faces.length, { lost }) : ngettext("{n} die", "{n} dice", faces.length) }),
        ],
      };
    },
  };
  return { S, reveal, result };
}

export class ReplayViewer {
  /**
   * `section`: the (hidden) element to draw into; `announce(text)`: the live region;
   * `onClose()`: called after the viewer closes (the app puts the focus back), or null for
   * the replay's own page (no "Close"; the address follows the step).
   * @param {HTMLElement} section
   * @param {{announce: (text: string) => void, onClose?: (() => void) | null}} callbacks
   */
  constructor(section, { announce, onClose = null }) {
    this.section = section;
    this.announce = announce;
    this.onClose = onClose;
    this.onKey = (/** @type {KeyboardEvent} */ ev) => this.key(ev);
    /** @type {{r: number, m: number}[]} (round, move): move -1 is the roll at the start of the round */
    this.steps = [];
    this.index = 0;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;
    this.speed = 1;
  }

  /**
   * Load and show game `game` of `room`, at `step` (1 = the first; default the first).
   * @param {string} room
   * @param {number} game
   * @param {{step?: number}} [options]
   */
  async open(room, game, { step = 1 } = {}) {
    loadStyles();
    this.stop();
    this.room = room;
    this.game = game;
    this.section.hidden = false;
    fill(this.section, h("p", { text: _("Loading game {game}…", { game }) }));
    const [record, summary] = /** @type {[GameRecord, ReplaySummary]} */ (await Promise.all([
      getJSON(recordUrl(room, game, "json")),
      getJSON(recordUrl(room, game, "summary")),
    ]));
    this.record = record;
    this.summary = summary;
    this.family = familyOfPreset(record.rules);
    // A step is (round, move): move -1 is the roll at the start of the round.
    this.steps = [];
    record.rounds.forEach((rd, r) => {
      this.steps.push({ r, m: -1 });
      rd.moves.forEach((_move, m) => this.steps.push({ r, m }));
    });
    this.index = 0;
    this.build();
    document.removeEventListener("keydown", this.onKey);
    document.addEventListener("keydown", this.onKey);
    this.go(Number.isFinite(step) ? step - 1 : 0);
    this.heading.focus();
  }

  close() {
    this.stop();
    document.removeEventListener("keydown", this.onKey);
    this.section.hidden = true;
    fill(this.section);
    if (this.onClose) this.onClose();
  }

  build() {
    const { room, game } = this;
    /**
     * @param {string} id
     * @param {string} text
     * @param {string | null} label its aria-label
     * @param {() => void} fn
     */
    const button = (id, text, label, fn) => h("button", { type: "button", id, "aria-label": label, onclick: fn }, text);
    this.heading = h("h2", { id: "replay-h", tabindex: "-1", text: _("Replay of game {game}", { game }) });
    this.first = button("replay-first", _("« First"), _("First step"), () => this.go(0, true));
    this.prev = button("replay-prev", _("◀ Prev"), _("Previous step"), () => this.go(this.index - 1, true));
    this.play = button("replay-play", _("▶ Play"), null, () => this.toggle());
    this.next = button("replay-next", _("Next ▶"), _("Next step"), () => this.go(this.index + 1, true));
    this.last = button("replay-last", _("Last »"), _("Last step"), () => this.go(this.steps.length - 1, true));
    this.speedSelect = h(
      "select",
      { id: "replay-speed", onchange: () => this.setSpeed(Number(this.speedSelect.value)) },
      SPEEDS.map((s) => h("option", { value: String(s), selected: s === this.speed, text: `${s}×` })),
    );
    this.pos = h("span", { id: "replay-pos", class: "meta", "aria-live": "off" });
    this.link = h("a", { id: "replay-link", href: replayPath(room, game, 1) }, _("Link to this step"));
    this.seatsEl = h("ol", { class: "seats", id: "replay-seats", "aria-label": _("Players") });
    this.centre = h("div", { class: "centre", id: "replay-centre" }, h("div", { class: "centre-body" }));
    this.caption = h("p", { id: "replay-caption", class: "replay-caption" });
    this.hand = h("div", { id: "replay-hand", class: "replay-hand" });
    this.body = h("div", { id: "replay-step" });
    const safe = room.replace(/[^A-Za-z0-9_-]/g, "");
    fill(
      this.section,
      this.heading,
      h(
        "p",
        { class: "meta" },
        _("{game}; players: {names}. ", { game: presetTitle(this.record.rules), names: this.record.players.join(", ") }),
        _("Keys: ← and → step, Home and End jump, Space plays and pauses. "),
        h("a", { href: recordUrl(room, game, "json"), download: `liarsdice-${safe}-game${game}.json`, id: "replay-json" }, _("Download JSON record")),
        " · ",
        h("a", { href: recordUrl(room, game, "text"), download: `liarsdice-${safe}-game${game}.txt`, id: "replay-text" }, _("Download text record")),
        " · ",
        h("a", { href: `#analysis-${game}`, id: "replay-analysis" }, _("Analyse this game")),
      ),
      h(
        "div",
        { class: "replay-controls", role: "group", "aria-label": _("Replay controls") },
        this.first,
        this.prev,
        this.play,
        this.next,
        this.last,
        h("label", { for: "replay-speed", class: "replay-speed" }, _("Speed"), " "),
        this.speedSelect,
        this.pos,
        this.link,
        this.onClose ? button("replay-close", _("Close replay"), null, () => this.close()) : h("a", { href: `/r/${encodeURIComponent(room)}`, id: "replay-room" }, _("Back to the room")),
      ),
      h(
        "section",
        { class: "table replay-table", "aria-labelledby": "replay-table-h" },
        h("h3", { id: "replay-table-h", class: "visually-hidden", text: _("The table at this step") }),
        h("div", { class: "felt" }, this.seatsEl, this.centre),
      ),
      this.caption,
      this.hand,
      h(
        "details",
        { class: "replay-list", id: "replay-list", open: true },
        h("summary", {}, _("The moves in words")),
        this.body,
      ),
    );
  }

  /** @param {KeyboardEvent} ev */
  key(ev) {
    if (this.section.hidden || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const target = /** @type {HTMLElement | null} */ (ev.target);
    const tag = (target && target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return; // the arrows belong to the control
    if (ev.key === " ") {
      if (["BUTTON", "A", "SUMMARY"].includes(tag)) return; // Space presses it
      ev.preventDefault();
      this.toggle();
      return;
    }
    /** @type {Record<string, number>} */
    const keys = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: this.steps.length - 1 };
    const to = keys[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.go(to, true);
  }

  /** @param {number} speed */
  setSpeed(speed) {
    this.speed = SPEEDS.includes(speed) ? speed : 1;
    if (this.timer !== null) {
      this.stop();
      this.start();
    }
  }

  toggle() {
    if (this.timer !== null) {
      this.stop();
      this.announce(_("Paused at step {step} of {steps}.", { step: this.index + 1, steps: this.steps.length }));
    } else {
      if (this.index >= this.steps.length - 1) this.go(0);
      this.start();
      this.announce(_("Playing at {speed}×.", { speed: this.speed }));
    }
  }

  start() {
    if (!this.steps.length) return;
    this.timer = setInterval(() => {
      if (this.index >= this.steps.length - 1) {
        this.stop();
        this.announce(this.stepWords());
        return;
      }
      this.go(this.index + 1);
    }, STEP_MS / this.speed);
    this.showPlaying();
  }

  stop() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.showPlaying();
  }

  showPlaying() {
    if (!this.play) return;
    const on = this.timer !== null;
    this.play.textContent = on ? _("⏸ Pause") : _("▶ Play");
    this.section.dataset.playing = String(on);
  }

  /**
   * The step at `i` (clamped); `manual`: a person moved (stops playing, announces).
   * @param {number} i
   */
  go(i, manual = false) {
    if (manual) this.stop();
    if (!this.steps.length) {
      fill(this.body, h("p", { text: _("This game has no rounds.") }));
      return;
    }
    this.index = Math.max(0, Math.min(this.steps.length - 1, i));
    const { r, m } = this.steps[this.index];
    const rd = this.record.rounds[r];
    this.first.disabled = this.prev.disabled = this.index === 0;
    this.next.disabled = this.last.disabled = this.index === this.steps.length - 1;
    const n = this.index + 1;
    this.pos.textContent = _("Step {step} of {steps}", { step: n, steps: this.steps.length });
    this.section.dataset.step = String(n);
    this.link.href = replayPath(this.room, this.game, n);
    if (!this.onClose) history.replaceState(null, "", replayPath(this.room, this.game, n));

    this.drawTable(r, m);

    const dice = this.family.replayHands(rd);
    const moves = rd.moves.slice(0, m + 1).map((mv, k) =>
      h("li", { "aria-current": k === m ? "step" : null, class: k === m ? "current" : "" }, h("span", { class: "seat-name", text: mv.player }), ` ${describeRecordMove(mv, this.family)}`),
    );
    const result = m === rd.moves.length - 1 && this.summary.ok ? this.summary.rounds[r] : null;
    const last = this.index === this.steps.length - 1;
    fill(
      this.body,
      h("h3", { text: rd.opener ? _("Round {round} of {rounds}: {name} opens", { round: r + 1, rounds: this.record.rounds.length, name: rd.opener }) : _("Round {round} of {rounds}", { round: r + 1, rounds: this.record.rounds.length }) }),
      h("ul", { class: "hands" }, dice),
      moves.length ? h("ol", { class: "replay-moves" }, moves) : h("p", { class: "meta", text: _("No moves yet.") }),
      result ? h("p", { class: "result", id: "replay-result", text: this.family.describeSummary(result) }) : null,
      last && this.summary.winner ? h("p", { class: "banner", text: _("{name} wins the game.", { name: this.summary.winner }) }) : null,
    );
    if (manual || this.timer === null) this.announce(this.stepWords());
  }

  /** The step in words: the move (or the roll), and the round's result at its end. */
  stepWords() {
    const { r, m } = this.steps[this.index];
    const rd = this.record.rounds[r];
    const line = m < 0 ? _("Round {round}: {name} opens; the dice are rolled.", { round: r + 1, name: rd.opener || this.record.players[0] }) : _("{name} {move}.", { name: rd.moves[m].player, move: describeRecordMove(rd.moves[m], this.family) });
    const result = m === rd.moves.length - 1 && this.summary.ok ? this.summary.rounds[r] : null;
    const won = this.index === this.steps.length - 1 && this.summary.winner ? ` ${_("{name} wins the game.", { name: this.summary.winner })}` : "";
    // the round's last move is its call: the result says it ("ann called liar on ..."), once
    return `${result ? this.family.describeSummary(result) : line}${won}`;
  }

  /**
   * The table at (round r, move m), drawn by the live table's own functions.
   * @param {number} r
   * @param {number} m
   */
  drawTable(r, m) {
    const { S, reveal, result } = tableAt(this.record, this.summary, r, m, this.family, this.game);
    renderSeats(this.seatsEl, S, { reveal, canManage: false });
    renderCentre(this.centre, S, reveal);
    this.caption.textContent = this.stepWords();
    this.caption.classList.toggle("result", Boolean(result));
    const aside = this.family.replayAside(S.view);
    if (aside) fill(this.hand, aside);
    this.hand.hidden = !aside;
  }
}

/** The replay's own page, /r/{room}/replay/{game}?step=N: the table, the controls and the
 * moves in words, for a finished game (linked from the room, the player pages and the
 * "Link to this step" of any replay).
 * @param {HTMLElement} main
 * @param {string} room
 * @param {number} game
 * @param {{announce: (text: string) => void, showError: (err: unknown) => void}} hooks
 */
export async function startReplayPage(main, room, game, { announce, showError }) {
  document.title = _("Replay of game {game} · Liar's Dice", { game });
  const section = h("section", { id: "replay-page", class: "card replay replay-page", "aria-labelledby": "replay-h" });
  main.append(section);
  const viewer = new ReplayViewer(section, { announce, onClose: null });
  const step = Number(new URLSearchParams(location.search).get("step") || "1");
  try {
    await viewer.open(room, game, { step: Number.isInteger(step) && step > 0 ? step : 1 });
    document.title = _("Replay of game {game}: {rules} · Liar's Dice", { game, rules: presetTitle(viewer.record.rules) });
  } catch (err) {
    fill(
      section,
      h("h1", { id: "replay-h", text: _("Game {game}", { game }) }),
      h("p", { text: _("This game's replay isn't available: the room or the game does not exist, or the game isn't over yet.") }),
      h("p", {}, h("a", { href: `/r/${encodeURIComponent(room)}` }, _("Go to the room"))),
    );
    showError(err);
  }
  return viewer;
}
