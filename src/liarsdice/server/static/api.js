// Talking to the server: the HTTP endpoints, the seat tokens kept in localStorage, and one
// WebSocket with resume (docs/PROTOCOL.md).

import { _, ngettext } from "./i18n.js";

/** @typedef {import("./types.js").Frame} Frame */
/** @typedef {import("./types.js").Identity} Identity */
/** @typedef {import("./types.js").InvalidDetail} InvalidDetail */
/**
 * What an error may say: an ApiError, an `error` frame's data, an Error.
 * @typedef {{code?: string, message?: string, details?: InvalidDetail[] | null}} ErrorLike
 */
/**
 * A seat this browser holds in a room (localStorage).
 * @typedef {{token: string, seat: number, name: string}} SavedSeat
 */

export const PROTOCOL_VERSION = 1;

/** An HTTP or protocol error with the server's code and message. */
export class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number} [status]
   * @param {InvalidDetail[] | null} [details]
   */
  constructor(code, message, status = 0, details = null) {
    super(message);
    this.code = code;
    this.status = status;
    /** @type {InvalidDetail[] | null} */
    this.details = details; // for "invalid": [{field, problem, limit}] (docs/PROTOCOL.md)
  }
}

/**
 * The JSON body of a response (an ApiError for an error status); what it holds is the
 * caller's to say.
 * @param {Response} response
 * @returns {Promise<unknown>}
 */
async function parse(response) {
  /** @type {any} JSON: anything */
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const data = body && body.type === "error" ? body.data : {};
    throw new ApiError(data.code || "http", data.message || response.statusText, response.status, data.details || null);
  }
  return body;
}

/**
 * GET `url`'s JSON (an ApiError for an error status).
 * @param {string} url
 */
export async function getJSON(url) {
  return parse(await fetch(url, { headers: { Accept: "application/json" } }));
}

/**
 * A fresh client seed for the provably fair dice: 128 random bits from the browser, so the
 * dice depend on randomness the server did not choose (docs/SERVER.md, "Fairness").
 */
export function newClientSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * POST `body` as JSON; the answer's JSON (an ApiError for an error status).
 * @param {string} url
 * @param {unknown} body
 * @param {{token?: string | null}} [options] an identity's token (the Authorization header)
 */
export async function postJSON(url, body, { token = null } = {}) {
  /** @type {Record<string, string>} */
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return parse(await fetch(url, { method: "POST", headers, body: JSON.stringify(body) }));
}

/**
 * POST `body`; when the server refuses a field it doesn't know yet (a 422 `invalid` naming
 * one of `optional`), post again without those fields. New optional fields (`private`,
 * `player_token`) thus never break an older server.
 * @param {string} url
 * @param {Record<string, unknown>} body
 * @param {string[]} optional
 */
export async function postWithOptional(url, body, optional) {
  try {
    return await postJSON(url, body);
  } catch (err) {
    const named = optional.filter((k) => k in body && err instanceof ApiError && err.code === "invalid" && err.message.includes(k));
    if (!named.length) throw err;
    const rest = { ...body };
    for (const k of optional) delete rest[k];
    return postJSON(url, rest);
  }
}

// ---------------------------------------------------------------- errors as sentences

// What to tell a person for each error code (the server's message is kept where it says
// something only it knows, such as why a move is illegal).
/** @type {Record<string, string>} */
const ERROR_SENTENCES = {
  no_room: _("There is no such room."),
  room_full: _("The room is full (12 seats)."),
  room_locked: _("The host has locked this room: nobody new can take a seat. You can still watch."),
  banned: _("The host has banned that name from this room."),
  name_taken: _("Someone in the room already has that name (or one that looks like it): pick another."),
  name_reserved: _("That name is kept for computer players: pick another."),
  not_your_turn: _("It's not your turn."),
  not_seated: _("Only players seated at the table can do that."),
  not_host: _("Only the host can do that."),
  eliminated: _("You are out of this game."),
  stale: _("The table moved on before your move arrived: have another look."),
  rate_limited: _("Slow down a little: too many messages at once."),
  too_many_rooms: _("You have created many rooms in the last hour: wait a little or join one."),
  too_many_players: _("Many new players were made from this address in the last hour: wait a little, or play under a name you already have."),
  too_many_connections: _("Too many open tabs from this address."),
  store_unavailable: _("The server can't save right now; it will retry by itself. Try your move again in a moment."),
  bad_token: _("This browser's seat in the room is no longer valid."),
  removed: _("The host removed you from the room."),
  bad_origin: _("This page isn't allowed to talk to the server."),
};

// The fields a person fills in, by the names the server's checks give them.
/** @type {Record<string, string>} */
const FIELD_NAMES = {
  turn_timer: _("Seconds per move"),
  name: _("Your name"),
  text: _("The chat message"),
  preset: _("The rules"),
  options: _("The rule options"),
  client_seed: _("Your dice seed"),
  level: _("The computer's level"),
  seat: _("The seat"),
};

/**
 * One "invalid" detail ({field, problem, limit}) as a sentence in the page's language.
 * @param {InvalidDetail} detail
 */
export function invalidSentence(detail) {
  const field = FIELD_NAMES[detail.field] || _("A value");
  const limit = detail.limit;
  const o = { field, limit };
  switch (detail.problem) {
    case "greater_than_equal":
      return _("{field} must be at least {limit}.", o);
    case "greater_than":
      return _("{field} must be more than {limit}.", o);
    case "less_than_equal":
      return _("{field} must be at most {limit}.", o);
    case "less_than":
      return _("{field} must be less than {limit}.", o);
    case "string_too_short":
      return limit ? ngettext("{field} needs at least {n} character.", "{field} needs at least {n} characters.", limit, { field }) : _("{field} is empty.", o);
    case "string_too_long":
      return ngettext("{field} may have at most {n} character.", "{field} may have at most {n} characters.", limit || 0, { field });
    case "missing":
      return _("{field} is missing.", o);
    case "int_type":
    case "int_parsing":
    case "float_type":
    case "float_parsing":
      return _("{field} must be a number.", o);
    default:
      return _("{field} is not valid.", o);
  }
}

/**
 * An error as one readable sentence (no codes).
 * @param {unknown} error anything thrown, an `error` frame's data, or a sentence
 */
export function errorSentence(error) {
  const err = /** @type {ErrorLike} */ (error);
  const code = err && err.code;
  if (code === "invalid" && Array.isArray(err.details) && err.details.length) return err.details.map(invalidSentence).join(" ");
  if (code && ERROR_SENTENCES[code]) return ERROR_SENTENCES[code];
  return sentence(err && err.message ? err.message : String(err || _("Something went wrong")));
}

/**
 * "4x5 does not beat 5x6" -> "4x5 does not beat 5x6." (a capital and a full stop).
 * @param {unknown} text
 */
export function sentence(text) {
  let t = String(text || "").trim();
  if (!t) return _("Something went wrong.");
  t = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

// ---------------------------------------------------------------- the guest identity
// One persistent identity per browser: {player, token, name}. The token is a secret: it is
// sent only in the Authorization header of /api/players/me and as player_token when joining.

const PLAYER_KEY = "liarsdice:player";

/** @returns {Identity | null} */
export function loadPlayer() {
  try {
    const p = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    return p && typeof p === "object" ? p : null;
  } catch {
    return null;
  }
}

/** @param {Identity} p */
export function savePlayer(p) {
  try {
    localStorage.setItem(PLAYER_KEY, JSON.stringify(p));
  } catch {
    // not remembered
  }
}

/**
 * This browser's identity, created on the server the first time (`POST /api/players`).
 * With a server that has no players yet, a local one: {player: null, token: null, name}.
 * @param {string} name
 * @returns {Promise<Identity>}
 */
export async function ensurePlayer(name) {
  const have = loadPlayer();
  if (have && have.token) {
    if (name && name !== have.name) {
      try {
        const res = /** @type {{name?: string}} */ (await postJSON("/api/players/me", { name }, { token: have.token }));
        have.name = res.name || name;
      } catch (err) {
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
          savePlayer({ player: null, token: null, name });
          return ensurePlayer(name);
        }
        if (!(err instanceof ApiError) || err.status !== 404) throw err;
        have.name = name;
      }
      savePlayer(have);
    }
    return have;
  }
  const nm = name || (have && have.name) || "";
  try {
    const res = /** @type {Identity} */ (await postJSON("/api/players", { name: nm || guestName() }));
    const p = { player: res.player, token: res.token, name: res.name || nm };
    savePlayer(p);
    return p;
  } catch (err) {
    if (err instanceof ApiError && [404, 405].includes(err.status)) {
      /** @type {Identity} */
      const p = { player: null, token: null, name: nm };
      savePlayer(p);
      return p;
    }
    throw err;
  }
}

/** "Guest 4821": a name for someone who hasn't picked one. */
export function guestName() {
  const n = new Uint16Array(1);
  crypto.getRandomValues(n);
  return _("Guest {n}", { n: 1000 + (n[0] % 9000) });
}

// ---------------------------------------------------------------- seats in localStorage
// The seat token is the only way back into a seat (reload, another day): keep it per room.

/** @param {string} room */
const seatKey = (room) => `liarsdice:seat:${room}`;

/**
 * {token, seat, name} for this room, or null.
 * @param {string} room
 * @returns {SavedSeat | null}
 */
export function loadSeat(room) {
  try {
    const raw = localStorage.getItem(seatKey(room));
    const seat = raw ? JSON.parse(raw) : null;
    return seat && typeof seat.token === "string" ? seat : null;
  } catch {
    return null;
  }
}

/**
 * @param {string} room
 * @param {SavedSeat} seat
 */
export function saveSeat(room, seat) {
  try {
    localStorage.setItem(seatKey(room), JSON.stringify(seat));
  } catch {
    // private mode or storage full: the seat still works until the page is closed
  }
}

/** @param {string} room */
export function forgetSeat(room) {
  try {
    localStorage.removeItem(seatKey(room));
  } catch {
    // nothing to forget
  }
}

/**
 * A preference of this browser (localStorage), else `fallback`.
 * @template T
 * @param {string} name
 * @param {T} fallback
 * @returns {T}
 */
export function loadPref(name, fallback) {
  try {
    const v = localStorage.getItem(`liarsdice:${name}`);
    return v === null ? fallback : JSON.parse(v);
  } catch {
    return fallback;
  }
}

/**
 * @param {string} name
 * @param {unknown} value (JSON)
 */
export function savePref(name, value) {
  try {
    localStorage.setItem(`liarsdice:${name}`, JSON.stringify(value));
  } catch {
    // not remembered; fine
  }
}

// ---------------------------------------------------------------- the WebSocket

// Close codes after which reconnecting as the same identity is pointless.
const CLOSE_BAD_TOKEN = 4401;
const CLOSE_ORIGIN = 4403;
const CLOSE_NO_ROOM = 4404;
const CLOSE_BAD_HELLO = 4400;
const CLOSE_REMOVED = 4410;

/**
 * One room connection that survives network trouble. It remembers the highest `seq` seen
 * and, whenever the socket closes, reconnects with exponential backoff (0.5 s doubling to
 * 10 s, with jitter) and says `hello {token, last_seq}`: the server answers with the missed
 * events (`update`) or a fresh `snapshot`.
 *
 * Callbacks: onFrame(frame), onStatus(text, state) with state "open" | "connecting" | "closed",
 * onFatal(code) for close codes that end the session (bad token, no room, origin).
 */
export class Connection {
  /**
   * @param {string} room
   * @param {{token?: string | null, onFrame: (frame: Frame) => void, onStatus?: (text: string, state: string) => void, onFatal?: (code: number) => void}} callbacks
   */
  constructor(room, { token = null, onFrame, onStatus, onFatal }) {
    this.room = room;
    this.token = token;
    this.onFrame = onFrame;
    this.onStatus = onStatus || (() => {});
    this.onFatal = onFatal || (() => {});
    this.seq = 0; // the highest seq seen (0: nothing yet)
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.generation = 0; // bumps on every (re)open, so stale sockets' events are ignored
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.nextId = 1;
    // Message ids are unique across reloads and tabs (a random prefix per page), so that the
    // server can recognise an action it has already applied when it is sent again.
    this.idPrefix = newClientSeed().slice(0, 12);
    // Actions sent but not yet answered (id -> data), resent with the same id after a
    // reconnect: the server applies an action id once and answers a repeat with its ack.
    /** @type {Map<string, Record<string, unknown>>} */
    this.unacked = new Map();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/rooms/${encodeURIComponent(this.room)}`;
  }

  /** Open (or re-open) the socket now. */
  open() {
    clearTimeout(this.timer);
    const gen = ++this.generation;
    if (this.ws) {
      try {
        this.ws.close(1000);
      } catch {
        // already closed
      }
    }
    this.onStatus(_("connecting…"), "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (gen !== this.generation) return;
      this.sendRaw("hello", { token: this.token, last_seq: this.seq > 0 ? this.seq : null });
    });
    ws.addEventListener("message", (ev) => {
      if (gen !== this.generation) return;
      /** @type {Frame} */
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      const replyTo = frame.data && frame.data.reply_to;
      if (replyTo && this.unacked.has(replyTo)) this.unacked.delete(replyTo);
      if (frame.type === "welcome") {
        this.attempt = 0;
        this.onStatus(_("connected"), "open");
        for (const [id, data] of this.unacked) this.sendRaw("action", { ...data, id });
      }
      const seq = frame.data && typeof frame.data.seq === "number" ? frame.data.seq : null;
      if ((frame.type === "update" || frame.type === "snapshot") && seq !== null) {
        // A gap (events we never saw): ask for them again.
        if (frame.type === "update" && this.seq > 0 && frame.data.from_seq > this.seq) {
          this.send("resync", { last_seq: this.seq });
        }
        this.seq = frame.type === "snapshot" ? seq : Math.max(this.seq, seq);
      }
      this.onFrame(frame);
    });
    ws.addEventListener("close", (ev) => {
      if (gen !== this.generation) return;
      this.ws = null;
      if ([CLOSE_BAD_TOKEN, CLOSE_NO_ROOM, CLOSE_ORIGIN, CLOSE_BAD_HELLO, CLOSE_REMOVED].includes(ev.code)) {
        this.onStatus(_("disconnected"), "closed");
        this.onFatal(ev.code);
        return;
      }
      this.retry();
    });
  }

  /** Reconnect after a delay that grows with each failed attempt. */
  retry() {
    const base = Math.min(10000, 500 * 2 ** this.attempt);
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.onStatus(_("offline: reconnecting in {secs} s…", { secs: Math.ceil(delay / 1000) }), "closed");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /**
   * Use another identity (after joining a seat, or dropping a bad token) and reconnect.
   * @param {string | null} token
   */
  reconnectAs(token) {
    this.token = token;
    this.unacked.clear(); // another identity: the old one's actions are not ours to resend
    this.attempt = 0;
    this.open();
  }

  /**
   * Send a message; returns its id (the answer carries it as reply_to), or null offline.
   * @param {string} type
   * @param {Record<string, unknown>} [data]
   * @returns {string | null}
   */
  send(type, data = {}) {
    const id = `${this.idPrefix}-${this.nextId++}`;
    if (!this.sendRaw(type, { ...data, id })) return null;
    if (type === "action") {
      this.unacked.set(id, data);
      while (this.unacked.size > 8) this.unacked.delete(this.unacked.keys().next().value);
    }
    return id;
  }

  /**
   * @param {string} type
   * @param {Record<string, unknown>} data
   */
  sendRaw(type, data) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type, version: PROTOCOL_VERSION, data }));
    return true;
  }
}
