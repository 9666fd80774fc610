// THE room's state in the browser: everything a room's page knows about the room, from the
// server's frames and nothing else (docs/PROTOCOL.md). It changes only through `apply(frame)`
// (a `welcome`, `snapshot`, `update` or `error` frame); readers get it read-only: every
// state is a new frozen value (the frames' objects are frozen as they arrive), so no drawing
// function can change what the server said. What the page does with it (the odds toggle, a
// move in flight, announcements, scrolling, the reveal's animation) is the page's own state,
// kept apart in app.js and reveal.js.

import { EVENT } from "./event-kinds.js";
import { hostSeat } from "./facts.js";

/** @typedef {import("./types.js").Frame} Frame */
/** @typedef {import("./types.js").FrameData} FrameData */
/** @typedef {import("./types.js").GameLog} GameLog */
/** @typedef {import("./types.js").HistoryEntry} HistoryEntry */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").RoomEvent} RoomEvent */
/** @typedef {import("./types.js").RoomState} RoomState */
/** @typedef {import("./types.js").View} View */

/**
 * Freeze a frame's data all the way down (JSON: objects and arrays only).
 * @template T
 * @param {T} value
 * @returns {T}
 */
function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The state before any frame: nobody seated, no room yet.
 * @param {string} id
 * @returns {RoomState}
 */
function initial(id) {
  return deepFreeze({
    id,
    seat: null, // my seat, or null when watching (or not seated in the room's seats)
    role: "spectator",
    host: false, // my seat is the host's
    welcomed: false, // the socket's welcome has told us who we are
    room: null, // the frames' `room`
    view: null, // the frames' `view` (this seat's view)
    chat: new Map(), // seq -> chat event (a new Map at every change: never changed in place)
    log: { game: null, rounds: {} }, // the game's public moves: round -> [{seq, seat, text, move, auto, timeout}]
    timerLocal: null, // the running turn timer on this page's clock: {seat, at (ms), seconds}
    reveal: null, // the server's reveal phase of this game (`room.reveal`) and `endsAt` (ms)
    palificoSeen: new Set(), // "game/round" of palifico rounds seen (a new Set at every change)
  });
}

/**
 * The game's log with `m` placed in `round` (a copy; the same log when it is there).
 * @param {GameLog} log
 * @param {number} round
 * @param {HistoryEntry | RoomEvent} m
 * @returns {GameLog}
 */
function logPut(log, round, m) {
  const list = log.rounds[round] || [];
  if (list.some((e) => e.seq === m.seq)) return log;
  const entry = { seq: m.seq, seat: m.seat, text: m.text, move: m.move, auto: Boolean(m.auto), timeout: Boolean(m.timeout) };
  const next = [...list, entry].sort((a, b) => a.seq - b.seq);
  return { game: log.game, rounds: { ...log.rounds, [round]: next } };
}

/**
 * A snapshot's `history` (the server's record of the game's public moves) as the log.
 * @param {GameLog} log
 * @param {HistoryEntry[] | undefined} history
 * @param {number | null} game
 */
function logFromHistory(log, history, game) {
  if (!Array.isArray(history)) return log; // (a server without it: keep what we have)
  /** @type {GameLog} */
  let out = { game, rounds: {} };
  for (const m of history) out = logPut(out, m.round, m);
  return out;
}

/**
 * The log with an update's `action` events placed in their rounds (the `fair_round` and
 * `game_started` events open them); `before`: the view before the update.
 * @param {GameLog} log
 * @param {RoomEvent[]} events
 * @param {View | null} before
 */
function logWithEvents(log, events, before) {
  let game = before ? before.game_no : null;
  let round = before ? before.round : null;
  let out = log;
  for (const ev of events) {
    if (ev.kind === EVENT.FAIR_ROUND || ev.kind === EVENT.GAME_STARTED) {
      game = ev.game_no;
      round = ev.kind === EVENT.FAIR_ROUND ? ev.round : 0;
      if (ev.kind === EVENT.GAME_STARTED) out = { game, rounds: {} };
    } else if (ev.kind === EVENT.ACTION && game !== null && round !== null) {
      if (out.game !== game) out = { game, rounds: {} };
      out = logPut(out, round, ev);
    }
  }
  return out;
}

/**
 * The chat with an update's `chat` events added.
 * @param {Map<number, RoomEvent>} chat
 * @param {RoomEvent[]} events
 */
function chatWithEvents(chat, events) {
  const lines = events.filter((ev) => ev.kind === EVENT.CHAT);
  if (!lines.length) return chat;
  const out = new Map(chat);
  for (const ev of lines) out.set(ev.seq, ev);
  return out;
}

/** What a frame's room says on this page's clock (`received`: ms when it arrived; the frame's
 * `now` is the server's clock): the turn timer and the reveal phase's end.
 * @param {Room | null} room
 * @param {View | null} view
 * @param {number | undefined} now
 * @param {number} received
 * @returns {Pick<RoomState, "timerLocal" | "reveal">}
 */
function clocks(room, view, now, received) {
  const t = room && room.timer;
  /** @type {RoomState["timerLocal"]} */
  let timerLocal = null;
  if (t && typeof t.deadline === "number") {
    const left = t.deadline - (typeof now === "number" ? now : received / 1000);
    timerLocal = { seat: t.seat, at: received + left * 1000, seconds: t.seconds || room.turn_timer || left };
  }
  const ph = room && room.reveal;
  /** @type {RoomState["reveal"]} */
  let reveal = null;
  if (ph && view && ph.game_no === view.game_no) {
    const endsAt = typeof ph.deadline === "number" && typeof now === "number" ? received + (ph.deadline - now) * 1000 : null;
    reveal = { ...ph, endsAt };
  }
  return { timerLocal, reveal };
}

/**
 * The next state after frame `frame` arrived at `received` (ms, this page's clock).
 * @param {RoomState} state
 * @param {Frame} frame
 * @returns {RoomState}
 */
export function next(state, frame, received = Date.now()) {
  /** @type {FrameData} */
  const d = frame.data || {};
  const out = { ...state };
  switch (frame.type) {
    case "welcome":
      out.seat = d.seat;
      out.role = d.role;
      out.welcomed = true;
      break;
    case "snapshot":
    case "update": {
      if (d.room) out.room = d.room;
      if ("view" in d) out.view = d.view;
      if ("seat" in d && (d.seat === null || typeof d.seat === "number")) out.seat = d.seat;
      const events = d.events || [];
      if (frame.type === "snapshot") {
        out.chat = new Map((d.chat || []).map((e) => [e.seq, e]));
        out.log = logFromHistory(state.log, d.history, out.view ? out.view.game_no : null);
      } else {
        out.chat = chatWithEvents(state.chat, events);
        out.log = logWithEvents(state.log, events, state.view);
      }
      Object.assign(out, clocks(out.room, out.view, d.now, received));
      const v = out.view;
      if (v && v.palifico === true && !state.palificoSeen.has(`${v.game_no}/${v.round}`)) out.palificoSeen = new Set([...state.palificoSeen, `${v.game_no}/${v.round}`]);
      break;
    }
    default:
      return state; // an error or a pong: nothing the room's state holds
  }
  // a seat the room no longer has (removed): watching
  if (out.seat !== null && !(out.room && out.seat < out.room.seats.length)) out.seat = null;
  out.host = out.seat !== null && out.seat === hostSeat(out.room);
  return deepFreeze(out);
}

/** The room's state (`state`, read-only), changed only by the frames given to `apply`. */
export class RoomStore {
  /** @param {string} id the room's */
  constructor(id) {
    this.current = initial(id);
  }

  /** The state now: a frozen value (a later frame makes a new one). */
  get state() {
    return this.current;
  }

  /**
   * Take a frame from the server; returns the state before it.
   * @param {Frame} frame
   */
  apply(frame) {
    const before = this.current;
    this.current = next(before, deepFreeze(frame));
    return before;
  }
}
