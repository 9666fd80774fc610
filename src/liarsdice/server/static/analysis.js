// The analysis view of a finished game (docs/ANALYSIS.md): every move with the chance that the
// bid faced was true (as the player could know it, and with every die known), the expert
// bot's move, the win chance the move gave away and a mark on mistakes; then each player's
// summary. It opens on the hash #analysis-N (links from the game-over screen, the finished
// games list and the replay viewer), and draws into its own section after the replay's.

import { getJSON } from "./api.js";
import { fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { presetTitle } from "./rules.js";
import { familyOf } from "./family.js";

/** @typedef {import("./types.js").AnalysedMove} AnalysedMove */
/** @typedef {import("./types.js").Analysis} Analysis */
/** @typedef {import("./types.js").Family} Family */

/**
 * @param {string} room
 * @param {number} game
 */
const analysisUrl = (room, game) => `/api/rooms/${encodeURIComponent(room)}/games/${game}/analysis`;

/**
 * The hash that opens the analysis of game `game` (for links).
 * @param {number} game
 */
export const analysisHash = (game) => `#analysis-${game}`;

/** @param {unknown} x */
const known = (x) => x !== null && x !== undefined;
/** @param {number | null} x */
const pct = (x) => (known(x) ? `${Math.round(100 * x)}%` : "–");
/**
 * @param {number | null} x
 * @param {string} values the analysis' `values`
 */
const lossText = (x, values) => (!known(x) ? "–" : values === "points" ? points(x) : `${(100 * x).toFixed(1)}%`);
/** @param {number} x */
const points = (x) => (Math.round(10 * x) / 10).toLocaleString(document.documentElement.lang || undefined);
/** @param {string} s */
const capital = (s) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/** One part of a move as the analysis writes it (the record's "5x6, show 6 6", "accept, three
 * K", "pair K, pass left"; the expert's "5x6, show 6,6") in the page's words: read by the
 * family's reader of its notation (the analysis is a text format), said as the log says it.
 * @param {string} part
 * @param {Family} f
 */
function partWords(part, f) {
  if (part === "accept (five of a kind)") return _("accepts the cup and tries for five of a kind");
  const move = f.readMove(part);
  return move ? f.moveWords(move) : part;
}

/** A move of the analysis in the page's words, as the table's log says it: "bids 5 × sixes,
 * shows a six and a six and re-rolls the rest", "accepts the cup, bids three kings"
 * (`family`: the analysis' family, or its name).
 * @param {string} text
 * @param {Family | string} family
 */
export function moveWords(text, family) {
  const f = familyOf(family);
  return String(text)
    .split(", ")
    .map((part) => partWords(part, f))
    .join(", ");
}

/**
 * A bid of the analysis (its notation) in the page's words: "2 × threes", "a pair of kings".
 * @param {string} text
 * @param {Family} f
 */
function bidWords(text, f) {
  const move = f.readMove(text);
  return move ? f.bidWords(move) : String(text);
}

/**
 * A move as a choice, for the sentence that says why: "raising to 2 × sixes", "calling liar".
 * @param {string} text
 * @param {string | null} faced the bid faced
 * @param {Family | string} family
 */
export function choiceWords(text, faced, family) {
  const first = String(text).split(", ")[0]; // the raise, without the dice shown with it
  if (first === "liar") return _("calling liar");
  if (first === "exact") return _("calling exact");
  if (first.startsWith("accept")) return _("accepting the cup");
  if (first === "buy") return _("buying a die");
  if (first.startsWith("ask ")) return moveWords(first, family);
  const bid = bidWords(first, familyOf(family));
  return faced ? _("raising to {bid}", { bid }) : _("opening with {bid}", { bid });
}

/**
 * Why a move is marked, in one or two sentences of the page's language, from the analysis'
 * facts (docs/ANALYSIS.md): the better move, both moves' values by the expert's estimate
 * (`values`: "win", "points" or "lose_life") and the chance that the bid faced was true from
 * the player's view (`family`: the analysis' family, or its name). A move the computer made
 * for the player says so. "" for the rest.
 * @param {AnalysedMove} m
 * @param {string} values
 * @param {Family | string} family
 */
export function whyText(m, values, family) {
  if (m.computer) return _("The computer played this move for {name}: it is not counted against them.", { name: m.player });
  if (!m.mark || !m.best) return "";
  const o = {
    better: capital(choiceWords(m.best, m.faced, family)),
    played: choiceWords(m.played, m.faced, family),
    best: pct(m.best_value),
    value: pct(m.value),
    name: m.player,
    known: pct(m.p_known),
  };
  let verdict;
  if (values === "lose_life") verdict = _("{better} was better than {played}: it loses a life {best} of the time by the expert's estimate, against {value}.", o);
  else if (values === "points") verdict = _("{better} was better than {played}: it is worth {best} points by the expert's estimate, against {value}.", { ...o, best: points(m.best_value), value: points(m.value) });
  else verdict = _("{better} was better than {played}: it wins the game {best} of the time by the expert's estimate, against {value}.", o);
  if (!known(m.p_known)) return verdict;
  const faced = values === "lose_life" ? _("The bid was true {known} of the time from the dice {name} could see; the expert reads the bid as well.", o) : _("The bid was true {known} of the time from the dice {name} could see; the expert reads the bids made so far as well.", o);
  return `${verdict} ${faced}`;
}

/** @type {Record<string, string>} */
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
/** @type {Record<string, string>} */
const MARKS = { inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") };

/**
 * The Mark cell: the sign and the word, in the mark's colour (style.css, `.mark-*`).
 * @param {AnalysedMove} m
 */
function markCell(m) {
  if (m.computer) return h("span", { class: "mark mark-computer", text: _("played by the computer") });
  if (m.mark) return h("span", { class: `mark mark-${m.mark}`, text: `${SIGNS[m.mark]} ${MARKS[m.mark] || m.mark}` });
  if (m.agrees) return h("span", { class: "mark mark-best", text: `✓ ${_("best move")}` });
  return null;
}

/**
 * A table in a scrolling region.
 * @param {string} id
 * @param {string} caption
 * @param {string[]} heads
 * @param {HTMLElement[]} rows
 */
function table(id, caption, heads, rows) {
  return h(
    "div",
    { class: "analysis-scroll", role: "region", "aria-labelledby": `${id}-caption`, tabindex: "0" },
    h(
      "table",
      { class: "board analysis-table", id },
      h("caption", { id: `${id}-caption`, class: "analysis-caption" }, caption),
      h("thead", {}, h("tr", {}, heads.map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, rows),
    ),
  );
}

/** @param {Analysis} analysis */
function moveRows(analysis) {
  const family = familyOf(analysis);
  return analysis.moves.map((m, i) =>
    h(
      "tr",
      { class: m.computer ? "computer" : m.mark ? `mark-${m.mark}` : "", "data-mark": m.computer ? "computer" : m.mark || null },
      h("th", { scope: "row", text: String(i + 1) }),
      h("td", { text: String(m.round + 1) }),
      h("td", { text: m.player }),
      h("td", { text: moveWords(m.played, family) }),
      h("td", { text: m.faced ? bidWords(m.faced, family) : "–" }),
      h("td", { text: pct(m.p_known) }),
      h("td", { text: pct(m.p_actual) }),
      h("td", { text: !known(m.expert) ? "–" : m.agrees ? _("{move} (same)", { move: moveWords(m.expert, family) }) : moveWords(m.expert, family) }),
      h("td", { text: lossText(m.loss, analysis.values) }),
      h("td", {}, markCell(m)),
      h("td", { class: "analysis-why", text: whyText(m, analysis.values, family) }),
    ),
  );
}

/** @param {Analysis} analysis */
function playerRows(analysis) {
  return Object.entries(analysis.players).map(([name, s]) =>
    h(
      "tr",
      {},
      h("th", { scope: "row", text: name }),
      h("td", { text: String(s.decisions) }),
      h("td", { text: String(s.computer || 0) }),
      h("td", { text: String(s.judged) }),
      h("td", { text: String(s.agreed) }),
      h("td", { text: String(s.inaccuracies) }),
      h("td", { text: String(s.mistakes) }),
      h("td", { text: String(s.blunders) }),
      h("td", { text: lossText(s.average_loss, analysis.values) }),
    ),
  );
}

const COLUMNS = () => ({
  move: _("Move"),
  faced: _("Bid faced"),
  known: _("Chance true (as known)"),
  actual: _("Chance true (all dice)"),
  expert: _("Expert's move"),
  lost: _("Win chance lost"),
  mark: _("Mark"),
  why: _("Why"),
});

/**
 * Each column of the moves' table in plain words (the loss's words follow the family).
 * @param {Analysis} analysis
 */
function columnHelp(analysis) {
  const c = COLUMNS();
  const t = analysis.thresholds;
  const lost =
    analysis.values === "lose_life"
      ? _("How much the answer lowered the player's chance of winning the game, against the better answer: its extra chance of losing a life, times what a life was worth to them then. Only answers (liar or accept) are judged. The expert reads the bid as well as the dice, so a bid that looks unlikely from the dice alone can still be worth accepting.")
      : analysis.values === "points"
        ? _("How many points the move gave away against the expert's best move, by the expert's estimate (room scoring). The expert reads the bids made so far as well as the dice, so a bid that looks unlikely from the dice alone can still be worth believing.")
        : _("How much the move lowered the player's chance of winning the game, against the expert's best move, by the expert's estimate. The expert reads the bids made so far as well as the dice, so a bid that looks unlikely from the dice alone can still be worth believing.");
  /** @type {[string, string][]} */
  const items = [
    [c.faced, _("The bid standing when the player moved: the one they had to beat or call.")],
    [c.known, _("How often that bid is true, counting the dice the player could see (their own and any shown) and taking every other die as a fair roll. It does not read the bidding.")],
    [c.actual, _("Whether the bid really was true once every cup was lifted: 100% or 0%.")],
    [c.expert, _("What the strongest computer player would do in that seat, seeing only what the player saw; “(same)” when the player did just that.")],
    [c.lost, lost],
    [c.mark, _("✓ the expert's own move; ?! an inaccuracy from {inaccuracy} lost, ? a mistake from {mistake}, ?? a blunder from {blunder}. A move the computer made for someone who was away is marked so and not counted against them.", { inaccuracy: pct(t.inaccuracy), mistake: pct(t.mistake), blunder: pct(t.blunder) })],
    [c.why, _("For each marked move: the better move, and what each is worth by the expert's estimate.")],
  ];
  return h("dl", { class: "analysis-columns", id: "analysis-columns" }, items.map(([term, text]) => [h("dt", { text: term }), h("dd", { text })]));
}

export class AnalysisView {
  /**
   * `announce(text)`: the live region; `onClose()`: called after the view closes.
   * @param {HTMLElement} section
   * @param {{announce: (text: string) => void, onClose: () => void}} callbacks
   */
  constructor(section, { announce, onClose }) {
    this.section = section;
    this.announce = announce;
    this.onClose = onClose;
  }

  /**
   * @param {string} room
   * @param {number} game
   */
  async open(room, game) {
    this.section.hidden = false;
    fill(this.section, h("p", { text: _("Analysing game {game}…", { game }) }));
    const analysis = /** @type {Analysis} */ (await getJSON(analysisUrl(room, game)));
    const heading = h("h2", { id: "analysis-h", tabindex: "-1", text: _("Analysis of game {game}", { game }) });
    const o = { game: presetTitle(analysis.rules), names: analysis.seats.join(", "), name: analysis.winner };
    const c = COLUMNS();
    fill(
      this.section,
      heading,
      h("p", { class: "meta" }, analysis.winner ? _("{game}; players: {names}. {name} won.", o) : _("{game}; players: {names}.", o)),
      h(
        "p",
        { class: "meta", id: "analysis-help" },
        _("Every move, judged by the expert computer player from the seat of whoever made it, seeing only what they could see."),
        " ",
        h("a", { href: analysisUrl(room, game), id: "analysis-json" }, _("The analysis as JSON")),
      ),
      table("analysis-players", _("Players"), [_("Player"), _("Decisions"), _("Played by the computer"), _("Judged"), _("As the expert"), _("Inaccuracies"), _("Mistakes"), _("Blunders"), _("Average loss")], playerRows(analysis)),
      h("h3", { class: "analysis-columns-h", text: _("What the columns mean") }),
      columnHelp(analysis),
      table("analysis-moves", _("Every move"), ["#", _("Round"), _("Player"), c.move, c.faced, c.known, c.actual, c.expert, c.lost, c.mark, c.why], moveRows(analysis)),
      h("p", {}, h("button", { type: "button", id: "analysis-close", onclick: () => this.close() }, _("Close the analysis"))),
    );
    heading.focus();
    const marks = analysis.moves.filter((m) => !m.computer && (m.mark === "mistake" || m.mark === "blunder")).length;
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
 * @param {string} room
 * @param {{announce: (text: string) => void, showError: (err: unknown) => void}} hooks
 */
export function wireAnalysis(room, { announce, showError }) {
  let section = document.getElementById("analysis");
  if (!section) {
    section = h("section", { id: "analysis", class: "card replay", hidden: true, "aria-labelledby": "analysis-h" });
    const replay = document.getElementById("replay");
    if (replay) replay.after(section);
    else document.body.append(section);
  }
  /** @type {HTMLElement | null} */
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
    opener = /** @type {HTMLElement | null} */ (document.activeElement);
    try {
      await view.open(room, Number(m[1]));
      section.scrollIntoView({ block: "start" });
    } catch (error) {
      const err = /** @type {Error | null} */ (error);
      section.hidden = true;
      showError(_("Couldn't analyse game {game}. {reason}", { game: m[1], reason: err && err.message ? err.message : "" }));
    }
  };
  window.addEventListener("hashchange", check);
  check();
  return view;
}
