// The browser client's entry point: "/" is the lobby, "/r/{room}" a room (a seat when this
// browser holds the room's seat token, else a spectator who may join), "/leaderboard" and
// "/p/{player}" the ratings. No build step: plain ES modules served by the game server.
// Protocol: docs/PROTOCOL.md.

import {
  ApiError,
  Connection,
  ensurePlayer,
  errorSentence,
  forgetSeat,
  getJSON,
  guestName,
  loadPlayer,
  loadPref,
  loadSeat,
  newClientSeed,
  postWithOptional,
  savePlayer,
  savePref,
  saveSeat,
  sentence,
} from "./api.js";
import { $, changed, fill, h, reducedMotion, unescapeHtml } from "./dom.js";
import { _, ngettext, pgettext } from "./i18n.js";
import { renderLog } from "./log.js";
import { MovePicker } from "./moves.js";
import { startLeaderboard, startPlayer } from "./pages.js";
import { ReplayViewer, startReplayPage } from "./replay.js";
import { analysisHash, wireAnalysis } from "./analysis.js";
import { botLevelChoice } from "./names.js";
import { RevealController } from "./reveal.js";
import { presetRules, presetSummary, presetTitle, roomRules } from "./rules.js";
import { isMuted, onMuteChange, play, setMuted } from "./sound.js";
import { describeResult, renderCentre, renderGameOver, renderRevealText, renderSeats, renderTray, rollTray, tickClock } from "./table.js";
import { FAMILIES, familyNamed, familyOf } from "./family.js";
import { hostSeat, me, myTurn, nameOf, seatName } from "./facts.js";
import { speakerOff, speakerOn } from "./icons.js";
import { Tips } from "./tips.js";
import { EVENT } from "./event-kinds.js";
import { RoomStore } from "./store.js";

/** @typedef {import("./api.js").ErrorLike} ErrorLike */
/** @typedef {import("./reveal.js").RevealChange} RevealChange */
/** @typedef {import("./types.js").Frame} Frame */
/** @typedef {import("./types.js").LegalEntry} LegalEntry */
/** @typedef {import("./types.js").ListedRoom} ListedRoom */
/** @typedef {import("./types.js").Preset} Preset */
/** @typedef {import("./types.js").RoomEvent} RoomEvent */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").TableState} TableState */
/** @typedef {import("./types.js").View} View */
/**
 * `GET /api/presets`: every preset and the bot levels.
 * @typedef {{presets: Preset[], bot_levels: string[]}} PresetList
 */
/**
 * A request for a seat (`POST /api/rooms`, `POST /api/rooms/{room}/join`).
 * @typedef {object} SeatRequest
 * @property {string} name
 * @property {string} client_seed
 * @property {string} [player_token]
 * @property {string} [preset]
 * @property {Record<string, string | number>} [options]
 * @property {number | null} [turn_timer]
 * @property {boolean} [private]
 * @property {boolean} [tutorial]
 */
/**
 * The seat a create or join request got.
 * @typedef {{room: string, seat: number, token: string, url: string}} SeatGrant
 */

// ---------------------------------------------------------------- shared bits

/**
 * Say something to screen readers (the polite live region keeps the last few lines).
 * @param {string} text
 */
export function announce(text) {
  if (!text) return;
  const live = $("live");
  live.append(h("p", { text }));
  while (live.childElementCount > 6) live.firstElementChild.remove();
}

/** @type {ReturnType<typeof setTimeout> | null} */
let errorTimer = null;
/**
 * Show a message at the top of the page: an ApiError, an Error or a sentence.
 * @param {unknown} error
 */
function showError(error) {
  const err = /** @type {ErrorLike | string} */ (error);
  const text = typeof err === "string" ? err : err instanceof ApiError || (err && err.code) ? errorSentence(err) : sentence(err && err.message ? err.message : String(err));
  $("error-text").textContent = text;
  $("error").hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(hideError, 15000);
}
function hideError() {
  $("error").hidden = true;
}
$("error-close").addEventListener("click", hideError);

/** @param {string} id */
const roomPath = (id) => `/r/${encodeURIComponent(id)}`;

/**
 * A room id from what someone pasted: a share link ".../r/ID" or the bare id.
 * @param {unknown} text
 */
export function roomFromInput(text) {
  const t = String(text || "").trim();
  const m = /\/r\/([A-Za-z0-9_-]+)/.exec(t);
  if (m) return m[1];
  return /^[A-Za-z0-9_-]+$/.test(t) ? t : null;
}

/**
 * "dice=3\nloss=one" -> {dice: "3", loss: "one"}; the server parses values like --option.
 * @param {unknown} text
 */
export function parseOptions(text) {
  /** @type {Record<string, string>} */
  const options = {};
  String(text || "")
    .split("\n")
    .forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith("#")) return;
      const eq = line.indexOf("=");
      if (eq <= 0) throw new Error(_("Rule changes, line {line}: write a name, \"=\" and a value, for example dice=3.", { line: i + 1 }));
      options[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    });
  return options;
}

/**
 * A seconds field: "" -> null, else a number from 5 to 3600 (the server checks it too).
 * @param {HTMLInputElement | HTMLSelectElement} input
 */
function timerValue(input) {
  const t = String(input.value).trim();
  if (!t) return null;
  const n = Number(t);
  if (!Number.isFinite(n)) throw new Error(_("The time per move is a number of seconds."));
  if (n < 5 || n > 3600) throw new Error(_("Seconds per move: from 5 to 3600, or empty for no limit."));
  return n;
}

/** The lobby's first choice and the first game's rules (the terminal's default too). */
const DEFAULT_PRESET = "classic";

/** @type {Promise<PresetList> | null} */
let presetsPromise = null;
const presets = () => (presetsPromise ??= /** @type {Promise<PresetList>} */ (getJSON("/api/presets")));

/** My name: the identity's, else the one typed before, else a guest name. */
function myName() {
  const p = loadPlayer();
  return (p && p.name) || loadPref("name", "") || "";
}

/**
 * Create or join with this browser's identity; returns {name, player_token}.
 * @param {unknown} name
 */
async function identity(name) {
  const nm = String(name || "").trim() || myName() || guestName();
  savePref("name", nm);
  try {
    const p = await ensurePlayer(nm);
    showMe();
    return { name: nm, player_token: p.token || undefined };
  } catch {
    return { name: nm, player_token: undefined };
  }
}

/**
 * POST a create or join body with this browser's identity; a player token the server no
 * longer knows (`bad_player`) is dropped and the request made once more without it.
 * @param {string} url
 * @param {SeatRequest} body
 * @returns {Promise<SeatGrant>}
 */
async function postSeat(url, body) {
  try {
    return /** @type {SeatGrant} */ (await postWithOptional(url, body, ["private", "player_token", "tutorial"]));
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "bad_player" && body.player_token)) throw err;
    savePlayer({ player: null, token: null, name: body.name });
    const again = { ...body };
    delete again.player_token;
    try {
      const p = await ensurePlayer(body.name);
      if (p.token) again.player_token = p.token;
    } catch {
      // play unrated
    }
    return /** @type {Promise<SeatGrant>} */ (postWithOptional(url, again, ["private", "player_token"]));
  }
}

function showMe() {
  const p = loadPlayer();
  const link = $("me-link", HTMLAnchorElement);
  if (p && p.player) {
    link.hidden = false;
    link.href = `/p/${encodeURIComponent(p.player)}`;
    link.textContent = p.name ? _("You: {name}", { name: p.name }) : _("You");
  } else {
    link.hidden = true;
  }
}

// ---------------------------------------------------------------- sound toggle

function wireSound() {
  const b = $("sound-toggle");
  const paint = () => {
    b.setAttribute("aria-pressed", isMuted() ? "false" : "true");
    b.replaceChildren(isMuted() ? speakerOff() : speakerOn(), isMuted() ? _("Sound off") : _("Sound on"));
  };
  b.addEventListener("click", () => {
    setMuted(!isMuted());
    if (!isMuted()) play("bid");
  });
  onMuteChange(paint);
  paint();
}

// ---------------------------------------------------------------- rules dialog

/**
 * The rules dialog: the rules in play (the room's preset with its changed options).
 * @param {Preset} preset
 * @param {Record<string, unknown> | null} options
 */
async function openRules(preset, options) {
  // (a cast, not checked: an old browser has no HTMLDialogElement, and opens it as it can)
  const dialog = /** @type {HTMLDialogElement} */ ($("rules-dialog"));
  const rules = await roomRules(preset.name, options).catch((err) => [_("The rules could not be loaded: {reason}", { reason: errorSentence(err) })]);
  fill(
    $("rules-body"),
    h("h3", { text: _("{game}: the rules in play", { game: presetTitle(preset.name) }) }),
    h("ul", { id: "rules-list" }, rules.map((s) => h("li", { text: s }))),
    h("h3", { text: _("Playing here") }),
    h(
      "ul",
      {},
      h("li", { text: _("To bid, pick how many, then click a face. Only bids that beat the current one can be clicked.") }),
      h("li", { text: _("Call “Liar!” when you think the bid to beat is too high.") }),
      h("li", { text: _("Everything works with the keyboard: Tab moves between controls, Enter or Space presses them, the arrow keys pick a number.") }),
    ),
  );
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  $("rules-close").focus();
}

function wireRulesDialog() {
  const dialog = /** @type {HTMLDialogElement} */ ($("rules-dialog"));
  $("rules-close").addEventListener("click", () => (dialog.close ? dialog.close() : dialog.removeAttribute("open")));
  dialog.addEventListener("click", (ev) => {
    if (ev.target === dialog && dialog.close) dialog.close();
  });
}

// ---------------------------------------------------------------- the lobby

async function startLobby() {
  $("lobby").hidden = false;
  document.title = _("Liar's Dice");
  const nameInput = $("my-name", HTMLInputElement);
  nameInput.value = myName();
  const player = loadPlayer();
  if (player && player.player) {
    $("my-page").hidden = false;
    $("my-page", HTMLAnchorElement).href = `/p/${encodeURIComponent(player.player)}`;
  }

  $("identity-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const nm = nameInput.value.trim();
    if (!nm) {
      showError(_("Please type a name."));
      return;
    }
    try {
      const p = await ensurePlayer(nm);
      savePref("name", nm);
      showMe();
      if (p.player) {
        $("my-page").hidden = false;
        $("my-page", HTMLAnchorElement).href = `/p/${encodeURIComponent(p.player)}`;
      }
      announce(_("Your name is now {name}.", { name: nm }));
      $("save-name").textContent = _("Saved");
      setTimeout(() => ($("save-name").textContent = _("Save name")), 2000);
    } catch (err) {
      showError(err);
    }
  });

  const select = $("create-preset", HTMLSelectElement);
  const data = await presets().catch((err) => {
    showError(_("Couldn't load the list of games. {reason}", { reason: errorSentence(err) }));
    return /** @type {PresetList} */ ({ presets: [], bot_levels: [] });
  });
  // each family's groups of presets ("Bid on all the dice", "Poker dice", "Two-player duels")
  const groups = FAMILIES.flatMap((f) => f.lobbyGroups(data.presets)).sort((a, b) => a.order - b.order);
  const placed = new Set();
  for (const { label, presets: mine } of groups) {
    const group = h("optgroup", { label });
    for (const p of mine.filter((x) => !placed.has(x.name))) {
      placed.add(p.name);
      group.append(h("option", { value: p.name, text: presetTitle(p.name), "data-family": p.family, selected: p.name === DEFAULT_PRESET }));
    }
    if (group.childElementCount) select.append(group);
  }
  for (const p of data.presets.filter((x) => !placed.has(x.name))) select.append(h("option", { value: p.name, text: presetTitle(p.name) }));
  const describe = () => {
    const p = data.presets.find((x) => x.name === select.value);
    $("preset-desc").textContent = p ? presetSummary(p) : "";
    fill($("preset-rules-list"), (p ? presetRules(p) : []).map((s) => h("li", { text: s })));
    const family = p ? familyNamed(p.family) : null;
    $("options-hint").textContent = family ? family.optionsHint() : "";
  };
  select.addEventListener("change", describe);
  describe();

  $("create-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = $("create-button", HTMLButtonElement);
    try {
      const options = parseOptions($("create-options", HTMLTextAreaElement).value);
      button.disabled = true;
      const who = await identity(nameInput.value);
      /** @type {SeatRequest} */
      const body = {
        preset: select.value,
        options,
        name: who.name,
        turn_timer: timerValue($("create-timer", HTMLSelectElement)),
        client_seed: newClientSeed(),
      };
      if ($("create-private", HTMLInputElement).checked) body.private = true;
      if (who.player_token) body.player_token = who.player_token;
      const res = await postSeat("/api/rooms", body);
      saveSeat(res.room, { token: res.token, seat: res.seat, name: who.name });
      location.assign(roomPath(res.room));
    } catch (err) {
      button.disabled = false;
      showError(_("Couldn't create the room. {reason}", { reason: err instanceof ApiError ? errorSentence(err) : sentence(/** @type {Error} */ (err).message) }));
    }
  });

  $("first-game").addEventListener("click", async (ev) => {
    const button = /** @type {HTMLButtonElement} */ (ev.currentTarget);
    button.disabled = true;
    try {
      const who = await identity(nameInput.value);
      // tutorial: the server rates none of this room's games
      /** @type {SeatRequest} */
      const body = { preset: DEFAULT_PRESET, options: { dice: 3 }, name: who.name, turn_timer: null, client_seed: newClientSeed(), private: true, tutorial: true };
      if (who.player_token) body.player_token = who.player_token;
      const res = await postSeat("/api/rooms", body);
      saveSeat(res.room, { token: res.token, seat: res.seat, name: who.name });
      savePref(`tutorial:${res.room}`, true);
      savePref("tips-off", false);
      savePref("tips-done", []);
      location.assign(roomPath(res.room));
    } catch (err) {
      button.disabled = false;
      showError(_("Couldn't start a game. {reason}", { reason: err instanceof ApiError ? errorSentence(err) : sentence(/** @type {Error} */ (err).message) }));
    }
  });

  /** @param {boolean} watch */
  const joinWith = async (watch) => {
    const room = roomFromInput($("join-room", HTMLInputElement).value);
    if (!room) {
      showError(_("Paste a room link (it ends with /r/ and the room's name)."));
      return;
    }
    if (watch || loadSeat(room)) {
      location.assign(roomPath(room)); // watch, or resume the seat this browser already has
      return;
    }
    try {
      const who = await identity(nameInput.value);
      /** @type {SeatRequest} */
      const body = { name: who.name, client_seed: newClientSeed() };
      if (who.player_token) body.player_token = who.player_token;
      const res = await postSeat(`/api/rooms/${encodeURIComponent(room)}/join`, body);
      saveSeat(res.room, { token: res.token, seat: res.seat, name: who.name });
      location.assign(roomPath(res.room));
    } catch (err) {
      showError(_("Couldn't join. {reason}", { reason: errorSentence(err) }));
    }
  };
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    joinWith(false);
  });
  $("watch-button").addEventListener("click", () => joinWith(true));

  const refresh = async () => {
    try {
      const { rooms } = /** @type {{rooms: ListedRoom[]}} */ (await getJSON("/api/rooms"));
      const list = $("room-list");
      if (!rooms.length) {
        fill(list, h("li", { class: "hint", text: _("No open rooms right now: create one, or play your first game.") }));
        return;
      }
      fill(
        list,
        rooms.map((r) => {
          const status = r.status === "playing" ? _("playing game {game}", { game: r.game_no }) : r.status === "finished" ? _("between games") : _("waiting to start");
          const open = r.status !== "playing" && r.players < 12;
          return h(
            "li",
            { "data-room": r.id, class: "room-item" },
            h("div", { class: "room-item-text" }, h("strong", { text: presetTitle(r.preset) }), h("span", { class: "meta", text: ` · ${status}` }), h("br"), h("span", { class: "meta", text: (r.seats.length ? ngettext("{n} seated: {names}", "{n} seated: {names}", r.players, { names: r.seats.join(", ") }) : ngettext("{n} seated", "{n} seated", r.players)) + (r.spectators ? ` · ${ngettext("{n} watching", "{n} watching", r.spectators)}` : "") })),
            h("a", {
              href: roomPath(r.id),
              class: "button small",
              "aria-label": r.seats.length
                ? (open ? _("Open the {game} room with {names}", { game: presetTitle(r.preset), names: r.seats.join(", ") }) : _("Watch the {game} room with {names}", { game: presetTitle(r.preset), names: r.seats.join(", ") }))
                : open ? _("Open the {game} room with nobody yet", { game: presetTitle(r.preset) }) : _("Watch the {game} room with nobody yet", { game: presetTitle(r.preset) }),
              text: open ? _("Open") : _("Watch"),
            }),
          );
        }),
      );
    } catch (err) {
      showError(_("Couldn't load the rooms. {reason}", { reason: errorSentence(err) }));
    }
  };
  $("refresh-rooms").addEventListener("click", refresh);
  refresh();
  setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, 15000);
}

// ---------------------------------------------------------------- a room

/** The room's state: everything the page knows of the room, from the server's frames only
 * (store.js: changed by `store.apply(frame)` alone, read-only to everyone else). */
/** @type {RoomStore | null} */
let store = null;

/** The page's own state: what this page does with the room's state, not what the server said. */
const page = {
  oddsOn: loadPref("odds", false), // the odds helper is on (a preference of this browser)
  pending: /** @type {string | null} */ (null), // the id of a move in flight (the picker is disabled until it's answered)
  turnKey: "", // which turn we last announced
  resultKey: "", // game/results count we have announced
  roundKey: "", // game/round whose roll we animated
  revealInView: "", // the reveal we scrolled into view
  leaving: false, // "Leave" was pressed: the lobby comes next
};

/**
 * What the drawing functions read: the room's state, the odds toggle and the move in flight.
 * @returns {TableState}
 */
function tableState() {
  return { ...store.state, oddsOn: page.oddsOn, pending: page.pending };
}

/** @type {Connection | null} */
let conn = null;
/** @type {MovePicker | null} */
let picker = null;
/** @type {ReplayViewer | null} */
let replay = null;
/** @type {HTMLElement | null} */
let replayOpener = null;
/** @type {RevealController | null} */
let reveal = null;
/** @type {Tips | null} */
let tips = null;
let rollPending = false;
/** @type {Preset | null} */
let presetInfo = null;

const baseTitle = () => _("{room} · Liar's Dice", { room: store.state.room ? presetTitle(store.state.room.preset) : _("Room") });

/**
 * A room's page: "/r/{room}".
 * @param {string} id the room's
 */
async function startRoom(id) {
  store = new RoomStore(id);
  // A handle for debugging from the console (and for the end-to-end tests): the state holds
  // nothing but what the server sent this browser.
  /** @type {Window & {liarsdice?: object}} */ (window).liarsdice = {
    get state() {
      return store.state;
    },
    get conn() {
      return conn;
    },
    get reveal() {
      return reveal;
    },
  };
  $("room").hidden = false;
  document.title = _("Liar's Dice");

  // The room must exist; its public snapshot (a spectator's) gives a first picture of the room
  // while the socket opens (the game's view comes with the socket's own snapshot).
  try {
    const snap = /** @type {Frame} */ (await getJSON(`/api/rooms/${encodeURIComponent(id)}`));
    store.apply({ ...snap, data: { ...snap.data, view: null } });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      $("no-room").hidden = false;
      document.title = _("No such room · Liar's Dice");
      $("back-to-lobby").focus();
    } else {
      $("no-room").hidden = false;
      $("no-room-h").textContent = _("Couldn't open this room.");
      showError(err);
    }
    return;
  }
  $("room-body").hidden = false;
  $("share-url", HTMLInputElement).value = `${location.origin}${roomPath(id)}`;
  reveal = new RevealController({
    onChange: (info) => onRevealChange(info),
    onContinue: () => store.state.seat !== null && Boolean(send("continue")),
    onWait: () => store.state.seat !== null && Boolean(send("wait")),
  });
  tips = new Tips($("tips"), Boolean(loadPref(`tutorial:${id}`, false)));
  picker = new MovePicker($("moves"), $("moves-fieldset", HTMLFieldSetElement), { onMove: sendMove, onSelection: () => store.state.room && renderTray($("my-area"), $("my-dice"), tableState(), picker.selection()) });
  replay = new ReplayViewer($("replay"), {
    announce,
    onClose: () => {
      history.replaceState(null, "", location.pathname);
      if (replayOpener && document.contains(replayOpener)) replayOpener.focus();
    },
  });
  wireAnalysis(id, { announce, showError });
  wireRoomControls();
  presets()
    .then((data) => {
      const preset = store.state.room.preset;
      presetInfo = data.presets.find((p) => p.name === preset) || { name: preset };
    })
    .catch(() => {});
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
        showError(_("This browser's seat in the room is no longer valid: you are watching."));
        conn.reconnectAs(null);
      } else if (code === 4410 && page.leaving) {
        goLobbyAfterLeave();
      } else if (code === 4410) {
        forgetSeat(id);
        showError(_("The host removed you from the room: you are watching."));
        conn.reconnectAs(null);
      } else if (code === 4404) {
        $("room-body").hidden = true;
        $("no-room").hidden = false;
      } else {
        showError(_("The server closed the connection. Reload the page to try again."));
      }
    },
  });
  conn.open();

  setInterval(() => tickClock(tableState(), baseTitle()), 250);

  const m = /^#replay-(\d+)$/.exec(location.hash);
  if (m) openReplay(Number(m[1]), null);
}

function wireRoomControls() {
  $("copy-link").addEventListener("click", async () => {
    const input = $("share-url", HTMLInputElement);
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select(); // no clipboard permission: select it so the player can copy it
      if (document.execCommand) document.execCommand("copy");
    }
    announce(_("Link copied."));
    $("copy-link").textContent = _("Copied!");
    setTimeout(() => ($("copy-link").textContent = _("Copy invite link")), 2000);
  });

  $("rules-button").addEventListener("click", () => openRules(presetInfo || { name: store.state.room.preset }, store.state.room.options));

  $("seat-join").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const nm = $("seat-name", HTMLInputElement).value.trim();
    if (!nm) {
      showError(_("Please type your name."));
      return;
    }
    try {
      const who = await identity(nm);
      /** @type {SeatRequest} */
      const body = { name: who.name, client_seed: newClientSeed() };
      if (who.player_token) body.player_token = who.player_token;
      const res = await postSeat(`/api/rooms/${encodeURIComponent(store.state.id)}/join`, body);
      saveSeat(res.room, { token: res.token, seat: res.seat, name: who.name });
      hideError();
      conn.reconnectAs(res.token);
    } catch (err) {
      showError(_("Couldn't join. {reason}", { reason: errorSentence(err) }));
    }
  });
  $("seat-name", HTMLInputElement).value = myName();

  presets()
    .then((data) => fill($("bot-level"), data.bot_levels.map((lv) => h("option", { value: lv, text: botLevelChoice(lv), selected: lv === "prob" }))))
    .catch(() => {});
  $("add-bot").addEventListener("click", () => send("add_bot", { level: $("bot-level", HTMLSelectElement).value }));
  $("lock-room").addEventListener("change", (ev) => send("lock", { locked: /** @type {HTMLInputElement} */ (ev.target).checked }));
  $("start").addEventListener("click", () => send("start"));
  $("rematch").addEventListener("click", () => send("rematch"));
  $("set-timer").addEventListener("click", () => {
    try {
      send("settings", { turn_timer: timerValue($("timer", HTMLInputElement)) });
    } catch (err) {
      showError(err);
    }
  });

  $("odds-toggle", HTMLInputElement).checked = page.oddsOn;
  $("odds-toggle").addEventListener("change", (ev) => {
    page.oddsOn = /** @type {HTMLInputElement} */ (ev.target).checked;
    savePref("odds", page.oddsOn);
    render();
  });

  $("back-button").addEventListener("click", () => {
    send("back");
    announce(_("Welcome back: it's you playing again."));
  });
  // Any input counts as being back.
  let lastBack = 0;
  for (const type of ["keydown", "pointerdown"]) {
    window.addEventListener(type, () => {
      const { room, seat } = store.state;
      const me = room && seat !== null ? room.seats[seat] : null;
      if (me && me.away && Date.now() - lastBack > 2000 && conn) {
        lastBack = Date.now();
        conn.send("back");
      }
    });
  }

  $("leave-button").addEventListener("click", leave);

  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("chat-input", HTMLInputElement);
    const text = input.value.trim();
    if (!text) return;
    if (send("chat", { text })) input.value = "";
  });
}

let leaveArmed = 0;
function leave() {
  const b = $("leave-button");
  const S = store.state;
  const inGame = S.room.status === "playing" && S.view && familyOf(S).stock(S.view, S.seat) > 0;
  if (inGame && Date.now() - leaveArmed > 5000) {
    leaveArmed = Date.now();
    b.textContent = _("Leave? A computer finishes your game: click again");
    announce(_("Click Leave again to leave: a computer will finish the game for you."));
    setTimeout(() => (b.textContent = _("Leave")), 5000);
    return;
  }
  page.leaving = true;
  const id = send("leave", {});
  if (!id) return;
  setTimeout(() => goLobbyAfterLeave(), 1500);
}

function goLobbyAfterLeave() {
  forgetSeat(store.state.id);
  location.assign("/");
}

/**
 * Send a message; complain when offline. Returns the message id or null.
 * @param {string} type
 * @param {Record<string, unknown>} [data]
 */
function send(type, data = {}) {
  const id = conn && conn.send(type, data);
  if (!id) showError(_("Not connected: wait a moment and try again."));
  return id;
}

/** @param {LegalEntry} move */
function sendMove(move) {
  if (page.pending) return;
  const id = send("action", { action: move.action });
  if (!id) return;
  page.pending = id;
  picker.update(tableState());
}

/**
 * @param {string} kind "remove", "ban" or "host"
 * @param {Seat} seat
 */
function hostAction(kind, seat) {
  /** @type {Record<string, string>} */
  const messages = { remove: "remove_seat", ban: "ban", host: "make_host" };
  if (messages[kind]) send(messages[kind], { seat: seat.seat });
}

// ---------------------------------------------------------------- frames

/** @param {Frame} frame */
function onFrame(frame) {
  const d = frame.data || {};
  const before = store.apply(frame); // the room's state changes here, and only here
  switch (frame.type) {
    case "welcome":
      page.pending = null; // a new connection: a move in flight was either applied or lost
      render();
      break;
    case "snapshot":
      page.pending = null;
      afterFrame(false, null);
      break;
    case "update": {
      for (const ev of d.events || []) onEvent(ev, before.view);
      if (d.reply_to && d.reply_to === page.pending) page.pending = null;
      if ((d.events || []).some((e) => e.kind === EVENT.ACTION || e.kind === EVENT.GAME_STARTED)) page.pending = null;
      if (page.leaving && d.reply_to) goLobbyAfterLeave();
      afterFrame(true, before.view);
      break;
    }
    case "error":
      if (d.reply_to && d.reply_to === page.pending) page.pending = null;
      if (d.code === "removed" && page.leaving) {
        goLobbyAfterLeave();
      } else if (d.code === "removed") {
        forgetSeat(store.state.id);
        showError(_("The host removed you from the room: you are watching."));
      } else {
        showError(d);
      }
      render();
      break;
    default:
      break; // pong
  }
}

/**
 * Announce an update's event (the names of the game's players as they were before it).
 * @param {RoomEvent} ev
 * @param {View | null} before
 */
function onEvent(ev, before) {
  const S = store.state;
  const namesView = { ...S, view: before || S.view };
  switch (ev.kind) {
    case EVENT.CHAT:
      if (ev.seat !== S.seat) announce(_("{name} says: {text}", { name: ev.name, text: unescapeHtml(ev.text) }));
      break;
    case EVENT.ACTION: {
      if (!ev.move) break; // (an event logged before moves were structured: the log has it)
      // "played by the computer" only for a person's seat (away, or left): bots always are
      const person = ((namesView.room && namesView.room.seats[ev.seat]) || {}).kind !== "bot";
      const name = nameOf(namesView, ev.seat);
      const family = familyOf(S);
      const move = family.moveWords(ev.move);
      const mine = family.isBid(ev.move) ? family.bidWords(ev.move) : family.moveWords(ev.move, true);
      if (ev.seat === S.seat) announce(ev.timeout ? _("Time ran out. Your move: {move} (played for you).", { move: mine }) : _("Your move: {move}.", { move: mine }));
      else if (ev.timeout) announce(_("{name} {move} (time ran out: played for them).", { name, move }));
      else if (ev.auto && person) announce(_("{name} {move} (played by the computer).", { name, move }));
      else announce(_("{name} {move}.", { name, move }));
      if (family.isBid(ev.move)) play("bid");
      break;
    }
    case EVENT.GAME_STARTED:
      announce(_("Game {game} starts.", { game: ev.game_no }));
      break;
    case EVENT.GAME_OVER:
      announce(ev.winner === null || ev.winner === undefined ? _("Game over.") : ev.winner === me(namesView) ? _("Game over: you win!") : _("Game over: {name} wins.", { name: nameOf(namesView, ev.winner) }));
      if (ev.winner === me(namesView)) setTimeout(() => play("win"), 1200);
      break;
    case EVENT.SEAT_JOINED:
      announce(_("{name} joins the room.", { name: ev.name }));
      break;
    case EVENT.SEAT_REMOVED:
      announce(_("{name} left the room.", { name: ev.name }));
      break;
    case EVENT.SEAT_LEFT:
      announce(_("{name} left the game: a computer plays for them.", { name: nameOf(namesView, ev.seat) }));
      break;
    case EVENT.HOST_CHANGED:
      announce(ev.seat === S.seat ? _("You are now the host.") : _("{name} is now the host.", { name: seatName(S, ev.seat) }));
      break;
    case "presence":
      if (ev.seat === S.seat && ev.away) announce(_("A computer is playing for you. Press “I'm back” to play again."));
      break;
    case "reveal_ready":
      if (ev.seat !== S.seat) announce(_("{name} is ready for the next round.", { name: seatName(S, ev.seat) }));
      break;
    case "reveal_wait":
      if (ev.seat !== S.seat) announce(_("{name} asked the table to wait.", { name: seatName(S, ev.seat) }));
      break;
    default:
      break;
  }
}

/**
 * After a snapshot or update: reveals, rolls, announcements, then draw.
 * @param {boolean} live
 * @param {View | null} before
 */
function afterFrame(live, before) {
  const S = tableState();
  const v = S.view;
  if (v) {
    const results = v.results || [];
    const rkey = `${v.game_no}/${results.length}`;
    const phase = S.reveal;
    if (live && page.resultKey && rkey !== page.resultKey && results.length > 0 && before && before.game_no === v.game_no && results.length > (before.results || []).length) {
      const i = results.length - 1;
      reveal.start(S, results[i], i, false, phase); // (the result is announced once counted)
    } else if (phase && !reveal.active() && page.resultKey !== rkey && results[phase.round]) {
      reveal.start(S, results[phase.round], phase.round, true, phase); // opened during it
    }
    page.resultKey = rkey;
    reveal.syncPhase(phase);
    const roundKey = `${v.game_no}/${v.round}`;
    if (roundKey !== page.roundKey) {
      const first = page.roundKey === "";
      page.roundKey = roundKey;
      if (!first && S.room.status === "playing") {
        if (reveal.active()) rollPending = true;
        else doRoll();
      }
    }
    const mine = myTurn(S);
    const key = `${v.game_no}/${v.round}/${(v.bids || []).length}/${v.phase}`;
    if (mine && key !== page.turnKey) {
      page.turnKey = key;
      if (v.current_bid && v.bidder === me(S)) announce(_("Your claim stands: pass the cup."));
      else announce(v.current_bid ? _("Your turn. The bid to beat is {bid}.", { bid: familyOf(S).bidWords(v.current_bid_move) }) : _("Your turn: you open the bidding."));
      if (live) play("turn");
      bringMovesIntoView = true;
    }
  }
  maybeSetUpFirstGame();
  render();
  if (bringMovesIntoView && myTurn(store.state)) {
    bringMovesIntoView = false;
    movesIntoView();
  } else {
    scrollBackAfterMove();
  }
}

/** On my turn, scroll the move panel into view when it is below the fold (a short screen). */
let bringMovesIntoView = false;
function movesIntoView() {
  const el = $("moves");
  if (el.hidden) return;
  const box = el.getBoundingClientRect();
  // Down to the last row of controls (the faces to bid), not just the first (Liar!): the
  // counts may take two rows.
  const rows = el.querySelectorAll(".move-buttons, .bid-grid, .face-row");
  const last = rows.length ? rows[rows.length - 1] : el;
  const need = Math.min(box.bottom, last.getBoundingClientRect().bottom + 8);
  if (need > window.innerHeight || box.top < 0) {
    scrolledForMoves = window.scrollY; // scrolled back once the move is made
    el.scrollIntoView({ block: box.height > window.innerHeight ? "start" : "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
  }
}

/** After my move: the page goes back to where it was before it scrolled to the moves (the
 * room's header and the table's top seat in view again). */
/** @type {number | null} */
let scrolledForMoves = null;
function scrollBackAfterMove() {
  if (scrolledForMoves === null || myTurn(store.state)) return;
  if (reveal.active()) {
    scrolledForMoves = null; // my call began a reveal: it brought the table into view itself
    return;
  }
  window.scrollTo({ top: scrolledForMoves, behavior: reducedMotion() ? "auto" : "smooth" });
  scrolledForMoves = null;
}

/**
 * A reveal begins: bring the table into view, the panel whole (its buttons included) and as
 * many of the revealed seats as fit (a phone's table is taller than its screen: then the
 * panel's bottom at the screen's bottom, the seats above it).
 */
function revealIntoView() {
  const felt = document.querySelector(".felt");
  const stage = $("reveal-stage");
  if (!felt || !stage || stage.hidden) return;
  const box = felt.getBoundingClientRect();
  const behavior = reducedMotion() ? "auto" : "smooth";
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  if (box.height <= window.innerHeight) felt.scrollIntoView({ block: "center", behavior });
  else stage.scrollIntoView({ block: "end", behavior });
}

function doRoll() {
  rollPending = false;
  render();
  if (store.state.seat !== null) rollTray($("my-dice"));
  for (const c of document.querySelectorAll("#seats .cup")) {
    c.classList.remove("shake");
    void c.getBoundingClientRect();
    c.classList.add("shake");
  }
  play("roll");
}

/** @param {RevealChange} [info] */
function onRevealChange(info) {
  if (info && info.verdict && reveal.r) announce(describeResult(tableState(), reveal.r.res, reveal.r.index).sentences.join(" "));
  render();
  if (reveal.r && reveal.r.key !== page.revealInView) {
    page.revealInView = reveal.r.key;
    revealIntoView();
  }
  if (info && info.ended && rollPending && store.state.room.status === "playing") doRoll();
}

/** "Play your first game": add two computer players and start, once. */
let setUpSent = false;
function maybeSetUpFirstGame() {
  const S = store.state;
  if (setUpSent || !loadPref(`tutorial:${S.id}`, false)) return;
  if (S.seat === null || !S.welcomed || S.room.status !== "lobby" || S.seat !== hostSeat(S.room)) return;
  if (S.room.seats.length !== 1) return;
  setUpSent = true;
  send("add_bot", { level: "prob" });
  send("add_bot", { level: "prob" });
  send("start");
}

// ---------------------------------------------------------------- rendering

function render() {
  if (!store || !store.state.room || !reveal) return;
  const S = tableState();
  const room = S.room;
  const seated = S.seat !== null;
  const me = seated ? room.seats[S.seat] : null;

  $("room-title").textContent = presetTitle(room.preset);
  const status = room.status === "playing" ? _("Game {game} in progress", { game: room.game_no }) : room.status === "finished" ? _("Game {game} over", { game: room.game_no }) : _("Waiting to start");
  const meta = [
    status,
    room.turn_timer ? _("{secs} s per move", { secs: room.turn_timer }) : _("no time limit"),
    room.private ? _("private room") : null,
    room.spectators ? ngettext("{n} watching", "{n} watching", room.spectators) : null,
    seated ? _("you are {name}", { name: me.name }) : _("you are watching"),
  ].filter(Boolean);
  $("room-meta").textContent = meta.join(" · ");

  // Joining: only for spectators, between games, while seats are free and the room is open.
  const canJoin = !seated && room.status !== "playing" && room.seats.length < 12 && !room.locked;
  $("seat-join").hidden = seated || !S.welcomed; // wait for the welcome: it may seat us
  $("seat-name").hidden = $("seat-join-button").hidden = !canJoin;
  /** @type {HTMLElement} */ (document.querySelector("label[for=seat-name]")).hidden = !canJoin;
  $("watching").textContent = !canJoin
    ? room.locked
      ? _("You are watching: the host has locked this room, so nobody new can take a seat.")
      : room.status === "playing"
        ? _("You are watching. Seats open again when this game ends.")
        : _("You are watching: the room is full.")
    : room.status === "lobby"
      ? _("You are watching. Take a seat to play in this game:")
      : _("You are watching. Take a seat to play in the next game:");
  $("leave-button").hidden = !seated;
  $("away-banner").hidden = !(me && me.away && !me.left);

  // Host controls, between games only.
  const hostNow = S.host && room.status !== "playing";
  $("host-controls").hidden = !hostNow;
  if (hostNow) {
    $("start").hidden = room.status !== "lobby";
    $("rematch").hidden = room.status !== "finished";
    $("start", HTMLButtonElement).disabled = room.seats.length < 2;
    if (document.activeElement !== $("timer")) $("timer", HTMLInputElement).value = String(room.turn_timer ?? "");
    $("lock-room", HTMLInputElement).checked = room.locked === true;
  }

  const shown = shownState(S);
  renderSeats($("seats"), S, { reveal, canManage: hostNow, hostAction });
  renderCentre($("centre"), shown, reveal);
  reveal.renderStage($("reveal-stage"));
  picker.update(S);
  renderTray($("my-area"), $("my-dice"), shown, picker.selection());
  $("odds-area").hidden = !(room.rules && seated && S.view && room.status === "playing" && familyOf(S).hasOdds);
  $("turn").textContent = turnText(S);
  if (reveal.active() || S.reveal) $("game-over").hidden = true; // the ranking comes after the reveal
  else renderGameOver($("game-over"), S, { gameLinks });
  renderRevealText($("reveal"), shown);
  renderLog($("log-body"), shown);
  renderAwaySummary(S);
  tips.render(S);
  renderChat(S);
  renderGames(S);
  tickClock(S, baseTitle());
}

/**
 * What the table shows: during the reveal phase the round that just ended (nothing of the
 * next one: your dice are the ones revealed), and while the reveal counts, no result yet.
 * @param {TableState} S
 * @returns {TableState}
 */
function shownState(S) {
  const v = S.view;
  if (!v) return S;
  let view = v;
  const ph = S.reveal;
  if (ph) {
    const res = (v.results || [])[ph.round];
    const mine0 = me(S);
    const name = mine0 !== null && mine0 !== undefined ? nameOf(S, mine0) : null;
    const mine = res && res.reveal && name !== null ? res.reveal[name] : null;
    view = { ...v, round: ph.round, ...(Array.isArray(mine) ? { my_dice: mine } : {}) };
  }
  if (reveal.hidesResult()) view = { ...view, results: (view.results || []).slice(0, reveal.r.index) };
  return view === v ? S : { ...S, view };
}

/**
 * "While you were away": what the computer played for you (the server's, once).
 * @param {TableState} S
 */
function renderAwaySummary(S) {
  const v = S.view;
  const sum = v && v.away_summary;
  let el = document.getElementById("away-summary");
  const key = sum ? `liarsdice:away:${S.id}:${S.seat}:${sum.seq}` : null;
  let seen = false;
  try {
    seen = Boolean(key) && sessionStorage.getItem(key) === "seen";
  } catch {
    // no storage: shown once per page
  }
  if (!sum || seen) {
    if (el && !el.dataset.key) el.hidden = true;
    return;
  }
  if (!el) {
    el = h("div", { id: "away-summary", class: "away-banner", role: "status" });
    $("away-banner").after(el);
  }
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  try {
    sessionStorage.setItem(key, "seen"); // shown once
  } catch {
    // shown again after a reload
  }
  /** @param {number} n */
  const unit = (n) => (sum.unit === "lives" ? ngettext("{n} life", "{n} lives", n) : ngettext("{n} die", "{n} dice", n));
  const known = typeof sum.from === "number" && typeof sum.to === "number";
  const text = !known
    ? ngettext("While you were away the computer played {n} move for you.", "While you were away the computer played {n} moves for you.", sum.moves)
    : sum.from === sum.to
      ? ngettext("While you were away the computer played {n} move for you; you still have {stock}.", "While you were away the computer played {n} moves for you; you still have {stock}.", sum.moves, { stock: unit(sum.to) })
      : ngettext("While you were away the computer played {n} move for you; you went from {from} to {to}.", "While you were away the computer played {n} moves for you; you went from {from} to {to}.", sum.moves, { from: unit(sum.from), to: unit(sum.to) });
  el.hidden = false;
  el.replaceChildren(
    h("p", { id: "away-summary-text", text }),
    h("button", { type: "button", class: "small", text: _("OK"), onclick: () => (el.hidden = true) }),
  );
  announce(text);
}

/** @param {TableState} S */
function turnText(S) {
  const v = S.view;
  const st = S.room.status;
  if (S.reveal) return "";
  if (st === "lobby") {
    if (S.room.seats.length >= 2) return S.host ? "" : _("Waiting for the host to start.");
    if (S.host) return _("Waiting for players: share the invite link or add a computer player.");
    return S.seat === null ? _("Waiting for players: take a seat to play.") : _("Waiting for more players to join.");
  }
  if (!v || st === "finished" || v.to_move === -4) return "";
  if (v.to_move < 0) return _("Rolling…");
  if (myTurn(S)) return "";
  const pal = familyOf(S).palifico(S, v.game_no, v.round);
  return pal ? _("Waiting for {name}. Palifico round.", { name: nameOf(S, v.to_move) }) : _("Waiting for {name}.", { name: nameOf(S, v.to_move) });
}

/** @param {TableState} S */
function renderChat(S) {
  const list = $("chat-list");
  const items = [...S.chat.values()].sort((a, b) => a.seq - b.seq);
  const sig = JSON.stringify([items.map((e) => e.seq), S.seat]);
  if (changed(list, sig)) {
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    fill(
      list,
      items.length
        ? items.map((e) => h("li", {}, h("span", { class: "seat-name", text: e.name }), ": ", h("span", { text: unescapeHtml(e.text) })))
        : h("li", { class: "hint", text: _("No messages yet.") }),
    );
    if (atBottom) list.scrollTop = list.scrollHeight;
  }
  // Watchers chat too (the server signs their lines "watcher").
  $("chat-input", HTMLInputElement).disabled = $("chat-send", HTMLButtonElement).disabled = false;
  $("chat-input", HTMLInputElement).placeholder = S.seat !== null ? _("Say something") : _("Chat as a watcher");
}

/**
 * @param {number} g the game's number
 * @param {string} f the format
 */
const recordUrl = (g, f) => `/api/rooms/${encodeURIComponent(store.state.id)}/games/${g}/record?format=${f}`;

/** @param {number} g */
function gameLinks(g) {
  const S = store.state;
  if (!(S.room.games || []).includes(g)) return null;
  return h(
    "p",
    { class: "game-links" },
    h("button", { type: "button", class: "small", id: `replay-over-${g}`, onclick: (ev) => openReplay(g, ev.currentTarget) }, _("Watch the replay")),
    " ",
    h("a", { href: analysisHash(g), id: `analysis-over-${g}` }, _("Analyse the game")),
    " · ",
    h("a", { href: recordUrl(g, "json"), download: `liarsdice-${S.id}-game${g}.json` }, _("Download the record")),
  );
}

/** @param {TableState} S */
function renderGames(S) {
  const games = S.room.games || [];
  const list = $("games-list");
  const sig = games.join(",");
  if (!changed(list, sig)) return;
  fill(
    list,
    games.length
      ? games.map((g) =>
          h(
            "li",
            {},
            _("Game {game}: ", { game: g }),
            h("button", { type: "button", class: "link", id: `replay-${g}`, onclick: (ev) => openReplay(g, ev.currentTarget) }, _("Replay")),
            " · ",
            h("a", { href: analysisHash(g), id: `analyse-${g}` }, _("Analyse")),
            " · ",
            h("a", { href: recordUrl(g, "json"), download: `liarsdice-${S.id}-game${g}.json` }, "JSON"),
            " · ",
            h("a", { href: recordUrl(g, "text"), download: `liarsdice-${S.id}-game${g}.txt` }, pgettext("format", "text")),
          ),
        )
      : h("li", { class: "hint", text: _("None yet.") }),
  );
}

/**
 * @param {number} game
 * @param {HTMLElement | null} opener what gets the focus back when the replay closes
 */
async function openReplay(game, opener) {
  replayOpener = opener;
  history.replaceState(null, "", `${location.pathname}#replay-${game}`);
  try {
    await replay.open(store.state.id, game);
    $("replay").scrollIntoView({ block: "start" });
  } catch (err) {
    $("replay").hidden = true;
    showError(_("Couldn't load game {game}. {reason}", { game, reason: errorSentence(err) }));
  }
}

// ---------------------------------------------------------------- start

/** An address the app does not know (the server sent this page with status 404). */
function showNotFound() {
  $("not-found").hidden = false;
  document.title = _("Page not found · Liar's Dice");
}

wireSound();
wireRulesDialog();
showMe();
const path = location.pathname;
let route;
if ((route = /^\/r\/([^/]+)\/?$/.exec(path))) startRoom(decodeURIComponent(route[1]));
else if ((route = /^\/r\/([^/]+)\/replay\/(\d+)\/?$/.exec(path))) startReplayPage($("main"), decodeURIComponent(route[1]), Number(route[2]), { announce, showError });
else if (/^\/leaderboard\/?$/.test(path)) startLeaderboard($("leaderboard"), showError);
else if ((route = /^\/p\/([^/]+)\/?$/.exec(path))) startPlayer($("player"), decodeURIComponent(route[1]), showError);
else if (path === "/") startLobby();
else showNotFound();
