// The leaderboard (/leaderboard?family=poker) and a player's page (/p/{id}): ratings, games,
// wins and calls per rule family (the bidding games and poker dice are rated apart), from
// GET /api/leaderboard and GET /api/players/{id}. People are ranked among themselves; the
// computer players (one per bot level, named as the lobby names it) have a table of their
// own below. People are told apart by a short tag from their id ("ann #3f2a"): two players
// may share a name.

import { ApiError, getJSON, loadPlayer } from "./api.js";
import { fill, h } from "./dom.js";
import { _, currentLanguage } from "./i18n.js";
import { ordinal } from "./words.js";
import { FAMILIES, familyNamed } from "./family.js";
import { presetTitle } from "./rules.js";
import { loadStyles, replayPath } from "./replay.js";
import { botLevelName } from "./names.js";

/** @typedef {import("./types.js").FamilyStats} FamilyStats */
/** @typedef {import("./types.js").Identity} Identity */
/** @typedef {import("./types.js").PlayerInfo} PlayerInfo */
/** @typedef {import("./types.js").RecentGame} RecentGame */

/** @param {string} id */
const playerPath = (id) => `/p/${encodeURIComponent(id)}`;

/**
 * A family's name for people ("Bidding games"), by its name.
 * @param {string} f
 */
const familyWords = (f) => (familyNamed(f) || { title: String(f) }).title;

/** The family named in the address (`?family=poker`), else `fallback` (the first family's). */
function familyFromUrl(fallback = FAMILIES[0].name) {
  const f = new URLSearchParams(location.search).get("family");
  return familyNamed(f) ? f : fallback;
}

/** @param {string} family */
function setFamilyInUrl(family) {
  const url = new URL(location.href);
  url.searchParams.set("family", family);
  history.replaceState(null, "", `${url.pathname}${url.search}`);
}

/** @param {PlayerInfo} p */
const isBot = (p) => p.kind === "bot";

/**
 * A player's display name: a bot level's one name (names.js), else the person's own.
 * @param {PlayerInfo} p
 */
const displayName = (p) => (isBot(p) && p.level ? botLevelName(p.level) : p.name);

/**
 * A player's name and tag: "ann" and a muted "#3f2a" (computer players need none).
 * @param {PlayerInfo} p
 */
function nameWithTag(p) {
  if (isBot(p)) return h("span", { class: "bot-level", text: displayName(p) });
  return [p.name, p.tag ? h("span", { class: "player-tag", text: ` #${p.tag}` }) : null];
}

/**
 * The family switch: a radio group (arrow keys move between the families).
 * @param {string} id
 * @param {string} current the family shown
 * @param {(family: string) => void} onChange
 */
function familySwitch(id, current, onChange) {
  const box = h("fieldset", { class: "family-switch", id }, h("legend", { text: _("Rated separately:") }));
  for (const { name: f } of FAMILIES) {
    box.append(
      h(
        "label",
        {},
        h("input", { type: "radio", name: `${id}-family`, value: f, checked: f === current, onchange: () => onChange(f) }),
        ` ${familyWords(f)}`,
      ),
    );
  }
  return box;
}

/** A leaderboard line: the rank (people only), the name linked to the player's page, the
 * rating, games and wins.
 * @param {PlayerInfo} p
 * @param {string} family
 * @param {Identity | null} me
 * @param {number | null} rank (null: a computer player, not ranked)
 */
function boardRow(p, family, me, rank) {
  return h(
    "tr",
    { "data-player": p.player, class: me && me.player === p.player ? "me" : "" },
    rank === null ? null : h("td", { text: ordinal(rank) }),
    h("th", { scope: "row" }, h("a", { href: `${playerPath(p.player)}?family=${family}` }, nameWithTag(p))),
    h("td", { text: p.rating ?? "–" }),
    h("td", { text: String(p.games ?? 0) }),
    h("td", { text: String(p.wins ?? 0) }),
  );
}

/**
 * @param {string} id
 * @param {HTMLElement} caption
 * @param {string[]} heads
 * @param {HTMLElement} tbody
 */
function boardTable(id, caption, heads, tbody) {
  return h("table", { class: "board", id }, caption, h("thead", {}, h("tr", {}, heads.map((t) => h("th", { scope: "col", text: t })))), tbody);
}

/**
 * The leaderboard page.
 * @param {HTMLElement} section
 * @param {(err: unknown) => void} showError
 */
export async function startLeaderboard(section, showError) {
  section.hidden = false;
  loadStyles();
  document.title = _("Leaderboard · Liar's Dice");
  const body = section.querySelector("#leaderboard-body");
  const more = /** @type {HTMLButtonElement} */ (section.querySelector("#leaderboard-more"));
  const me = loadPlayer();
  let family = familyFromUrl();
  let page = 1;
  let rank = 0;
  const tbody = h("tbody");
  const caption = h("caption", { class: "visually-hidden" });
  const table = boardTable("leaderboard-table", caption, [_("Rank"), _("Player"), _("Rating"), _("Games"), _("Wins")], tbody);
  // The computer players: a table of their own, never ranked among people.
  const botBody = h("tbody");
  const botCaption = h("caption", { class: "visually-hidden" });
  const botHeading = h("h3", { class: "leaderboard-bots-h", id: "leaderboard-bots-h", text: _("Computer players") });
  const botNote = h("p", { class: "hint", text: _("Computer players are rated too, to measure people against; they are not ranked among people.") });
  const bots = h("section", { id: "leaderboard-bots", "aria-labelledby": "leaderboard-bots-h" }, botHeading, botNote, boardTable("leaderboard-bots-table", botCaption, [_("Computer player"), _("Rating"), _("Games"), _("Wins")], botBody));
  const content = h("div", { id: "leaderboard-content" });
  const switcher = familySwitch("leaderboard-family", family, (f) => {
    family = f;
    setFamilyInUrl(f);
    page = 1;
    rank = 0;
    load();
  });
  fill(body, switcher, content);
  let loading = 0;
  const load = async () => {
    const mine = ++loading;
    more.disabled = true;
    try {
      const data = /** @type {{players: PlayerInfo[], bots?: PlayerInfo[], next_page?: number}} */ (await getJSON(`/api/leaderboard?family=${family}&page=${page}&per_page=50`));
      if (mine !== loading) return; // the family changed meanwhile
      if (page === 1) {
        const words = familyWords(family).toLowerCase();
        tbody.replaceChildren();
        caption.textContent = _("Players by rating: {family}", { family: words });
        botCaption.textContent = _("Computer players by rating: {family}", { family: words });
        fill(botBody, (data.bots || []).map((p) => boardRow(p, family, null, null)));
        bots.hidden = !(data.bots || []).length;
        fill(content, data.players.length ? table : h("p", { class: "hint", text: _("Nobody is rated in {family} yet: play a game to be the first.", { family: words }) }), bots);
      }
      for (const p of data.players) {
        rank += 1;
        tbody.append(boardRow(p, family, me, rank));
      }
      more.hidden = !data.next_page;
      page = data.next_page || page;
    } catch (err) {
      fill(content, h("p", { text: err instanceof ApiError && err.status === 404 ? _("The leaderboard isn't available on this server yet.") : _("Couldn't load the leaderboard.") }));
      showError(err);
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", load);
  await load();
}

/**
 * A player's page.
 * @param {HTMLElement} section
 * @param {string} id the player's
 * @param {(err: unknown) => void} showError
 */
export async function startPlayer(section, id, showError) {
  section.hidden = false;
  loadStyles();
  document.title = _("Player · Liar's Dice");
  const body = section.querySelector("#player-body");
  const heading = section.querySelector("#player-h");
  try {
    const p = /** @type {PlayerInfo} */ (await getJSON(`/api/players/${encodeURIComponent(id)}`));
    heading.textContent = displayName(p);
    document.title = _("{name} · Liar's Dice", { name: displayName(p) });
    const me = loadPlayer();
    const first = FAMILIES[0].name;
    /** @type {Record<string, FamilyStats>} */
    const fams = p.families || { [p.family || first]: p };
    // The family shown first: the link's, else the one this player played most.
    const most = FAMILIES.map((f) => f.name).reduce((a, b) => ((fams[b] && fams[b].games) > ((fams[a] && fams[a].games) || 0) ? b : a), first);
    let family = familyFromUrl(most);
    /**
     * @param {string} label
     * @param {unknown} value
     * @param {string} id2 the value's id
     */
    const stat = (label, value, id2) => h("div", { class: "stat" }, h("dt", { text: label }), h("dd", { id: id2, text: value === null || value === undefined ? "–" : String(value) }));
    const stats = h("dl", { class: "stats", id: "player-stats" });
    const showStats = () => {
      /** @type {FamilyStats} */
      const f = fams[family] || {};
      fill(
        stats,
        stat(_("Rating"), f.rating, "player-rating"),
        stat(_("Games"), f.games, "player-games"),
        stat(_("Wins"), f.wins, "player-wins"),
        stat(_("Liar calls made"), f.calls_made, "player-calls-made"),
        stat(_("Calls that were right"), f.calls_won, "player-calls-won"),
      );
      stats.setAttribute("aria-label", _("{family}: rating and games", { family: familyWords(family) }));
    };
    // Each family's recent games: only that family's (the switch redraws them).
    const games = h("div", { id: "player-recent" });
    const showGames = () => {
      const recent = (fams[family] && fams[family].recent) || [];
      fill(
        games,
        recent.length
          ? h(
              "table",
              { class: "board", id: "player-games-table" },
              h("caption", { class: "visually-hidden", text: _("Recent games: {family}", { family: familyWords(family).toLowerCase() }) }),
              h("thead", {}, h("tr", {}, [_("When"), _("Game"), _("Room"), _("Place"), _("Rating after")].map((t) => h("th", { scope: "col", text: t })))),
              h("tbody", {}, recent.map((g) => gameRow(g))),
            )
          : h("p", { class: "hint", text: _("No finished games of {family} yet.", { family: familyWords(family).toLowerCase() }) }),
      );
    };
    showStats();
    showGames();
    fill(
      body,
      h("p", { class: "meta", id: "player-tag" }, isBot(p) ? _("A computer player") : p.tag ? _("Player #{tag}", { tag: p.tag }) : ""),
      me && me.player === p.player ? h("p", { class: "hint", text: _("This is you. Change your name in the lobby.") }) : null,
      familySwitch("player-family", family, (f) => {
        family = f;
        setFamilyInUrl(f);
        showStats();
        showGames();
      }),
      stats,
      h("h3", { text: _("Recent games") }),
      games,
    );
  } catch (err) {
    heading.textContent = _("Player");
    fill(body, h("p", { text: err instanceof ApiError && err.status === 404 ? _("There is no such player.") : _("Couldn't load this player.") }), h("p", {}, h("a", { href: "/leaderboard", text: _("See the leaderboard") })));
    if (!(err instanceof ApiError && err.status === 404)) showError(err);
  }
}

/** One row of a player's recent games: when, the game (its preset, a link to its replay),
 * the room, the place, and the player's rating in that game's family after it.
 * @param {RecentGame} g
 */
function gameRow(g) {
  const preset = g.preset ? presetTitle(g.preset) : familyWords(g.family);
  return h(
    "tr",
    { "data-room": g.room, "data-game": String(g.game_no) },
    h("td", {}, h("time", { datetime: g.at || "", text: when(g.at) })),
    h("td", {}, h("a", { href: replayPath(g.room, g.game_no), class: "game-link", text: _("{game}, game {n}", { game: preset, n: g.game_no }) })),
    h("td", {}, h("a", { href: `/r/${encodeURIComponent(g.room)}`, text: _("room {room}", { room: String(g.room).slice(0, 6) }) })),
    h("td", { text: g.place ? _("{place} of {players}", { place: ordinal(g.place), players: count(g.players) }) : "" }),
    h("td", { text: g.rating === null || g.rating === undefined ? "–" : _("{rating} ({family})", { rating: g.rating, family: familyWords(g.family).toLowerCase() }) }),
  );
}

/** @param {string | number | null | undefined} at */
function when(at) {
  if (at === null || at === undefined) return "";
  const d = typeof at === "number" ? new Date(at * 1000) : new Date(at);
  return Number.isNaN(d.getTime()) ? String(at) : d.toLocaleString(currentLanguage());
}

/** @param {number | string[]} players */
function count(players) {
  return Array.isArray(players) ? players.length : players;
}
