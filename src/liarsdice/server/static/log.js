// The game log: every bid and call, round by round, with each round's result and palifico
// rounds marked. The server sends the current game's public moves with every snapshot
// (`history`: on joining, reloading or resyncing from far back), so a page opened late shows
// the whole game; the `action` events of later updates are added to it (placed in rounds by
// the `fair_round` events that open them): the room's state keeps it (store.js, `log`).

import { changed, fill, h } from "./dom.js";
import { _ } from "./i18n.js";
import { familyOf } from "./family.js";
import { me, nameOf } from "./facts.js";
import { describeResult } from "./table.js";

/** @typedef {import("./types.js").TableState} TableState */

/**
 * The moves of round `r` of game `game` (the room's log: `S.log`), and its result.
 * @param {TableState} S
 * @param {number} game
 * @param {number} r
 */
function roundOf(S, game, r) {
  const v = S.view;
  const res = v && v.game_no === game ? (v.results || [])[r] : null;
  const logged = S.log.game === game ? S.log.rounds[r] || [] : [];
  return { entries: logged, res };
}

/**
 * Draw the game's log into `el` (redrawn only when something in it changed).
 * @param {HTMLElement} el
 * @param {TableState} S
 */
export function renderLog(el, S) {
  const v = S.view;
  if (!v) {
    fill(el, h("p", { class: "hint", text: _("The log fills in once the game starts.") }));
    return;
  }
  const game = v.game_no;
  const last = Math.max(v.round, (v.results || []).length - 1);
  const sig = JSON.stringify([game, last, S.log, (v.results || []).length, me(S), v.palifico]);
  if (!changed(el, sig)) return;
  const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
  const family = familyOf(S);
  const rounds = [];
  for (let r = 0; r <= last; r++) {
    const { entries, res } = roundOf(S, game, r);
    const pal = family.palifico(S, game, r, res);
    const items = entries.map((e) =>
      h(
        "li",
        { class: `entry${e.move.kind === "call" ? " call" : ""}`, "data-text": e.text, "data-seq": e.seq },
        h("span", { class: "seat-name", text: e.seat === me(S) ? _("You") : nameOf(S, e.seat) }),
        ` ${family.moveWords(e.move, e.seat === me(S))}`,
        e.timeout ? h("span", { class: "note", text: ` ${_("(time ran out: played for them)")}` }) : e.auto && (S.room.seats[e.seat] || {}).kind !== "bot" ? h("span", { class: "note", text: ` ${_("(played by the computer)")}` }) : null,
      ),
    );
    if (res) items.push(h("li", { class: "result" }, ((d) => d.sentences.filter((x) => x !== d.note).join(" "))(describeResult(S, res, r, game))));
    if (!items.length) items.push(h("li", { class: "hint", text: _("No bids yet.") }));
    rounds.push(
      h(
        "li",
        { class: `log-round${pal ? " palifico-round" : ""}`, "data-round": r, "data-palifico": pal ? "true" : "false" },
        h("h4", {}, _("Round {round}", { round: r + 1 }), pal ? h("span", { class: "palifico", text: _("Palifico") }) : null),
        h("ol", { class: "log-entries" }, items),
      ),
    );
  }
  fill(el, h("p", { class: "log-game", text: _("Game {game}", { game }) }), h("ol", { class: "log-rounds" }, rounds));
  if (atBottom) el.scrollTop = el.scrollHeight;
}
