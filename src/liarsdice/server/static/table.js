// The table: seats around an oval felt (a compact grid on phones), each with its cup and
// dice count drawn as dice (or lives in poker dice), the seat to move highlighted with its
// countdown; the bid to beat large in the centre with the dice in play; the player's own
// dice in the tray below. Everything drawn comes from the frames the server sent this
// browser: the view of this seat (its own dice only) and public facts. Hidden dice are drawn
// as faceless backs; faces appear only for the viewer's own dice, shown dice, the dice
// outside the poker cup and the reveal after a call.

import { animateOnce, fill, h, sync } from "./dom.js";
import { _, andList, ngettext, parts as withNodes, pgettext } from "./i18n.js";
import { cup, die, dieBack, diceRow, facePlural } from "./dice.js";
import { bidOdds, parseBid, percent } from "./odds.js";
import { bidLabel, ordinal, pokerWords } from "./words.js";
import { play } from "./sound.js";
import { trophy } from "./icons.js";
import { botLevelName } from "./names.js";

// ---------------------------------------------------------------- small facts

export const isPoker = (S) => Boolean(S.room && S.room.family === "poker");
export const hostSeat = (room) => (room && typeof room.host === "number" ? room.host : 0);
export const playing = (S) => Boolean(S.room && S.room.status === "playing" && S.view);
export const myTurn = (S) => Boolean(S.view && S.seat !== null && S.view.to_move === S.seat && (S.view.legal || []).length > 0 && S.room.status === "playing");

/**
 * The viewer's position in the current (or last) game: the server's `view.viewer` (a
 * finished game keeps its players whatever happens to the seats after it), else the seat.
 */
export const me = (S) => (S.view && "viewer" in S.view ? S.view.viewer : S.seat);

/** The position in the game of the room's seat `i` (null: that seat did not play it). */
export function posOf(S, i) {
  const seat = S.room && S.room.seats[i];
  return seat && "position" in seat ? seat.position : i;
}

/** The name of the room's seat `i` now (room events: host, ready, kicks). */
export function seatName(S, i) {
  const seat = S.room && S.room.seats[i];
  return seat ? seat.name : _("seat {n}", { n: i + 1 });
}

/** The name of the player at position `seat` of the current (or last) game. */
export function nameOf(S, seat) {
  if (seat === null || seat === undefined || seat < 0) return _("nobody");
  const names = (S.view && S.view.names) || [];
  if (seat < names.length) return names[seat];
  const info = S.room && S.room.seats[seat];
  return info ? info.name : _("seat {n}", { n: seat + 1 });
}

/** "you" for the viewer's own seat (a marker: compare, never show), else the name. */
export function who(S, seat) {
  return seat === me(S) ? "you" : nameOf(S, seat);
}

/** The name of a seat to show: "you" ("tú") for the viewer's own. */
export function whoText(S, seat) {
  return seat === me(S) ? pgettext("player", "you") : nameOf(S, seat);
}

/** The seat of a player named in a result (bidding results name players). */
export function seatOfName(S, name) {
  const names = (S.view && S.view.names) || [];
  const i = names.indexOf(name);
  if (i >= 0) return i;
  const seat = S.room && S.room.seats.find((s) => s.name === name);
  return seat ? seat.seat : -1;
}

/** Dice left (bidding) or lives (poker) of a seat in the current game, or null. */
export function stock(S, seat) {
  const v = S.view;
  if (!v || !v.names || seat >= v.names.length) return null;
  return isPoker(S) ? v.lives[seat] : v.dice_counts[seat];
}

/**
 * Dice (or lives) a seat had left when the game ended: the last result's count where it
 * names the seat (bidding results name players), else the view's.
 */
export function finalCount(S, seat) {
  const v = S.view;
  const res = v && v.results && v.results.length ? v.results[v.results.length - 1] : null;
  if (res && !isPoker(S) && res.dice && v.names && seat < v.names.length) {
    const left = res.dice[v.names[seat]];
    if (typeof left === "number") return left;
  }
  return stock(S, seat);
}

/** Total dice in play (bidding family), stash included. */
export function diceInPlay(S) {
  const v = S.view;
  if (!v || isPoker(S)) return null;
  if (typeof v.dice_in_play === "number") return v.dice_in_play;
  return (v.dice_counts || []).reduce((a, b) => a + b, 0) + (v.stash_size || 0);
}

/** Is this round a palifico round (from the view, the result, or what this page saw)? */
export function isPalifico(S, game, round, res = null) {
  if (res && res.palifico === true) return true;
  const v = S.view;
  if (v && v.game_no === game && v.round === round && v.palifico === true) return true;
  return Boolean(S.palificoSeen && S.palificoSeen.has(`${game}/${round}`));
}


function hue(name) {
  let x = 0;
  for (const ch of String(name)) x = (x * 31 + ch.codePointAt(0)) % 360;
  return x;
}

// ---------------------------------------------------------------- the seats

/**
 * Draw the seats around the table. `hooks`: {reveal (the RevealController), hostAction(kind,
 * seat), canManage (the host, between games: no host button on a plate during a game)}.
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
  const isPlaying = S.room.status === "playing";
  const reveal = hooks.reveal;
  const timer = S.room.timer;
  seats.forEach((seat, i) => {
    const li = list.children[i];
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
    const count = !played ? null : over ? finalCount(S, p) : stock(S, p);
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
    const shown = played && v && !isPoker(S) && v.shown && v.shown[p] ? v.shown[p] : [];
    const chips = played && v && !isPoker(S) && v.chips && v.chips.some((c) => c > 0) ? v.chips[p] : null;
    // My own plate shows my dice face up (I know them); after the game nobody's are hidden.
    const mineUp = i === S.seat && isPlaying && v && !isPoker(S) && !over ? v.my_dice || [] : null;
    const holds = Boolean(played && v && v.holder === p && isPoker(S));
    const stockSig = JSON.stringify([count, revealed && revealed.sig, shown, chips, isPlaying, holds, mineUp, over]);
    sync(stockEl, stockSig, () => {
      if (revealed) return revealed.build();
      if (count === null) return [];
      const parts = [];
      if (isPoker(S)) {
        const hearts = h("span", { class: "lives", "aria-hidden": "true" });
        for (let j = 0; j < Math.min(count, 9); j++) hearts.append(h("span", { class: "heart", text: "♥" }));
        parts.push(hearts, h("span", { class: "stock-text", text: out ? pgettext("player", "out") : ngettext("{n} life", "{n} lives", count) }));
        if (isPlaying && holds) parts.push(h("span", { class: "holder", text: _("has the cup") }));
        return parts;
      }
      const backs = h("span", { class: "backs", "aria-hidden": "true" });
      const drawn = Math.min(count - Math.min(shown.length, count), 6);
      if (mineUp && mineUp.length) {
        // pictures of my own dice (the tray below holds them for real)
        for (const f of mineUp.slice(0, 6)) backs.append(die(f, { glyph: true, small: true }));
        backs.classList.add("own");
      } else {
        for (let j = 0; j < drawn; j++) backs.append(dieBack({ blank: over }));
      }
      parts.push(h("span", { class: "cup-wrap", "aria-hidden": "true" }, cup()), backs);
      parts.push(h("span", { class: "stock-text", text: out ? pgettext("player", "out") : over ? ngettext("{n} die left", "{n} dice left", count) : ngettext("{n} die", "{n} dice", count) }));
      if (shown.length) parts.push(h("span", { class: "shown" }, diceRow(shown, { label: _("{name} shows", { name: seat.name }), small: true, src: "shown" })));
      if (chips !== null) parts.push(h("span", { class: "chips", text: ngettext("{n} chip", "{n} chips", chips) }));
      return parts;
    });

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
 */
function hostButtons(S, seat, hooks) {
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

/**
 * Update every countdown on the page: the ring and seconds on the seat to move, the tab
 * title, and the warning in the last 5 seconds (with a tick for the player's own turn).
 * Called a few times a second.
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
      const bar = li.querySelector(".ring-bar");
      if (bar && t.seconds) bar.style.strokeDashoffset = String(100 - Math.min(100, (left / t.seconds) * 100));
    }
    title = t.seat === S.seat ? _("({secs} s) Your turn · {title}", { secs, title: baseTitle }) : _("({secs} s) {name} to move · {title}", { secs, name: nameOf(S, t.seat), title: baseTitle });
    if (mine && t.seat === S.seat && warn && secs > 0 && secs !== S.lastTick) {
      S.lastTick = secs;
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

/** The odds of a bidding-family bid for this seat, as text (null when not applicable). */
export function oddsText(S, text) {
  const bid = parseBid(text);
  if (!S.oddsOn || !bid || !S.view || !S.room.rules || S.seat === null || isPoker(S)) return null;
  const o = bidOdds(S.view, S.room.rules, bid);
  const open = (S.view.shown || []).some((d) => d && d.length) || (S.view.stash || []).length > 0;
  return _("Chance it's true: {chance} (exactly: {exactly}). {seen}", { chance: percent(o.atLeast), exactly: percent(o.exactly), seen: seenSentence(o, open) });
}

/**
 * What the odds are worked out from, as a sentence: "You hold 1 of them; 10 dice are hidden."
 * (`open`: some dice are on the table face up, so "you can see" rather than "you hold").
 */
export function seenSentence(o, open = false) {
  const hidden = o.unseen === 0 ? _("no dice are hidden") : ngettext("{n} die is hidden", "{n} dice are hidden", o.unseen);
  const known = o.known === 0 ? pgettext("of them", "none") : String(o.known);
  return open ? _("You can see {known} of them; {hidden}.", { known, hidden }) : _("You hold {known} of them; {hidden}.", { known, hidden });
}

export function oddsPercent(S, text) {
  const bid = parseBid(text);
  if (!S.oddsOn || !bid || !S.view || !S.room.rules || S.seat === null || isPoker(S)) return null;
  return percent(bidOdds(S.view, S.room.rules, bid).atLeast);
}

/** The big picture of a bid: "5 ×" and a die (bidding), the hand in words (poker). */
export function bidPicture(text) {
  const bid = parseBid(text);
  if (bid) {
    return h(
      "span",
      { class: "bid-picture", id: "current-bid-text", role: "img", "aria-label": bidLabel(text), "data-bid": text },
      h("span", { class: "bid-qty", "aria-hidden": "true", text: String(bid.quantity) }),
      h("span", { class: "bid-times", "aria-hidden": "true", text: "×" }),
      die(bid.face, { glyph: true }),
    );
  }
  return h("span", { class: "bid-picture poker-bid", id: "current-bid-text", "data-bid": text, text: pokerWords(text) || text });
}

export function renderCentre(el, S, reveal) {
  const v = S.view;
  const room = S.room;
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
    const total = diceInPlay(S);
    const pal = !isPoker(S) && isPalifico(S, v.game_no, v.round);
    const odds = v.current_bid ? oddsText(S, v.current_bid) : null;
    sig = JSON.stringify([v.game_no, v.round, v.current_bid, v.bidder, total, pal, odds, v.to_move, isPoker(S) && [v.outside, v.cup_count, v.direction]]);
    parts.push(h("p", { class: "round-line" }, _("Round {round}", { round: v.round + 1 }), pal ? h("span", { class: "palifico", text: _("Palifico") }) : null));
    if (v.current_bid) {
      // my own bid (or claim, before I pass the cup) is mine to stand by, not one to beat
      const mine = v.bidder === me(S);
      parts.push(
        h("p", { class: "centre-label", text: mine ? (isPoker(S) ? _("Your claim") : _("Your bid")) : _("Bid to beat") }),
        h("div", { class: "bid-display", "data-anim": "slam" }, bidPicture(v.current_bid)),
        mine ? null : h("p", { class: "centre-sub" }, withNodes(_("by {name}"), { name: h("strong", { text: nameOf(S, v.bidder) }) })),
      );
    } else {
      parts.push(h("p", { class: "centre-label", text: _("No bid yet") }), h("p", { class: "centre-sub", text: who(S, v.to_move) === "you" ? _("You open the bidding.") : _("{name} opens the bidding.", { name: nameOf(S, v.to_move) }) }));
    }
    if (isPoker(S)) {
      if (v.outside && v.outside.length) parts.push(h("div", { class: "outside" }, h("span", { class: "centre-label", text: _("Outside the cup") }), diceRow(v.outside, { label: _("Outside the cup"), small: true, src: "outside" })));
      parts.push(h("p", { class: "centre-sub", id: "cup-count", text: !v.direction ? ngettext("{n} die under the cup", "{n} dice under the cup", v.cup_count) : v.direction > 0 ? ngettext("{n} die under the cup · passing left", "{n} dice under the cup · passing left", v.cup_count) : ngettext("{n} die under the cup · passing right", "{n} dice under the cup · passing right", v.cup_count) }));
    } else {
      parts.push(h("p", { class: "dice-total", id: "dice-total", "data-total": total }, withNodes(ngettext("{n} die in play", "{n} dice in play", total), { n: h("strong", { text: String(total) }) })));
      if (v.stash && v.stash.length) parts.push(h("div", { class: "outside" }, h("span", { class: "centre-label", text: _("Stash") }), diceRow(v.stash, { label: _("Stash"), small: true, src: "stash" })));
      else if (v.stash_size) parts.push(h("p", { class: "centre-sub", text: ngettext("Hidden stash: {n} die", "Hidden stash: {n} dice", v.stash_size) }));
      if (pal) parts.push(h("p", { class: "centre-sub", text: _("Ones are not wild; the face can't change.") }));
    }
    if (odds) parts.push(h("p", { class: "odds", id: "current-odds", text: odds }));
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
    const groups = new Map();
    sel.dice.forEach((d, i) => {
      if (!groups.has(d.zone)) groups.set(d.zone, []);
      groups.get(d.zone).push([d, i]);
    });
    const sig = JSON.stringify([v.game_no, v.round, sel.mode, sel.dice, myShown(S)]);
    sync(el, sig, () => [
      sel.caption ? h("p", { class: "hint", text: sel.caption }) : null,
      shownRow(S),
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
  if (isPoker(S)) {
    heading.textContent = _("Your view of the cup");
    const sig = JSON.stringify(["poker", v.game_no, v.round, v.cup, v.outside, v.passed_cup]);
    sync(el, sig, () => [
      v.cup.length
        ? h("div", { class: "zone zone-cup" }, v.outside.length ? h("span", { class: "zone-label", text: _("Under the cup") }) : null, diceRow(v.cup, { label: _("Under the cup (only you see them)"), attrs: { id: "my-dice-row", ...attrs }, src: "cup" }))
        : h("p", { class: "hint", text: _("You can't see under the cup now.") }),
      v.outside.length ? h("div", { class: "zone zone-outside" }, h("span", { class: "zone-label", text: _("Outside the cup (everyone sees)") }), diceRow(v.outside, { label: _("Outside the cup"), src: "outside" })) : null,
      v.passed_cup && v.passed_cup.length ? h("p", { class: "meta" }, withNodes(_("You passed: {dice}"), { dice: diceRow(v.passed_cup, { label: _("You passed"), small: true, src: "cup" }) })) : null,
    ]);
    return;
  }
  heading.textContent = _("Your dice");
  const cur = parseBid(v.current_bid);
  const wild = S.room.rules ? S.room.rules.wild : null;
  const pal = isPalifico(S, v.game_no, v.round);
  const matches = (d) => Boolean(S.oddsOn && cur && (d === cur.face || (!pal && wild !== null && d === wild)));
  const sig = JSON.stringify(["mine", v.game_no, v.round, v.my_dice, v.dice_counts[S.seat], S.oddsOn && v.current_bid, myShown(S)]);
  sync(el, sig, () => {
    if (v.my_dice.length === 0 && !myShown(S).length) {
      return h("p", { class: "hint", text: (v.dice_counts[S.seat] || 0) === 0 ? _("You have no dice left: you are out. Watch the others finish.") : _("Rolling…") });
    }
    return [
      v.my_dice.length ? h("div", { class: "zone zone-hand" }, myShown(S).length ? h("span", { class: "zone-label", text: _("Under your cup") }) : null, diceRow(v.my_dice, { label: _("Your dice"), matches, attrs: { id: "my-dice-row", ...attrs }, src: "mine" })) : null,
      shownRow(S, matches),
    ];
  });
}

/** The dice this seat showed this round (show-and-reroll): still yours, now face up for all. */
function myShown(S) {
  const v = S.view;
  return (v && !isPoker(S) && v.shown && S.seat !== null && v.shown[S.seat]) || [];
}

function shownRow(S, matches = () => false) {
  const faces = myShown(S);
  if (!faces.length) return null;
  return h(
    "div",
    { class: "zone zone-shown", id: "my-shown" },
    h("span", { class: "zone-label", text: _("Shown to everyone") }),
    diceRow(faces, { label: _("Your dice shown to everyone"), matches, src: "shown" }),
  );
}

/** Make the tray's dice tumble (a new roll). */
export function rollTray(el) {
  const row = el.querySelector(".dice");
  if (!row) return;
  row.classList.remove("rolling");
  void row.offsetWidth; // restart the animation
  row.classList.add("rolling");
  setTimeout(() => row.classList.remove("rolling"), 900);
}

// ---------------------------------------------------------------- results in words

/**
 * One finished round in words. Bidding results name players; poker results give seats.
 * Returns {title, sentences[], hands: [[name, faces]], matches(face), palifico}.
 */
/** The size class of a seat's name on its plate: long names get a smaller type. */
function nameSize(name) {
  return name.length > 15 ? " longest" : name.length > 9 ? " long" : "";
}

export function describeResult(S, res, index, game = S.view ? S.view.game_no : 0) {
  const mine = me(S);
  const myName = mine !== null && mine !== undefined ? nameOf(S, mine) : null;
  const nm = (x) => (typeof x === "number" ? nameOf(S, x) : x);
  const isMe = (x) => myName !== null && nm(x) === myName;
  // A sentence about a player: the second person for the viewer, the third for the others
  // (names stay as their players wrote them). Each is one message.
  const about = (x, second, third, values = {}) => (isMe(x) ? second(values) : third({ name: nm(x), ...values }));
  const title = _("Round {round}", { round: index + 1 });
  if (isPoker(S)) {
    const sentences = [];
    const bid = pokerWords(res.bid) || res.bid;
    const bidder = nm(res.bidder);
    if (res.call === "five" || res.call === "accept") {
      sentences.push(
        isMe(res.bidder)
          ? about(res.caller, (o) => _("You accepted your own bid of {bid}.", o), (o) => _("{name} accepted your bid of {bid}.", o), { bid })
          : about(res.caller, (o) => _("You accepted {bidder}'s bid of {bid}.", o), (o) => _("{name} accepted {bidder}'s bid of {bid}.", o), { bid, bidder }),
      );
      sentences.push(res.success ? _("Five of a kind was made: nobody loses a life.") : _("No five of a kind in three rolls."));
    } else {
      sentences.push(
        isMe(res.bidder)
          ? about(res.caller, (o) => _("You called liar on your own bid of {bid}.", o), (o) => _("{name} called liar on your bid of {bid}.", o), { bid })
          : about(res.caller, (o) => _("You called liar on {bidder}'s bid of {bid}.", o), (o) => _("{name} called liar on {bidder}'s bid of {bid}.", o), { bid, bidder }),
      );
      const reading = pokerWords(res.reading) || res.reading;
      sentences.push(res.stood ? _("The hand reads {reading}: the bid stands.", { reading }) : _("The hand reads {reading}: the bid was a lie.", { reading }));
    }
    if (res.loser !== null && res.loser !== undefined) sentences.push(about(res.loser, () => _("You lose a life."), (o) => _("{name} loses a life.", o)));
    const hands = [[_("The hand"), res.hand]];
    (res.attempts || []).forEach((a, i) => hands.push([_("Roll {n}", { n: i + 1 }), a]));
    return { title, sentences, note: null, hands, matches: () => false, palifico: false };
  }
  const bid = parseBid(res.bid);
  const reveal = res.reveal || {};
  const pal = isPalifico(S, game, index, res);
  const all = Object.values(reveal).flat().concat(res.stash || []);
  // Which dice counted: wilds count unless the bid is on the wild face or the round is a
  // palifico round; the server's count decides (this only picks what to light up).
  const wild = S.room.rules ? S.room.rules.wild : null;
  const withWild = (d) => d === bid.face || (wild !== null && d === wild);
  const countsWild = !pal && wild !== null && bid.face !== wild && all.filter(withWild).length === res.count;
  const matches = countsWild ? withWild : (d) => d === bid.face;
  const sentences = [];
  const note = pal ? _("Palifico round: ones were not wild.") : null;
  const label = bidLabel(res.bid);
  const bidder = nm(res.bidder);
  const exact = res.call === "exact";
  if (isMe(res.bidder)) {
    sentences.push(
      exact
        ? about(res.caller, (o) => _("You called exact on your own bid of {bid}.", o), (o) => _("{name} called exact on your bid of {bid}.", o), { bid: label })
        : about(res.caller, (o) => _("You called liar on your own bid of {bid}.", o), (o) => _("{name} called liar on your bid of {bid}.", o), { bid: label }),
    );
  } else {
    sentences.push(
      exact
        ? about(res.caller, (o) => _("You called exact on {bidder}'s bid of {bid}.", o), (o) => _("{name} called exact on {bidder}'s bid of {bid}.", o), { bid: label, bidder })
        : about(res.caller, (o) => _("You called liar on {bidder}'s bid of {bid}.", o), (o) => _("{name} called liar on {bidder}'s bid of {bid}.", o), { bid: label, bidder }),
    );
  }
  const verdict = exact ? (res.count === bid.quantity ? _("exactly right.") : _("not exact.")) : res.count >= bid.quantity ? _("the bid stands.") : _("the bid was a lie.");
  sentences.push(
    countsWild
      ? ngettext("There was {n} ({wilds} wild): {verdict}", "There were {n} ({wilds} wild): {verdict}", res.count, { wilds: facePlural(wild), verdict })
      : ngettext("There was {n}: {verdict}", "There were {n}: {verdict}", res.count, { verdict }),
  );
  const losses = Object.entries(res.losses || {});
  const lose = ([n, k]) => about(n, (o) => ngettext("You lose {n} die", "You lose {n} dice", k, o), (o) => ngettext("{name} loses {n} die", "{name} loses {n} dice", k, o));
  const gain = ([n, k]) => about(n, (o) => ngettext("You gain {n} die", "You gain {n} dice", k, o), (o) => ngettext("{name} gains {n} die", "{name} gains {n} dice", k, o));
  sentences.push(losses.length ? _("{list}.", { list: losses.map(lose).join("; ") }) : _("Nobody loses a die."));
  const gains = Object.entries(res.gains || {});
  if (gains.length) sentences.push(_("{list}.", { list: gains.map(gain).join("; ") }));
  sentences.push(res.next_opener ? about(res.next_opener, () => _("You open the next round."), (o) => _("{name} opens the next round.", o)) : _("That ends the game."));
  const hands = Object.entries(reveal).filter(([, faces]) => faces.length);
  if (res.stash && res.stash.length) hands.push([_("Stash"), res.stash]);
  return { title, sentences: note ? [note, ...sentences] : sentences, note, hands, matches, palifico: pal };
}

/** The last round's result as text under the table (and each hand with its dice). */
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
      h("h3", { text: isPoker(S) ? _("{round}: what was under the cup", { round: d.title }) : d.palifico ? _("{round} (palifico): what was under the cups", { round: d.title }) : _("{round}: what was under the cups", { round: d.title }) }),
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

/** Seats from winner to first out: the server's `room.ranking`, else from the results. */
export function ranking(S) {
  const room = S.room;
  if (Array.isArray(room.ranking) && room.ranking.length) return room.ranking;
  const v = S.view;
  if (!v || !v.names) return [];
  const n = v.names.length;
  const outAt = new Array(n).fill(Infinity);
  (v.results || []).forEach((res, r) => {
    if (isPoker(S)) {
      for (const s of res.eliminated || []) if (outAt[s] === Infinity) outAt[s] = r;
      (res.lives || []).forEach((l, s) => {
        if (l === 0 && outAt[s] === Infinity) outAt[s] = r;
      });
    } else {
      for (const [name, left] of Object.entries(res.dice || {})) {
        const s = v.names.indexOf(name);
        if (s >= 0 && left === 0 && outAt[s] === Infinity) outAt[s] = r;
      }
    }
  });
  const seats = [...Array(n).keys()];
  seats.sort((a, b) => {
    if (a === v.winner) return -1;
    if (b === v.winner) return 1;
    return outAt[b] - outAt[a] || a - b;
  });
  return seats;
}

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
