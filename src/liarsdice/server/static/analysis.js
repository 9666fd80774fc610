// The analysis view of a finished game (docs/ANALYSIS.md): every move with the chance that the
// bid faced was true (as the player could know it, and with every die known), the expert
// bot's move, the win chance the move gave away and a mark on mistakes; then each player's
// summary. It opens on the hash #analysis-N (links from the game-over screen, the finished
// games list and the replay viewer), and draws into its own section after the replay's.

import { getJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { presetTitle } from "./rules.js";

const analysisUrl = (room, game) => `/api/rooms/${encodeURIComponent(room)}/games/${game}/analysis`;

/** The hash that opens the analysis of game `game` (for links). */
export const analysisHash = (game) => `#analysis-${game}`;

const pct = (x) => (x === null || x === undefined ? "–" : `${Math.round(100 * x)}%`);
const lossText = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}%`);
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const MARKS = { inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") };
const markText = (mark) => (mark ? `${SIGNS[mark]} ${MARKS[mark] || mark}` : "");

function table(id, caption, heads, rows) {
  return h(
    "div",
    { class: "analysis-scroll", role: "region", "aria-labelledby": `${id}-caption`, tabindex: "0", style: "overflow-x: auto" },
    h(
      "table",
      { class: "board analysis-table", id },
      h("caption", { id: `${id}-caption`, style: "text-align: left; font-weight: 700; padding: 0.3rem 0" }, caption),
      h("thead", {}, h("tr", {}, heads.map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, rows),
    ),
  );
}

function moveRows(analysis) {
  return analysis.moves.map((m, i) =>
    h(
      "tr",
      { class: m.mark ? `mark-${m.mark}` : "", "data-mark": m.mark || null },
      h("th", { scope: "row", text: String(i + 1) }),
      h("td", { text: String(m.round + 1) }),
      h("td", { text: m.player }),
      h("td", { text: m.played }),
      h("td", { text: m.faced || "–" }),
      h("td", { text: pct(m.p_known) }),
      h("td", { text: pct(m.p_actual) }),
      h("td", { text: m.expert === null ? "–" : m.agrees ? _("{move} (same)", { move: m.expert }) : m.expert }),
      h("td", { text: lossText(m.loss) }),
      h("td", { text: markText(m.mark), style: m.mark === "blunder" ? "font-weight: 700" : null }),
    ),
  );
}

function playerRows(analysis) {
  return Object.entries(analysis.players).map(([name, s]) =>
    h(
      "tr",
      {},
      h("th", { scope: "row", text: name }),
      h("td", { text: String(s.decisions) }),
      h("td", { text: String(s.judged) }),
      h("td", { text: String(s.agreed) }),
      h("td", { text: String(s.inaccuracies) }),
      h("td", { text: String(s.mistakes) }),
      h("td", { text: String(s.blunders) }),
      h("td", { text: lossText(s.average_loss) }),
    ),
  );
}

export class AnalysisView {
  /** `announce(text)`: the live region; `onClose()`: called after the view closes. */
  constructor(section, { announce, onClose }) {
    this.section = section;
    this.announce = announce;
    this.onClose = onClose;
  }

  async open(room, game) {
    this.section.hidden = false;
    fill(this.section, h("p", { text: _("Analysing game {game}…", { game }) }));
    const analysis = await getJSON(analysisUrl(room, game));
    const t = analysis.thresholds;
    const heading = h("h2", { id: "analysis-h", tabindex: "-1", text: _("Analysis of game {game}", { game }) });
    const o = { game: presetTitle(analysis.rules), names: analysis.seats.join(", "), name: analysis.winner };
    fill(
      this.section,
      heading,
      h("p", { class: "meta" }, analysis.winner ? _("{game}; players: {names}. {name} won.", o) : _("{game}; players: {names}.", o)),
      h(
        "p",
        { class: "meta", id: "analysis-help" },
        _("For each move: the chance that the bid the player faced was true from what they could see, and with every die known; the expert bot's move from the player's own view; and the loss: {measure}. Marks: ?! inaccuracy from {inaccuracy}, ? mistake from {mistake}, ?? blunder from {blunder}.", { measure: analysis.loss_measure, inaccuracy: pct(t.inaccuracy), mistake: pct(t.mistake), blunder: pct(t.blunder) }),
        " ",
        h("a", { href: analysisUrl(room, game), id: "analysis-json" }, _("The analysis as JSON")),
      ),
      table("analysis-players", _("Players"), [_("Player"), _("Decisions"), _("Judged"), _("As the expert"), _("Inaccuracies"), _("Mistakes"), _("Blunders"), _("Average loss")], playerRows(analysis)),
      table(
        "analysis-moves",
        _("Every move"),
        ["#", _("Round"), _("Player"), _("Move"), _("Bid faced"), _("Chance true (as known)"), _("Chance true (all dice)"), _("Expert's move"), _("Win chance lost"), _("Mark")],
        moveRows(analysis),
      ),
      h("p", {}, h("button", { type: "button", id: "analysis-close", onclick: () => this.close() }, _("Close the analysis"))),
    );
    heading.focus();
    const marks = analysis.moves.filter((m) => m.mark === "mistake" || m.mark === "blunder").length;
    this.announce(ngettext("Analysis of game {game}: {n} move, {marks} mistakes or blunders.", "Analysis of game {game}: {n} moves, {marks} mistakes or blunders.", analysis.moves.length, { game, marks }));
  }

  close() {
    this.section.hidden = true;
    fill(this.section);
    this.onClose();
  }
}

/**
 * Wire the analysis view into a room's page: a section after the replay viewer, opened
 * whenever the hash is #analysis-N (now or later). `showError(text)` reports a failure.
 */
export function wireAnalysis(room, { announce, showError }) {
  let section = document.getElementById("analysis");
  if (!section) {
    section = h("section", { id: "analysis", class: "card replay", hidden: true, "aria-labelledby": "analysis-h" });
    const replay = document.getElementById("replay");
    if (replay) replay.after(section);
    else document.body.append(section);
  }
  let opener = null;
  const view = new AnalysisView(section, {
    announce,
    onClose: () => {
      history.replaceState(null, "", location.pathname);
      if (opener && document.contains(opener)) opener.focus();
    },
  });
  const check = async () => {
    const m = /^#analysis-(\d+)$/.exec(location.hash);
    if (!m) return;
    opener = document.activeElement;
    try {
      await view.open(room, Number(m[1]));
      section.scrollIntoView({ block: "start" });
    } catch (err) {
      section.hidden = true;
      showError(_("Couldn't analyse game {game}. {reason}", { game: m[1], reason: err && err.message ? err.message : "" }));
    }
  };
  window.addEventListener("hashchange", check);
  check();
  return view;
}
