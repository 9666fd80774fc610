// The browser client's entry point: "/" is the lobby, "/r/{room}" a room (a seat when this
// browser holds the room's seat token, else a spectator who may join). No build step: plain
// ES modules served by the game server. Protocol: docs/PROTOCOL.md.

import {
  ApiError,
  Connection,
  forgetSeat,
  getJSON,
  loadPref,
  loadSeat,
  newClientSeed,
  postJSON,
  savePref,
  saveSeat,
} from "./api.js";
import { $, fill, h, unescapeHtml } from "./dom.js";
import { ReplayViewer } from "./replay.js";
import {
  MovePicker,
  bidLabel,
  describeMove,
  describeResult,
  nameOf,
  renderBids,
  renderCurrentBid,
  renderGameOver,
  renderHistory,
  renderMine,
  renderPublic,
  renderReveal,
  renderSeats,
  turnText,
} from "./table.js";

// ---------------------------------------------------------------- shared bits

/** Say something to screen readers (the polite live region keeps the last few lines). */
export function announce(text) {
  if (!text) return;
  const live = $("live");
  live.append(h("p", { text }));
  while (live.childElementCount > 6) live.firstElementChild.remove();
}

let errorTimer = null;
function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(hideError, 15000);
}
function hideError() {
  $("error").hidden = true;
}
$("error-close").addEventListener("click", hideError);

const errorText = (err) => (err instanceof ApiError ? `${err.message} (${err.code})` : String(err.message || err));

const roomPath = (id) => `/r/${encodeURIComponent(id)}`;

/** A room id from what someone pasted: a share link ".../r/ID" or the bare id. */
export function roomFromInput(text) {
  const t = String(text || "").trim();
  const m = /\/r\/([A-Za-z0-9_-]+)/.exec(t);
  if (m) return m[1];
  return /^[A-Za-z0-9_-]+$/.test(t) ? t : null;
}

/** "dice=3\nloss=one" -> {dice: "3", loss: "one"}; the server parses values like --option. */
export function parseOptions(text) {
  const options = {};
  String(text || "")
    .split("\n")
    .forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith("#")) return;
      const eq = line.indexOf("=");
      if (eq <= 0) throw new Error(`options, line ${i + 1}: write NAME=VALUE, e.g. dice=3`);
      options[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    });
  return options;
}

/** The turn timer field: "" -> null, else a number of seconds (the server checks 5..3600). */
function timerValue(input) {
  const t = input.value.trim();
  if (!t) return null;
  const n = Number(t);
  if (!Number.isFinite(n)) throw new Error("the turn timer is a number of seconds");
  return n;
}

let presetsPromise = null;
const presets = () => (presetsPromise ??= getJSON("/api/presets"));

// ---------------------------------------------------------------- the lobby

async function startLobby() {
  $("lobby").hidden = false;
  document.title = "Liar's Dice";
  const name = loadPref("name", "");
  $("create-name").value = name;
  $("join-name").value = name;

  const select = $("create-preset");
  const data = await presets().catch((err) => {
    showError(`Couldn't load the rules list: ${errorText(err)}`);
    return { presets: [], bot_levels: [] };
  });
  const families = { bidding: "Bid on all the dice", poker: "Poker dice" };
  for (const [family, label] of Object.entries(families)) {
    const group = h("optgroup", { label });
    for (const p of data.presets.filter((x) => x.family === family)) {
      group.append(h("option", { value: p.name, text: p.name, "data-family": p.family }));
    }
    if (group.childElementCount) select.append(group);
  }
  const describe = () => {
    const p = data.presets.find((x) => x.name === select.value);
    $("preset-desc").textContent = p ? p.description : "";
    $("options-hint").textContent =
      p && p.family === "poker"
        ? "Poker dice options: lives, five_of_a_kind_rule."
        : "Any rule option of docs/RULES.md, e.g. dice=3, loss=one, wild=none.";
  };
  select.addEventListener("change", describe);
  describe();

  $("create-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = $("create-button");
    try {
      const nm = $("create-name").value.trim();
      if (!nm) throw new Error("please give your name");
      const body = {
        preset: select.value,
        options: parseOptions($("create-options").value),
        name: nm,
        turn_timer: timerValue($("create-timer")),
        client_seed: newClientSeed(),
      };
      button.disabled = true;
      const res = await postJSON("/api/rooms", body);
      savePref("name", nm);
      saveSeat(res.room, { token: res.token, seat: res.seat, name: nm });
      location.assign(roomPath(res.room));
    } catch (err) {
      button.disabled = false;
      showError(`Couldn't create the room: ${errorText(err)}`);
    }
  });

  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const room = roomFromInput($("join-room").value);
    if (!room) {
      showError("Paste a room link (…/r/ID) or a room id.");
      return;
    }
    const nm = $("join-name").value.trim();
    if (!nm || loadSeat(room)) {
      location.assign(roomPath(room)); // watch, or resume the seat this browser already has
      return;
    }
    try {
      const res = await postJSON(`/api/rooms/${encodeURIComponent(room)}/join`, {
        name: nm,
        client_seed: newClientSeed(),
      });
      savePref("name", nm);
      saveSeat(res.room, { token: res.token, seat: res.seat, name: nm });
      location.assign(roomPath(res.room));
    } catch (err) {
      showError(`Couldn't join: ${errorText(err)}`);
    }
  });

  const refresh = async () => {
    try {
      const { rooms } = await getJSON("/api/rooms");
      const list = $("room-list");
      if (!rooms.length) {
        fill(list, h("li", { class: "hint", text: "No rooms yet: create one." }));
        return;
      }
      fill(
        list,
        rooms.map((r) =>
          h(
            "li",
            { "data-room": r.id },
            h("a", { href: roomPath(r.id) }, h("code", { text: r.id })),
            ` ${r.preset} · ${r.status}${r.status === "playing" ? ` (game ${r.game_no})` : ""} · `,
            `${r.players} seated${r.seats.length ? `: ${r.seats.join(", ")}` : ""}`,
            r.spectators ? ` · ${r.spectators} watching` : "",
          ),
        ),
      );
    } catch (err) {
      showError(`Couldn't load the rooms: ${errorText(err)}`);
    }
  };
  $("refresh-rooms").addEventListener("click", refresh);
  refresh();
  setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, 15000);
}

// ---------------------------------------------------------------- a room

/** Everything the room page knows, all of it from the server's frames. */
const S = {
  id: "",
  seat: null, // my seat, or null when watching
  role: "spectator",
  host: false,
  welcomed: false, // the socket's welcome has told us who we are
  room: null, // the frames' `room`
  view: null, // the frames' `view` (this seat's view)
  chat: new Map(), // seq -> chat event
  oddsOn: loadPref("odds", false),
  pending: null, // the id of a move in flight (the picker is disabled until it's answered)
  turnKey: "", // which turn we last announced
  resultCount: -1, // how many results we have announced
};

let conn = null;
let picker = null;
let replay = null;
let replayOpener = null;

async function startRoom(id) {
  S.id = id;
  $("room").hidden = false;
  $("room-id").textContent = id;
  $("share-url").value = `${location.origin}${roomPath(id)}`;
  document.title = `Liar's Dice: room ${id}`;
  picker = new MovePicker($("moves"), $("moves-fieldset"), sendMove);
  replay = new ReplayViewer($("replay"), {
    announce,
    onClose: () => {
      history.replaceState(null, "", location.pathname);
      if (replayOpener && document.contains(replayOpener)) replayOpener.focus();
    },
  });
  wireRoomControls();

  // The room must exist; its public snapshot gives a first picture while the socket opens.
  try {
    const snap = await getJSON(`/api/rooms/${encodeURIComponent(id)}`);
    S.room = snap.data.room;
    S.view = null;
  } catch (err) {
    $("room-meta").textContent = err instanceof ApiError && err.code === "no_room" ? "There is no such room." : errorText(err);
    fill($("table"), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
    return;
  }
  render();

  const seat = loadSeat(id);
  conn = new Connection(id, {
    token: seat ? seat.token : null,
    onFrame,
    onStatus: (text) => {
      $("conn").textContent = text;
    },
    onFatal: (code) => {
      if (code === 4401) {
        forgetSeat(id);
        showError("This browser's seat in the room is no longer valid: you are watching.");
        conn.reconnectAs(null);
      } else if (code === 4404) {
        showError("There is no such room.");
      } else {
        showError(`The server closed the connection (${code}).`);
      }
    },
  });
  conn.open();
  // A handle for debugging from the console (and for the end-to-end tests): the state holds
  // nothing but what the server sent this browser.
  window.liarsdice = { state: S, conn };

  const m = /^#replay-(\d+)$/.exec(location.hash);
  if (m) openReplay(Number(m[1]), null);
}

function wireRoomControls() {
  $("copy-link").addEventListener("click", async () => {
    const input = $("share-url");
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select(); // no clipboard permission: select it so the player can copy it
      document.execCommand && document.execCommand("copy");
    }
    announce("Link copied.");
    $("copy-link").textContent = "Copied";
    setTimeout(() => ($("copy-link").textContent = "Copy link"), 2000);
  });

  $("seat-join").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const nm = $("seat-name").value.trim();
    if (!nm) {
      showError("Please give your name.");
      return;
    }
    try {
      const res = await postJSON(`/api/rooms/${encodeURIComponent(S.id)}/join`, {
        name: nm,
        client_seed: newClientSeed(),
      });
      savePref("name", nm);
      saveSeat(res.room, { token: res.token, seat: res.seat, name: nm });
      hideError();
      conn.reconnectAs(res.token);
    } catch (err) {
      showError(`Couldn't join: ${errorText(err)}`);
    }
  });
  $("seat-name").value = loadPref("name", "");

  presets()
    .then((data) => fill($("bot-level"), data.bot_levels.map((lv) => h("option", { value: lv, text: lv, selected: lv === "prob" }))))
    .catch(() => {});
  $("add-bot").addEventListener("click", () => send("add_bot", { level: $("bot-level").value }));
  $("start").addEventListener("click", () => send("start"));
  $("rematch").addEventListener("click", () => send("rematch"));
  $("set-timer").addEventListener("click", () => {
    try {
      send("settings", { turn_timer: timerValue($("timer")) });
    } catch (err) {
      showError(err.message);
    }
  });

  $("odds-toggle").checked = S.oddsOn;
  $("odds-toggle").addEventListener("change", (ev) => {
    S.oddsOn = ev.target.checked;
    savePref("odds", S.oddsOn);
    render();
  });

  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (send("chat", { text })) input.value = "";
  });
}

/** Send a message; complain when offline. Returns the message id or null. */
function send(type, data = {}) {
  const id = conn && conn.send(type, data);
  if (!id) showError("Not connected: wait a moment and try again.");
  return id;
}

function sendMove(move) {
  if (S.pending) return;
  const id = send("action", { action: move.action });
  if (!id) return;
  S.pending = id;
  picker.update(S);
}

// ---------------------------------------------------------------- frames

function onFrame(frame) {
  const d = frame.data || {};
  switch (frame.type) {
    case "welcome":
      S.seat = d.seat;
      S.role = d.role;
      S.host = Boolean(d.host);
      S.welcomed = true;
      S.pending = null; // a new connection: a move in flight was either applied or lost
      render();
      break;
    case "snapshot":
      S.room = d.room;
      S.view = d.view;
      S.chat = new Map((d.chat || []).map((e) => [e.seq, e]));
      S.pending = null;
      render();
      announceState(false);
      break;
    case "update": {
      const before = S.view;
      S.room = d.room;
      S.view = d.view;
      for (const ev of d.events || []) onEvent(ev, before);
      if (d.reply_to && d.reply_to === S.pending) S.pending = null;
      if ((d.events || []).some((e) => e.kind === "action" || e.kind === "game_started")) S.pending = null;
      render();
      announceState(true);
      break;
    }
    case "error":
      if (d.reply_to && d.reply_to === S.pending) S.pending = null;
      showError(d.message || d.code);
      render();
      break;
    default:
      break; // pong
  }
}

function onEvent(ev, before) {
  switch (ev.kind) {
    case "chat":
      S.chat.set(ev.seq, ev);
      if (ev.seat !== S.seat) announce(`${ev.name} says: ${unescapeHtml(ev.text)}`);
      break;
    case "action": {
      // Name the mover from the view the action was made in (seats never change mid-game).
      const auto = ev.auto ? " (played by a bot)" : "";
      if (ev.seat === S.seat) announce(`Your move: ${bidLabel(ev.text)}${auto}.`);
      else announce(`${nameOf({ ...S, view: before || S.view }, ev.seat)} ${describeMove(ev.text)}${auto}.`);
      break;
    }
    case "game_started":
      S.resultCount = 0;
      announce(`Game ${ev.game_no} starts.`);
      break;
    case "game_over":
      announce(ev.winner === null || ev.winner === undefined ? "Game over." : ev.winner === S.seat ? "Game over: you win!" : `Game over: ${nameOf(S, ev.winner)} wins.`);
      break;
    case "seat_joined":
      announce(`${ev.name} joins the room.`);
      break;
    default:
      break;
  }
}

/** Announce a new round result and "Your turn" once each. */
function announceState(live) {
  const v = S.view;
  if (!v) return;
  const results = v.results || [];
  if (S.resultCount < 0 || !live) S.resultCount = results.length; // don't replay history
  if (results.length > S.resultCount) {
    const i = results.length - 1;
    announce(describeResult(S, results[i], i).sentences.join(" "));
    S.resultCount = results.length;
  }
  const mine = S.seat !== null && v.to_move === S.seat && v.legal.length > 0;
  const key = `${v.game_no}/${v.round}/${v.bids.length}/${v.phase}`;
  if (mine && key !== S.turnKey) {
    S.turnKey = key;
    announce(v.current_bid ? `Your turn. The bid is ${bidLabel(v.current_bid)}.` : "Your turn.");
  }
  document.title = `${mine ? "(Your turn) " : ""}Liar's Dice: room ${S.id}`;
}

// ---------------------------------------------------------------- rendering

function render() {
  if (!S.room) return;
  const room = S.room;
  const seated = S.seat !== null;
  $("room-meta").textContent = [
    `${room.preset}${Object.keys(room.options || {}).length ? ` (${Object.entries(room.options).map(([k, v]) => `${k}=${v}`).join(", ")})` : ""}`,
    room.status === "playing" ? `game ${room.game_no} in progress` : room.status === "finished" ? `game ${room.game_no} over` : "waiting to start",
    room.turn_timer ? `turn timer ${room.turn_timer} s` : "no turn timer",
    `${room.spectators} watching`,
    seated ? `you are ${room.seats[S.seat] ? room.seats[S.seat].name : "seated"}` : "you are watching",
  ].join(" · ");

  // Joining: only for spectators, between games, while seats are free.
  const canJoin = !seated && room.status !== "playing" && room.seats.length < 12;
  $("seat-join").hidden = seated || !S.welcomed; // wait for the welcome: it may seat us
  $("seat-name").hidden = $("seat-join-button").hidden = !canJoin;
  document.querySelector("label[for=seat-name]").hidden = !canJoin;
  $("watching").textContent = canJoin ? "You are watching. Join the game:" : "You are watching (players can join between games).";

  // Host controls, between games only.
  const hostNow = S.host && room.status !== "playing";
  $("host-controls").hidden = !hostNow;
  if (hostNow) {
    $("start").hidden = room.status !== "lobby";
    $("rematch").hidden = room.status !== "finished";
    $("start").disabled = room.seats.length < 2;
    if (document.activeElement !== $("timer")) $("timer").value = room.turn_timer ?? "";
  }

  renderSeats($("seats"), S);
  renderGameOver($("game-over"), S);
  $("turn").textContent = turnText(S);
  renderMine($("my-area"), $("my-dice"), S);
  renderPublic($("public"), S);
  renderCurrentBid($("current-bid"), S);
  $("odds-area").hidden = !(room.rules && seated && S.view && room.status === "playing");
  picker.update(S);
  $("bids-area").hidden = room.status !== "playing";
  renderBids($("bids"), S);
  renderReveal($("reveal"), S);
  renderHistory($("history"), $("results"), S);
  renderChat();
  renderGames();
}

function renderChat() {
  const list = $("chat-list");
  const items = [...S.chat.values()].sort((a, b) => a.seq - b.seq);
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  fill(
    list,
    items.length
      ? items.map((e) => h("li", {}, h("span", { class: "seat-name", text: e.name }), ": ", h("span", { text: unescapeHtml(e.text) })))
      : h("li", { class: "hint", text: "No messages yet." }),
  );
  if (atBottom) list.scrollTop = list.scrollHeight;
  const seated = S.seat !== null;
  $("chat-input").disabled = $("chat-send").disabled = !seated;
  $("chat-input").placeholder = seated ? "Say something" : "Only players can chat";
}

function renderGames() {
  const games = S.room.games || [];
  const q = (g, f) => `/api/rooms/${encodeURIComponent(S.id)}/games/${g}/record?format=${f}`;
  fill(
    $("games-list"),
    games.length
      ? games.map((g) =>
          h(
            "li",
            {},
            `Game ${g}: `,
            h("button", { type: "button", class: "link", id: `replay-${g}`, onclick: (ev) => openReplay(g, ev.currentTarget) }, "Replay"),
            " · ",
            h("a", { href: q(g, "json"), download: `liarsdice-${S.id}-game${g}.json` }, "JSON"),
            " · ",
            h("a", { href: q(g, "text"), download: `liarsdice-${S.id}-game${g}.txt` }, "text"),
          ),
        )
      : h("li", { class: "hint", text: "None yet." }),
  );
}

async function openReplay(game, opener) {
  replayOpener = opener;
  history.replaceState(null, "", `${location.pathname}#replay-${game}`);
  try {
    await replay.open(S.id, game);
  } catch (err) {
    $("replay").hidden = true;
    showError(`Couldn't load game ${game}: ${errorText(err)}`);
  }
}

// ---------------------------------------------------------------- start

const m = /^\/r\/([^/]+)\/?$/.exec(location.pathname);
if (m) startRoom(decodeURIComponent(m[1]));
else startLobby();
