// Small facts about a room and its players, read from the room's state (the server's frames
// only): the host, whose turn it is, the viewer's position in the game and the players'
// names. Shared by the table, the move picker, the reveal, the log and both families' modules;
// nothing here depends on the rule family.

import { _, pgettext } from "./i18n.js";

/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").RoomState} RoomState */
/** @typedef {import("./i18n.js").Values} Values */

/**
 * The host's seat (0 when the room does not say).
 * @param {Room | null} room
 * @returns {number}
 */
export const hostSeat = (room) => (room && typeof room.host === "number" ? room.host : 0);

/**
 * It is the viewer's turn, and the server offers them moves.
 * @param {RoomState} S
 */
export const myTurn = (S) => Boolean(S.view && S.seat !== null && S.view.to_move === S.seat && (S.view.legal || []).length > 0 && S.room.status === "playing");

/**
 * The viewer's position in the current (or last) game: the server's `view.viewer` (a
 * finished game keeps its players whatever happens to the seats after it), else the seat.
 * @param {RoomState} S
 * @returns {number | null}
 */
export const me = (S) => (S.view && "viewer" in S.view ? S.view.viewer : S.seat);

/**
 * The position in the game of the room's seat `i` (null: that seat did not play it).
 * @param {RoomState} S
 * @param {number} i
 * @returns {number | null}
 */
export function posOf(S, i) {
  const seat = S.room && S.room.seats[i];
  return seat && "position" in seat ? seat.position : i;
}

/**
 * The name of the room's seat `i` now (room events: host, ready, kicks).
 * @param {RoomState} S
 * @param {number} i
 */
export function seatName(S, i) {
  const seat = S.room && S.room.seats[i];
  return seat ? seat.name : _("seat {n}", { n: i + 1 });
}

/**
 * The name of the player at position `seat` of the current (or last) game.
 * @param {RoomState} S
 * @param {number | null | undefined} seat
 * @returns {string}
 */
export function nameOf(S, seat) {
  if (seat === null || seat === undefined || seat < 0) return _("nobody");
  const names = (S.view && S.view.names) || [];
  if (seat < names.length) return names[seat];
  const info = S.room && S.room.seats[seat];
  return info ? info.name : _("seat {n}", { n: seat + 1 });
}

/**
 * "you" for the viewer's own seat (a marker: compare, never show), else the name.
 * @param {RoomState} S
 * @param {number} seat
 */
export function who(S, seat) {
  return seat === me(S) ? "you" : nameOf(S, seat);
}

/**
 * The name of a seat to show: "you" ("tú") for the viewer's own.
 * @param {RoomState} S
 * @param {number} seat
 */
export function whoText(S, seat) {
  return seat === me(S) ? pgettext("player", "you") : nameOf(S, seat);
}

/**
 * The position of a player named in a result (bidding results name players), or -1.
 * @param {RoomState} S
 * @param {string} name
 * @returns {number}
 */
export function seatOfName(S, name) {
  const names = (S.view && S.view.names) || [];
  const i = names.indexOf(name);
  if (i >= 0) return i;
  const seat = S.room && S.room.seats.find((s) => s.name === name);
  return seat ? seat.seat : -1;
}

/**
 * The first letter of a sentence in capitals ("calls liar" -> "Calls liar").
 * @param {string} s
 */
export function capital(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * How a round's result speaks of players (bidding results name them, poker results give
 * positions): `nm(x)` a name, `isMe(x)` the viewer, `about(x, second, third, values)` one
 * sentence in the second person for the viewer and in the third for the others (each a
 * message of its own; names stay as their players wrote them).
 * @param {RoomState} S
 */
export function speaker(S) {
  const mine = me(S);
  const myName = mine !== null && mine !== undefined ? nameOf(S, mine) : null;
  /** @param {string | number} x a name or a position */
  const nm = (x) => (typeof x === "number" ? nameOf(S, x) : x);
  /** @param {string | number} x */
  const isMe = (x) => myName !== null && nm(x) === myName;
  /**
   * @param {string | number} x
   * @param {(values: Values) => string} second
   * @param {(values: Values) => string} third
   * @param {Values} [values]
   */
  const about = (x, second, third, values = {}) => (isMe(x) ? second(values) : third({ name: nm(x), ...values }));
  return { nm, isMe, about };
}
