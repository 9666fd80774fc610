// The table: seats around an oval felt (a compact grid on phones), each with its cup and
// dice count drawn as dice (or lives in poker dice), the seat to move highlighted with its
// countdown; the bid to beat large in the centre with the dice in play; the player's own
// dice in the tray below. Everything drawn comes from the frames the server sent this
// browser: the view of this seat (its own dice only) and public facts. Hidden dice are drawn
// as faceless backs; faces appear only for the viewer's own dice, shown dice, the dice
// outside the poker cup and the reveal after a call.

import { animateOnce, fill, h, sync } from "./dom.js";
import { _, ngettext, parts as withNodes, pgettext } from "./i18n.js";
import { die, diceRow } from "./dice.js";
import { familyOf } from "./family.js";
import { hostSeat, me, myTurn, nameOf, posOf, who } from "./facts.js";
import { ordinal } from "./words.js";
import { play } from "./sound.js";
import { trophy } from "./icons.js";
import { botLevelName } from "./names.js";

/** @typedef {import("./types.js").Drawing} Drawing */
/** @typedef {import("./types.js").PickDie} PickDie */
/** @typedef {import("./types.js").RoundResult} RoundResult */
/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").Selection} Selection */
/** @typedef {import("./types.js").TableReveal} TableReveal */
/** @typedef {import("./types.js").TableState} TableState */
/**
 * What the seats' drawing needs besides the state.
 * @typedef {{reveal: TableReveal, canManage: boolean, hostAction?: (kind: string, seat: Seat) => void}} SeatHooks
 */

/**
 * A hue (0..359) of a name, for its avatar.
 * @param {string} name
 */
function hue(name) {
  let x = 0;
  for (const ch of String(name)) x = (x * 31 + ch.codePointAt(0)) % 360;
  return x;
}

// ---------------------------------------------------------------- the seats

/**
 * Draw the seats around the table. `hooks`: {reveal (the RevealController), hostAction(kind,
 * seat), canManage (the host, between games: no host button on a plate during a game)}.
 * @param {HTMLElement} list
 * @param {TableState} S
 * @param {SeatHooks} hooks
 */
export function renderSeats(list, S, hooks) {
  const seats = S.room.seats;
  const n = seats.length;
  const base = S.seat !== null && S.seat < n ? S.seat : 0;
  list.dataset.count = String(n);
  // One <li> per seat, kept across renders (so animations and focus survive).
  while (list.children.length > n) list.lastElementChild.remove();
  while (list.children.length < n) {
    const li = h(
      "li",
      { class: "seat" },
      h("div", { class: "plate" }, h("div", { class: "avatar-wrap" }), h("div", { class: "who" }), h("div", { class: "stock" }), h("div", { class: "clock-line" }), h("div", { class: "seat-actions" })),
    );
    list.append(li);
  }
  const v = S.view;
  const family = familyOf(S);
  const isPlaying = S.room.status === "playing";
  const reveal = hooks.reveal;
  const timer = S.room.timer;
  seats.forEach((seat, i) => {
    const li = /** @type {HTMLElement} */ (list.children[i]);
    const k = (i - base + n) % n;
    const angle = Math.PI / 2 + (k * 2 * Math.PI) / n;
    li.style.setProperty("--x", `${(50 + 41 * Math.cos(angle)).toFixed(2)}%`);
    li.style.setProperty("--y", `${(50 + 39 * Math.sin(angle)).toFixed(2)}%`);
    li.style.setProperty("--hue", String(hue(seat.name)));
    const over = Boolean(v && (S.room.status === "finished" || v.to_move === -4));
    // the game's facts about this seat come from its position in the game (a seat that
    // joined after the game has none: a finished game keeps its players)
    const p = posOf(S, i);
    const played = p !== null && p !== undefined;
    const count = !played || !v ? null : over ? family.finalStock(v, p) : family.stock(v, p);
    const revealed = played ? reveal.diceFor(p) : null;
    const out = Boolean(v && count === 0 && !revealed);
    const turn = isPlaying && v && played && v.to_move === p;
    const timed = Boolean(timer && timer.seat === i && isPlaying);
    li.dataset.seat = String(i);
    li.className = [
      "seat",
      turn ? "turn" : "",
      i === S.seat ? "mine" : "",
      out ? "out" : "",
      seat.away ? "away" : "",
      seat.left ? "left" : "",
      seat.kind === "bot" ? "bot" : "",
      timed ? "timed" : "",
      played && reveal.losesAt(p) ? "losing" : "",
    ].filter(Boolean).join(" ");
    if (turn) li.setAttribute("aria-current", "true");
    else li.removeAttribute("aria-current");
    const [avatarWrap, whoEl, stockEl, clockEl, actionsEl] = li.firstElementChild.children;

    sync(avatarWrap, `${seat.name}|${timed}`, () => [
      h("span", { class: "avatar", "aria-hidden": "true", text: [...seat.name][0].toUpperCase() }),
      timed ? ring() : null,
    ]);

    /** @type {[string, string][]} [text, class] */
    const tags = [];
    if (i === S.seat) tags.push([pgettext("player", "you"), "me"]);
    if (i === hostSeat(S.room)) tags.push([pgettext("tag", "host"), "host"]);
    if (seat.kind === "bot") tags.push([botLevelName(seat.level), "bot"]);
    else if (seat.left) tags.push([_("left: a computer plays"), "away"]);
    else if (seat.away) tags.push([_("away: a computer plays"), "away"]);
    else if (!seat.connected) tags.push([_("offline"), "offline"]);
    const rating = typeof seat.rating === "number" ? seat.rating : null;
    sync(whoEl, JSON.stringify([seat.name, tags, rating, seat.player || null]), () => [
      // a long name gets a smaller type first (so "random-bot-1" and "random-bot-2" stay
      // told apart), then is cut with an ellipsis, never broken mid-word; the title holds it
      seat.player
        ? h("a", { class: `seat-name${nameSize(seat.name)}`, href: `/p/${encodeURIComponent(seat.player)}`, title: seat.name, text: seat.name })
        : h("span", { class: `seat-name${nameSize(seat.name)}`, title: seat.name, text: seat.name }),
      h("span", { class: "tags" }, tags.map(([text, cls]) => h("span", { class: `tag ${cls}`, text, title: cls === "bot" ? _("A computer player: {level}", { level: text }) : null }))),
      rating !== null ? h("span", { class: "rating", text: _("rating {rating}", { rating }) }) : null,
    ]);

    // The cup and the dice (backs), the lives, or during a reveal the dice it lifted.
    const plate = count === null ? null : family.plateStock(S, { p, i, seat, count, out, over, isPlaying });
    const stockSig = JSON.stringify([count, revealed && revealed.sig, isPlaying, over, out, plate && plate.sig]);
    sync(stockEl, stockSig, () => (revealed ? revealed.build() : plate ? plate.build() : []));

    if (!timed) clockEl.replaceChildren();
    else if (!clockEl.firstChild) clockEl.append(h("span", { class: "clock", role: "timer", "aria-label": _("Time left to move") }));

    const acts = hooks.canManage ? hostButtons(S, seat, hooks) : [];
    sync(actionsEl, acts.map((a) => a.sig).join(","), () => acts.map((a) => a.build()));
  });
}

function ring() {
  const ns = "http://www.w3.org/2000/svg";
  const box = document.createElementNS(ns, "svg");
  box.setAttribute("viewBox", "0 0 44 44");
  box.setAttribute("class", "ring");
  box.setAttribute("aria-hidden", "true");
  for (const cls of ["ring-track", "ring-bar"]) {
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", "22");
    c.setAttribute("cy", "22");
    c.setAttribute("r", "20");
    c.setAttribute("class", cls);
    c.setAttribute("pathLength", "100");
    box.append(c);
  }
  return box;
}

/**
 * The host's buttons on a seat, between games only (the caller's `canManage`): remove a bot
 * or kick a player; ban a player (kicked, and the name refused in this room); hand the host
 * role to a player.
 * @param {TableState} S
 * @param {Seat} seat
 * @param {SeatHooks} hooks
 */
function hostButtons(S, seat, hooks) {
  /** @type {{sig: string, build: () => HTMLElement}[]} */
  const out = [];
  if (seat.seat === S.seat || seat.left || S.room.status === "playing") return out;
  const name = seat.name;
  const label = seat.kind === "bot" ? _("Remove {name}", { name }) : _("Remove {name} from the room", { name });
  out.push({
    sig: `rm${seat.seat}${seat.name}`,
    build: () => h("button", { type: "button", class: "small danger", "data-act": "remove", "aria-label": label, text: seat.kind === "bot" ? _("Remove") : _("Kick"), onclick: () => hooks.hostAction("remove", seat) }),
  });
  if (seat.kind === "human") {
    out.push({
      sig: `ban${seat.seat}${seat.name}`,
      build: () => h("button", { type: "button", class: "small danger", "data-act": "ban", "aria-label": _("Ban {name}: removed, and the name refused in this room", { name: seat.name }), text: _("Ban"), onclick: () => hooks.hostAction("ban", seat) }),
    });
    out.push({
      sig: `host${seat.seat}${seat.name}`,
      build: () => h("button", { type: "button", class: "small", "data-act": "host", "aria-label": _("Make {name} the host", { name: seat.name }), text: _("Make host"), onclick: () => hooks.hostAction("host", seat) }),
    });
  }
  return out;
}

// ---------------------------------------------------------------- the countdown

/** @type {number | null} */
let lastTick = null; // the last second a tick sounded (the page's own bookkeeping)

/**
 * Update every countdown on the page: the ring and seconds on the seat to move, the tab
 * title, and the warning in the last 5 seconds (with a tick for the player's own turn).
 * Called a few times a second.
 * @param {TableState} S
 * @param {string} baseTitle
 */
export function tickClock(S, baseTitle) {
  const t = S.timerLocal;
  let title = baseTitle;
  const mine = myTurn(S);
  if (t && S.room && S.room.status === "playing") {
    const left = Math.max(0, (t.at - Date.now()) / 1000);
    const secs = Math.ceil(left);
    const warn = left <= 5;
    const li = document.querySelector(`#seats li[data-seat="${t.seat}"]`);
    if (li) {
      li.classList.toggle("warn", warn);
      const clock = li.querySelector(".clock");
      if (clock) clock.textContent = _("{secs} s", { secs });
      const bar = /** @type {SVGElement | null} */ (li.querySelector(".ring-bar"));
      if (bar && t.seconds) bar.style.strokeDashoffset = String(100 - Math.min(100, (left / t.seconds) * 100));
    }
    title = t.seat === S.seat ? _("({secs} s) Your turn · {title}", { secs, title: baseTitle }) : _("({secs} s) {name} to move · {title}", { secs, name: nameOf(S, t.seat), title: baseTitle });
    if (mine && t.seat === S.seat && warn && secs > 0 && secs !== lastTick) {
      lastTick = secs;
      play("tick");
    }
    const mineClock = document.getElementById("my-clock");
    if (mineClock) {
      mineClock.hidden = !(t.seat === S.seat);
      mineClock.textContent = _("{secs} s left", { secs });
      mineClock.classList.toggle("warn", warn);
    }
  } else {
    const mineClock = document.getElementById("my-clock");
    if (mineClock) mineClock.hidden = true;
    if (mine) title = _("(Your turn) {title}", { title: baseTitle });
  }
  if (document.title !== title) document.title = title;
}

// ---------------------------------------------------------------- the centre

/**
 * The centre of the table: the lobby's word, the bid to beat and the family's facts, or the
 * winner.
 * @param {HTMLElement} el
 * @param {TableState} S
 * @param {TableReveal} reveal
 */
export function renderCentre(el, S, reveal) {
  const v = S.view;
  const room = S.room;
  /** @type {HTMLElement[]} */
  const parts = [];
  let sig;
  if (room.status === "lobby" || !v) {
    const n = room.seats.length;
    const watching = S.seat === null;
    sig = `lobby|${n}|${S.host}|${watching}`;
    const enough = n >= 2;
    const title = !enough ? _("Waiting for players") : S.host ? _("Ready to start") : _("Waiting for the host to start");
    const sub = !enough
      ? S.host
        ? _("Add a computer player or share the link.")
        : watching
          ? _("Take a seat to play in this game.")
          : _("Waiting for more players to join.")
      : S.host
        ? ngettext("{n} seated: start when you're ready.", "{n} seated: start when you're ready.", n)
        : watching
          ? ngettext("{n} seated. Take a seat to join them before the host starts.", "{n} seated. Take a seat to join them before the host starts.", n)
          : ngettext("{n} seated: the host starts the game.", "{n} seated: the host starts the game.", n);
    parts.push(h("p", { class: "centre-title", id: "centre-title", text: title }), h("p", { class: "centre-sub", text: sub }));
  } else if (room.status === "finished" || v.to_move === -4) {
    const w = v.winner;
    sig = `over|${v.game_no}|${w}`;
    parts.push(
      h("p", { class: "centre-title trophy" }, trophy()),
      h("p", { class: "centre-big", id: "winner-centre", text: w === me(S) ? _("You win!") : w !== null && w !== undefined ? _("{name} wins", { name: nameOf(S, w) }) : _("Game over") }),
      h("p", { class: "centre-sub", text: _("Game {game} is over.", { game: v.game_no }) }),
    );
  } else {
    const family = familyOf(S);
    const pal = family.palifico(S, v.game_no, v.round);
    const more = family.centre(S);
    sig = JSON.stringify([v.game_no, v.round, v.current_bid, v.bidder, pal, v.to_move, more.sig]);
    parts.push(h("p", { class: "round-line" }, _("Round {round}", { round: v.round + 1 }), pal ? h("span", { class: "palifico", text: _("Palifico") }) : null));
    if (v.current_bid) {
      // my own bid (or claim, before I pass the cup) is mine to stand by, not one to beat
      const mine = v.bidder === me(S);
      parts.push(
        h("p", { class: "centre-label", text: mine ? family.ownBidLabel() : _("Bid to beat") }),
        h("div", { class: "bid-display", "data-anim": "slam" }, family.bidPicture(v.current_bid_move, v.current_bid)),
        mine ? null : h("p", { class: "centre-sub" }, withNodes(_("by {name}"), { name: h("strong", { text: nameOf(S, v.bidder) }) })),
      );
    } else {
      parts.push(h("p", { class: "centre-label", text: _("No bid yet") }), h("p", { class: "centre-sub", text: who(S, v.to_move) === "you" ? _("You open the bidding.") : _("{name} opens the bidding.", { name: nameOf(S, v.to_move) }) }));
    }
    parts.push(...more.parts);
  }
  const body = el.querySelector(".centre-body");
  const changed = sync(body, sig, () => parts);
  if (changed) {
    const slam = body.querySelector("[data-anim=slam]");
    if (slam) animateOnce(slam, "slam");
  }
  el.classList.toggle("revealing", reveal.active());
}

// ---------------------------------------------------------------- the tray: my dice

/**
 * The player's own dice, big. `sel` (from the move picker) makes them clickable: {mode,
 * dice: [{face, zone, picked, label}], toggle(i), caption}.
 * @param {HTMLElement} area
 * @param {HTMLElement} el
 * @param {TableState} S
 * @param {Selection | null} sel
 */
export function renderTray(area, el, S, sel) {
  const v = S.view;
  if (S.seat === null || !v || S.room.status !== "playing") {
    area.hidden = true;
    fill(el);
    return;
  }
  area.hidden = false;
  const heading = area.querySelector("h3");
  const attrs = { "data-seat": S.seat, "data-round": v.round, "data-game": v.game_no };
  if (sel && sel.dice.length) {
    heading.textContent = sel.title;
    /** @type {Map<PickDie["zone"], [PickDie, number][]>} */
    const groups = new Map();
    sel.dice.forEach((d, i) => {
      if (!groups.has(d.zone)) groups.set(d.zone, []);
      groups.get(d.zone).push([d, i]);
    });
    const extra = familyOf(S).trayExtra(S);
    const sig = JSON.stringify([v.game_no, v.round, sel.mode, sel.dice, extra.sig]);
    sync(el, sig, () => [
      sel.caption ? h("p", { class: "hint", text: sel.caption }) : null,
      extra.node,
      [...groups.entries()].map(([zone, items]) =>
        h(
          "div",
          { class: `zone zone-${zone.key}` },
          zone.label ? h("span", { class: "zone-label", text: zone.label }) : null,
          h(
            "span",
            { class: "dice", ...(zone.mine ? { id: "my-dice-row", ...attrs } : {}) },
            items.map(([d, i]) =>
              h(
                "button",
                {
                  type: "button",
                  class: `die-btn${d.picked ? " picked" : ""}`,
                  id: `die-btn-${i}`,
                  "aria-pressed": d.picked ? "true" : "false",
                  "aria-label": d.label,
                  "data-face": d.face,
                  onclick: () => sel.toggle(i),
                },
                die(d.face, { src: d.src, glyph: false, label: d.label }),
              ),
            ),
          ),
        ),
      ),
    ]);
    return;
  }
  familyOf(S).tray(el, heading, S, attrs);
}

/**
 * Make the tray's dice tumble (a new roll).
 * @param {HTMLElement} el
 */
export function rollTray(el) {
  const row = /** @type {HTMLElement | null} */ (el.querySelector(".dice"));
  if (!row) return;
  row.classList.remove("rolling");
  void row.offsetWidth; // restart the animation
  row.classList.add("rolling");
  setTimeout(() => row.classList.remove("rolling"), 900);
}

// ---------------------------------------------------------------- results in words

/**
 * The size class of a seat's name on its plate: long names get a smaller type.
 * @param {string} name
 */
function nameSize(name) {
  return name.length > 15 ? " longest" : name.length > 9 ? " long" : "";
}

/**
 * One finished round in words, by the room's family: {title, sentences[], note, hands:
 * [[name, faces]], matches(face), palifico}.
 * @param {TableState} S
 * @param {RoundResult} res
 * @param {number} index
 * @param {number} [game]
 */
export function describeResult(S, res, index, game = S.view ? S.view.game_no : 0) {
  return familyOf(S).describeResult(S, res, index, game);
}

/**
 * The last round's result as text under the table (and each hand with its dice).
 * @param {HTMLElement} el
 * @param {TableState} S
 */
export function renderRevealText(el, S) {
  const results = (S.view && S.view.results) || [];
  if (!results.length || !S.view) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const i = results.length - 1;
  const sig = JSON.stringify([S.view.game_no, i, me(S), results[i]]);
  sync(el, sig, () => {
    const d = describeResult(S, results[i], i);
    return [
      h("h3", { text: familyOf(S).resultHeading(d) }),
      d.sentences.map((s) => h("p", { text: s })),
      h(
        "ul",
        { class: "hands" },
        d.hands.map(([name, faces]) => h("li", {}, h("span", { class: "seat-name", text: name }), " ", diceRow(faces, { label: name, matches: d.matches, small: true, src: "reveal" }))),
      ),
    ];
  });
}

// ---------------------------------------------------------------- game over: ranking

/**
 * Seats from winner to first out: the server's `room.ranking`, else from the results.
 * @param {TableState} S
 * @returns {number[]}
 */
export function ranking(S) {
  const room = S.room;
  if (Array.isArray(room.ranking) && room.ranking.length) return room.ranking;
  const v = S.view;
  if (!v || !v.names) return [];
  const n = v.names.length;
  const outAt = familyOf(S).outRounds(v);
  const seats = [...Array(n).keys()];
  seats.sort((a, b) => {
    if (a === v.winner) return -1;
    if (b === v.winner) return 1;
    return outAt[b] - outAt[a] || a - b;
  });
  return seats;
}

/**
 * The game-over card: the winner, the ranking, the room's scoreboard and the game's links.
 * @param {HTMLElement} el
 * @param {TableState} S
 * @param {{gameLinks: (game: number) => HTMLElement | null}} hooks
 */
export function renderGameOver(el, S, hooks) {
  const v = S.view;
  const over = Boolean(v && (S.room.status === "finished" || v.to_move === -4) && v.winner !== null && v.winner !== undefined);
  el.hidden = !over;
  if (!over) return;
  const order = ranking(S);
  // the room's scoreboard, for the players of this game (by name: a seat change after the
  // game leaves its page as it was)
  const byName = S.room.wins_by_name || {};
  const players = v.names || [];
  const wins = players.map((name) => byName[name] || 0);
  const sig = JSON.stringify([v.game_no, v.winner, order, wins, me(S), S.host, players]);
  sync(el, sig, () => [
    h("h3", {}, withNodes(_("Game {game} over: {winner}"), { game: String(v.game_no), winner: h("span", { id: "winner", "data-seat": v.winner, text: v.winner === me(S) ? _("you win!") : _("{name} wins.", { name: nameOf(S, v.winner) }) }) })),
    h(
      "ol",
      { id: "ranking", class: "ranking", "aria-label": _("Final ranking") },
      order.map((s, i) => h("li", { "data-seat": s, class: i === 0 ? "first" : "" }, i === 0 ? trophy() : null, h("span", { class: "place", text: ordinal(i + 1) }), " ", h("span", { class: "seat-name", text: who(S, s) === "you" ? _("{name} (you)", { name: nameOf(S, s) }) : nameOf(S, s) }))),
    ),
    wins.some((w) => w > 0)
      ? h(
          "table",
          { id: "scoreboard", class: "scoreboard" },
          h("caption", { text: _("Games won in this room") }),
          h("thead", {}, h("tr", {}, h("th", { scope: "col", text: _("Player") }), h("th", { scope: "col", text: _("Wins") }))),
          h(
            "tbody",
            {},
            players.map((name, i) => h("tr", { "data-seat": i }, h("th", { scope: "row", text: name }), h("td", { text: String(wins[i]) }))),
          ),
        )
      : null,
    hooks.gameLinks(v.game_no),
  ]);
}
