// The replay viewer for finished games: it downloads the game's JSON record (every die is in
// it: the game is over) and the server's replay summary (each round's count and losses), and
// steps through the moves with Prev / Next (or the arrow keys, Home and End).

import { getJSON } from "./api.js";
import { fill, h, plural } from "./dom.js";
import { diceRow } from "./dice.js";
import { bidLabel } from "./words.js";
import { presetTitle } from "./rules.js";

const recordUrl = (room, game, format) =>
  `/api/rooms/${encodeURIComponent(room)}/games/${game}/record?format=${format}`;

/** One move of a record in words (bidding or poker family), in the record's own key order. */
export function describeRecordMove(move) {
  const parts = [];
  for (const [key, value] of Object.entries(move)) {
    switch (key) {
      case "bid":
        parts.push(`bids ${bidLabel(value)}`);
        break;
      case "call":
        parts.push(`calls ${value}`);
        break;
      case "show":
        parts.push(value.length ? `shows ${value.join(" ")}` : "shows nothing");
        break;
      case "reroll":
        if (value.length) parts.push(`re-rolls ${value.join(" ")}`);
        break;
      case "buy":
        parts.push(`buys a die: ${value.join(" ")}`);
        break;
      case "ask":
        parts.push(`asks "${value}"`);
        break;
      case "pass":
        parts.push(`passes the cup ${value}`);
        break;
      case "accept":
        parts.push("accepts");
        break;
      case "out":
        parts.push(value.length ? `leaves ${value.join(" ")} outside` : "puts every die under the cup");
        break;
      case "shake":
        parts.push(value ? "shakes the cup" : "doesn't shake");
        break;
      case "rolled":
        parts.push(`rolled ${value.join(" ") || "nothing"}`);
        break;
      case "attempts":
        value.forEach((a, i) => parts.push(`roll ${i + 1}: keeps ${a.keep.join(" ") || "nothing"}, rolls ${(a.rolled || []).join(" ")}`));
        break;
      default:
        break; // "player", and anything a later record version adds
    }
  }
  return parts.join(", ");
}

/** A round's result from the replay summary, in words. */
function describeSummary(round, poker) {
  const losses = Object.entries(round.losses || {});
  const lost = losses.length
    ? losses.map(([n, k]) => `${n} loses ${poker ? plural(k, "life", "lives") : plural(k, "die", "dice")}`).join("; ")
    : poker ? "nobody loses a life" : "nobody loses a die";
  if (poker) {
    if (round.call === "accept") {
      return `${round.accepter} accepted ${round.bid}: ${round.success ? "five of a kind made" : "no five of a kind"}; ${lost}.`;
    }
    return `${round.caller} called liar on ${round.bidder}'s ${round.bid}: the hand ${round.hand.join(" ")} ${round.stood ? "stands" : "was a lie"}; ${lost}.`;
  }
  return `${round.caller} called ${round.call} on ${round.bidder}'s ${bidLabel(round.bid)}: there were ${round.count}; ${lost}.`;
}

export class ReplayViewer {
  /**
   * `section`: the (hidden) element to draw into; `announce(text)`: the live region;
   * `onClose()`: called after the viewer closes (the app puts the focus back).
   */
  constructor(section, { announce, onClose }) {
    this.section = section;
    this.announce = announce;
    this.onClose = onClose;
    this.onKey = (ev) => this.key(ev);
    this.steps = [];
    this.index = 0;
  }

  async open(room, game) {
    this.room = room;
    this.game = game;
    this.section.hidden = false;
    fill(this.section, h("p", { text: `Loading game ${game}…` }));
    const [record, summary] = await Promise.all([
      getJSON(recordUrl(room, game, "json")),
      getJSON(recordUrl(room, game, "summary")),
    ]);
    this.record = record;
    this.summary = summary;
    this.poker = record.rules === "poker-dice";
    // A step is (round, move): move -1 is the roll at the start of the round.
    this.steps = [];
    record.rounds.forEach((rd, r) => {
      this.steps.push({ r, m: -1 });
      rd.moves.forEach((_, m) => this.steps.push({ r, m }));
    });
    this.index = 0;
    this.build();
    document.addEventListener("keydown", this.onKey);
    this.go(0);
    this.heading.focus();
  }

  close() {
    document.removeEventListener("keydown", this.onKey);
    this.section.hidden = true;
    fill(this.section);
    this.onClose();
  }

  build() {
    const { room, game } = this;
    this.heading = h("h2", { id: "replay-h", tabindex: "-1", text: `Replay of game ${game}` });
    this.prev = h("button", { type: "button", id: "replay-prev", onclick: () => this.go(this.index - 1) }, "◀ Prev");
    this.next = h("button", { type: "button", id: "replay-next", onclick: () => this.go(this.index + 1) }, "Next ▶");
    this.pos = h("span", { id: "replay-pos", class: "meta" });
    this.body = h("div", { id: "replay-step" });
    const safe = room.replace(/[^A-Za-z0-9_-]/g, "");
    fill(
      this.section,
      this.heading,
      h(
        "p",
        { class: "meta" },
        `${presetTitle(this.record.rules)}; players: ${this.record.players.join(", ")}. `,
        "Keys: ← and → step, Home and End jump. ",
        h("a", { href: recordUrl(room, game, "json"), download: `liarsdice-${safe}-game${game}.json`, id: "replay-json" }, "Download JSON record"),
        " · ",
        h("a", { href: recordUrl(room, game, "text"), download: `liarsdice-${safe}-game${game}.txt`, id: "replay-text" }, "Download text record"),
        " · ",
        h("a", { href: `#analysis-${game}`, id: "replay-analysis" }, "Analyse this game"),
      ),
      h(
        "div",
        { class: "replay-controls" },
        this.prev,
        this.next,
        this.pos,
        h("button", { type: "button", id: "replay-close", onclick: () => this.close() }, "Close replay"),
      ),
      this.body,
    );
  }

  key(ev) {
    if (this.section.hidden || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return; // the arrows belong to the control
    const to = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: this.steps.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.go(to);
  }

  go(i) {
    if (!this.steps.length) {
      fill(this.body, h("p", { text: "This game has no rounds." }));
      return;
    }
    this.index = Math.max(0, Math.min(this.steps.length - 1, i));
    const { r, m } = this.steps[this.index];
    const rd = this.record.rounds[r];
    this.prev.disabled = this.index === 0;
    this.next.disabled = this.index === this.steps.length - 1;
    this.pos.textContent = `Step ${this.index + 1} of ${this.steps.length}`;
    this.section.dataset.step = String(this.index);

    const dice = this.poker
      ? [h("li", {}, "The opening roll: ", diceRow(rd.roll, { label: "Roll", small: true, src: "replay" }))]
      : Object.entries(rd.dice).map(([name, faces]) =>
          h("li", {}, h("span", { class: "seat-name", text: name }), " ", diceRow(faces, { label: name, small: true, src: "replay" })),
        );
    if (rd.stash) dice.push(h("li", {}, "Stash ", diceRow(rd.stash, { label: "Stash", small: true, src: "replay" })));
    const moves = rd.moves.slice(0, m + 1).map((mv, k) =>
      h("li", { "aria-current": k === m ? "step" : null, class: k === m ? "current" : "" }, h("span", { class: "seat-name", text: mv.player }), ` ${describeRecordMove(mv)}`),
    );
    const result = m === rd.moves.length - 1 && this.summary.ok ? this.summary.rounds[r] : null;
    const last = this.index === this.steps.length - 1;
    const line =
      m < 0 ? `Round ${r + 1}: ${rd.opener || this.record.players[0]} opens; the dice are rolled.` : `${rd.moves[m].player} ${describeRecordMove(rd.moves[m])}.`;
    fill(
      this.body,
      h("h3", { text: `Round ${r + 1} of ${this.record.rounds.length}${rd.opener ? `: ${rd.opener} opens` : ""}` }),
      h("ul", { class: "hands" }, dice),
      moves.length ? h("ol", { class: "replay-moves" }, moves) : h("p", { class: "meta", text: "No moves yet." }),
      result ? h("p", { class: "result", id: "replay-result", text: describeSummary(result, this.poker) }) : null,
      last && this.summary.winner ? h("p", { class: "banner", text: `${this.summary.winner} wins the game.` }) : null,
    );
    this.announce(result ? `${line} ${describeSummary(result, this.poker)}` : line);
  }
}
