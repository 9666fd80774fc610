// The game log: every bid and call, round by round, with each round's result and palifico
// rounds marked. It is built from the `action` events this page received (placed in rounds
// by the `fair_round` events that open them) and kept in sessionStorage, so a reload keeps
// it; rounds this page never saw are filled in from the view (the current round's bids) and
// the results (the last bid and the call).

import { fill, h } from "./dom.js";
import { describeMove } from "./words.js";
import { describeResult, isPalifico, isPoker, nameOf, seatOfName } from "./table.js";

export class GameLog {
  constructor(room) {
    this.key = `liarsdice:log:${room}`;
    this.games = {};
    try {
      this.games = JSON.parse(sessionStorage.getItem(this.key) || "{}") || {};
    } catch {
      this.games = {};
    }
  }

  save() {
    try {
      sessionStorage.setItem(this.key, JSON.stringify(this.games));
    } catch {
      // not kept across reloads
    }
  }

  /** Place an update's events in their rounds; `before` is the view before the update. */
  addEvents(events, before) {
    let game = before ? before.game_no : null;
    let round = before ? before.round : null;
    let changed = false;
    for (const ev of events) {
      if (ev.kind === "fair_round" || ev.kind === "game_started") {
        game = ev.game_no;
        round = ev.kind === "fair_round" ? ev.round : 0;
      } else if (ev.kind === "action" && game !== null && round !== null) {
        const g = (this.games[game] ??= {});
        const list = (g[round] ??= []);
        if (!list.some((e) => e.seq === ev.seq)) {
          list.push({ seq: ev.seq, seat: ev.seat, text: ev.text, auto: Boolean(ev.auto), timeout: Boolean(ev.timeout) });
          changed = true;
        }
      }
    }
    if (changed) {
      // Keep the last few games only.
      const keys = Object.keys(this.games).map(Number).sort((a, b) => a - b);
      while (keys.length > 5) delete this.games[keys.shift()];
      this.save();
    }
  }

  /** The entries of one round: logged moves, or what the view and results still tell. */
  entries(S, game, r) {
    const v = S.view;
    const logged = (this.games[game] && this.games[game][r]) || [];
    const res = v && v.game_no === game ? (v.results || [])[r] : null;
    const out = logged.map((e) => ({ seat: e.seat, text: e.text, auto: e.auto, timeout: e.timeout }));
    if (!out.length && v && v.game_no === game) {
      if (r === v.round && !res) {
        for (const [seat, text] of v.bids || []) out.push({ seat, text });
      } else if (res) {
        const bidder = isPoker(S) ? res.bidder : seatOfName(S, res.bidder);
        const caller = isPoker(S) ? res.caller : seatOfName(S, res.caller);
        out.push({ seat: null, text: "…", gap: true });
        out.push({ seat: bidder, text: res.bid });
        out.push({ seat: caller, text: res.call === "five" ? "accept" : res.call });
      }
    }
    return { entries: out, res };
  }

  render(el, S) {
    const v = S.view;
    if (!v) {
      fill(el, h("p", { class: "hint", text: "The log fills in once the game starts." }));
      return;
    }
    const game = v.game_no;
    const last = Math.max(v.round, (v.results || []).length - 1);
    const sig = JSON.stringify([game, last, this.games[game], v.bids, (v.results || []).length, S.seat, v.palifico]);
    if (el.__sig === sig) return;
    el.__sig = sig;
    const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
    const rounds = [];
    for (let r = 0; r <= last; r++) {
      const { entries, res } = this.entries(S, game, r);
      const pal = !isPoker(S) && isPalifico(S, game, r, res);
      const items = entries.map((e) =>
        e.gap
          ? h("li", { class: "gap", text: "(earlier bids not seen by this page)" })
          : h(
              "li",
              { class: `entry${/^(liar|exact)$/.test(e.text) ? " call" : ""}`, "data-text": e.text },
              h("span", { class: "seat-name", text: e.seat === S.seat ? "You" : nameOf(S, e.seat) }),
              ` ${e.seat === S.seat ? youVerb(describeMove(e.text)) : describeMove(e.text)}`,
              e.timeout ? h("span", { class: "note", text: " (time ran out: played for them)" }) : e.auto && (S.room.seats[e.seat] || {}).kind !== "bot" ? h("span", { class: "note", text: " (played by the computer)" }) : null,
            ),
      );
      if (res) items.push(h("li", { class: "result" }, describeResult(S, res, r, game).sentences.filter((s) => !s.startsWith("Palifico")).join(" ")));
      if (!items.length) items.push(h("li", { class: "hint", text: "No bids yet." }));
      rounds.push(
        h(
          "li",
          { class: `log-round${pal ? " palifico-round" : ""}`, "data-round": r, "data-palifico": pal ? "true" : "false" },
          h("h4", {}, `Round ${r + 1}`, pal ? h("span", { class: "palifico", text: "Palifico" }) : null),
          h("ol", { class: "log-entries" }, items),
        ),
      );
    }
    fill(el, h("p", { class: "log-game", text: `Game ${game}` }), h("ol", { class: "log-rounds" }, rounds));
    if (atBottom) el.scrollTop = el.scrollHeight;
  }
}

/** "bids 3 × fives" -> "bid 3 × fives" (after "You"). */
function youVerb(text) {
  return text
    .replace(/^bids /, "bid ")
    .replace(/^calls /, "call ")
    .replace(/^accepts /, "accept ")
    .replace(/^passes /, "pass ")
    .replace(/^buys /, "buy ")
    .replace(/^shows /, "show ")
    .replace(/ re-rolls /, " re-roll ")
    .replace(/^leaves /, "leave ")
    .replace(/^puts /, "put ")
    .replace(/^rolls /, "roll ")
    .replace(/^shakes /, "shake ")
    .replace(/^keeps /, "keep ")
    .replace(/ rolls the rest/, " roll the rest")
    .replace(/^asks /, "ask ");
}

