// The leaderboard (/leaderboard) and a player's page (/p/{id}): ratings, games, wins and
// calls, from GET /api/leaderboard and GET /api/players/{id}.

import { ApiError, getJSON, loadPlayer } from "./api.js";
import { fill, h } from "./dom.js";
import { ordinal } from "./words.js";

const playerPath = (id) => `/p/${encodeURIComponent(id)}`;

export async function startLeaderboard(section, showError) {
  section.hidden = false;
  document.title = "Leaderboard · Liar's Dice";
  const body = section.querySelector("#leaderboard-body");
  const more = section.querySelector("#leaderboard-more");
  const me = loadPlayer();
  let page = 1;
  let rank = 0;
  const table = h("table", { class: "board", id: "leaderboard-table" });
  const tbody = h("tbody");
  table.append(
    h("caption", { class: "visually-hidden", text: "Players by rating" }),
    h("thead", {}, h("tr", {}, ["Rank", "Player", "Rating", "Games", "Wins"].map((t) => h("th", { scope: "col", text: t })))),
    tbody,
  );
  const load = async () => {
    more.disabled = true;
    try {
      const data = await getJSON(`/api/leaderboard?page=${page}&per_page=50`);
      if (page === 1) fill(body, data.players.length ? table : h("p", { class: "hint", text: "Nobody is rated yet: play a game to be the first." }));
      for (const p of data.players) {
        rank += 1;
        tbody.append(
          h(
            "tr",
            { "data-player": p.player, class: me && me.player === p.player ? "me" : "" },
            h("td", { text: ordinal(rank) }),
            h("th", { scope: "row" }, h("a", { href: playerPath(p.player), text: p.name })),
            h("td", { text: p.rating ?? "–" }),
            h("td", { text: String(p.games ?? 0) }),
            h("td", { text: String(p.wins ?? 0) }),
          ),
        );
      }
      more.hidden = !data.next_page;
      page = data.next_page || page;
    } catch (err) {
      fill(body, h("p", { text: err instanceof ApiError && err.status === 404 ? "The leaderboard isn't available on this server yet." : "Couldn't load the leaderboard." }));
      showError(err);
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", load);
  await load();
}

export async function startPlayer(section, id, showError) {
  section.hidden = false;
  document.title = "Player · Liar's Dice";
  const body = section.querySelector("#player-body");
  const heading = section.querySelector("#player-h");
  try {
    const p = await getJSON(`/api/players/${encodeURIComponent(id)}`);
    heading.textContent = p.name;
    document.title = `${p.name} · Liar's Dice`;
    const me = loadPlayer();
    const stat = (label, value, id2) => h("div", { class: "stat" }, h("dt", { text: label }), h("dd", { id: id2, text: value === null || value === undefined ? "–" : String(value) }));
    fill(
      body,
      me && me.player === p.player ? h("p", { class: "hint", text: "This is you. Change your name in the lobby." }) : null,
      h(
        "dl",
        { class: "stats" },
        stat("Rating", p.rating, "player-rating"),
        stat("Games", p.games, "player-games"),
        stat("Wins", p.wins, "player-wins"),
        stat("Liar calls made", p.calls_made, "player-calls-made"),
        stat("Calls that were right", p.calls_won, "player-calls-won"),
      ),
      h("h3", { text: "Recent games" }),
      (p.recent || []).length
        ? h(
            "table",
            { class: "board" },
            h("thead", {}, h("tr", {}, ["When", "Room", "Place", "Players"].map((t) => h("th", { scope: "col", text: t })))),
            h(
              "tbody",
              {},
              p.recent.map((g) =>
                h(
                  "tr",
                  {},
                  h("td", { text: when(g.at) }),
                  h("td", {}, h("a", { href: `/r/${encodeURIComponent(g.room)}`, text: `game ${g.game_no}` })),
                  h("td", { text: g.place ? `${ordinal(g.place)} of ${count(g.players)}` : "" }),
                  h("td", { text: Array.isArray(g.players) ? g.players.join(", ") : String(g.players ?? "") }),
                ),
              ),
            ),
          )
        : h("p", { class: "hint", text: "No finished games yet." }),
    );
  } catch (err) {
    heading.textContent = "Player";
    fill(body, h("p", { text: err instanceof ApiError && err.status === 404 ? "There is no such player." : "Couldn't load this player." }), h("p", {}, h("a", { href: "/leaderboard", text: "See the leaderboard" })));
    if (!(err instanceof ApiError && err.status === 404)) showError(err);
  }
}

function when(at) {
  if (at === null || at === undefined) return "";
  const d = typeof at === "number" ? new Date(at * 1000) : new Date(at);
  return Number.isNaN(d.getTime()) ? String(at) : d.toLocaleString();
}

function count(players) {
  return Array.isArray(players) ? players.length : players;
}
