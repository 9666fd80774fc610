"""The browser client's structure, checked in a real browser (Debian's chromium through
Playwright; ``LIARSDICE_SKIP_BROWSER=1`` skips it): the room's state is one store fed only
by the server's frames (``static/store.js``: every state a new frozen value, readers cannot
change it). The families' modules are checked by ``tests/test_architecture.py`` (no family
test outside them) and by every browser test that plays a game of each family.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import e2e_util as e2e

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# A welcome, a snapshot, an update, an error and a frame for a seat the room no longer has,
# given to one store; what each state holds, and whether the earlier states stayed as they were.
STORE_JS = """async () => {
  'use strict'; // as the page's modules are: a write to a frozen value throws
  const { RoomStore } = await import('/static/store.js');
  const store = new RoomStore('r1');
  const seats = [{seat: 0, name: 'ann'}, {seat: 1, name: 'bob'}];
  const room = {family: 'bidding', status: 'playing', host: 0, seats,
                timer: {seat: 1, deadline: 110, seconds: 30}};
  const view = {game_no: 1, round: 0, palifico: true, names: ['ann', 'bob']};
  const bid = (quantity, face) => ({kind: 'bid', quantity, face});
  const first = store.state;
  store.apply({type: 'welcome', data: {seat: 0, role: 'player'}});
  store.apply({type: 'snapshot', data: {seat: 0, room, view, now: 100,
    chat: [{seq: 3, kind: 'chat', seat: 1, text: 'hi'}],
    history: [{seq: 5, round: 0, seat: 1, text: '2x4', move: bid(2, 4)}]}});
  const snap = store.state;
  const tries = [
    () => { snap.room.status = 'lobby'; }, () => { snap.view.round = 5; },
    () => { snap.log.rounds[0].push({seq: 9}); }, () => { snap.seat = 1; },
  ];
  const refused = tries.map((f) => {
    try { f(); return false; } catch (e) { return e instanceof TypeError; }
  });
  const before = store.apply({type: 'update', data: {seat: 0, now: 101,
    room: {...room, timer: null}, view: {...view, round: 1, palifico: false},
    events: [{seq: 6, kind: 'action', seat: 0, text: 'liar', move: {kind: 'call', call: 'liar'}},
             {seq: 7, kind: 'fair_round', game_no: 1, round: 1},
             {seq: 8, kind: 'action', seat: 1, text: '1x3', move: bid(1, 3)},
             {seq: 9, kind: 'chat', seat: 1, text: 'gg'}]}});
  const upd = store.state;
  const same = store.apply({type: 'error', data: {code: 'stale', message: 'x'}}) === upd;
  const error = same && store.state === upd;
  store.apply({type: 'update', data: {seat: 2, events: [], room, view}});
  return {
    first: [first.seat, first.room, first.welcomed],
    snap: {seat: snap.seat, host: snap.host, welcomed: snap.welcomed, chat: snap.chat.size,
           log: snap.log, frozen: Object.isFrozen(snap) && Object.isFrozen(snap.room.seats[1]),
           timer: snap.timerLocal && [snap.timerLocal.seat, snap.timerLocal.seconds,
                                      Math.round((snap.timerLocal.at - Date.now()) / 1000)],
           palifico: [...snap.palificoSeen]},
    refused, beforeIsSnap: before === snap,
    snapAfter: [snap.room.status, snap.view.round, snap.log.rounds[0].length, snap.chat.size],
    upd: {log: upd.log, chat: [...upd.chat.keys()], timer: upd.timerLocal,
          palifico: [...upd.palificoSeen]},
    error, gone: store.state.seat,
  };
}"""


def test_the_room_store_changes_only_by_frames(browser: Browser, server: str) -> None:
    page = e2e.new_page(browser)
    page.goto(server + "/")
    got: dict[str, Any] = page.evaluate(STORE_JS)
    assert got["first"] == [None, None, False]
    snap = got["snap"]
    assert (snap["seat"], snap["host"], snap["welcomed"], snap["chat"]) == (0, True, True, 1)
    bid = {"kind": "bid", "quantity": 2, "face": 4}
    entry = {"seq": 5, "seat": 1, "text": "2x4", "move": bid, "auto": False, "timeout": False}
    assert snap["log"] == {"game": 1, "rounds": {"0": [entry]}}
    assert snap["frozen"]
    # the turn timer on the page's clock: 10 s left when the frame came (deadline - now)
    assert snap["timer"][:2] == [1, 30] and 9 <= snap["timer"][2] <= 10
    assert snap["palifico"] == ["1/0"]
    # nothing but a frame changes a state: each write is refused, the state is as it was
    assert got["refused"] == [True, True, True, True]
    assert got["snapAfter"] == ["playing", 0, 1, 1]
    assert got["beforeIsSnap"]
    upd = got["upd"]
    call = {"kind": "call", "call": "liar"}
    liar = {"seq": 6, "seat": 0, "text": "liar", "move": call, "auto": False, "timeout": False}
    raise_ = {**entry, "seq": 8, "text": "1x3", "move": {**bid, "quantity": 1, "face": 3}}
    assert upd["log"] == {"game": 1, "rounds": {"0": [entry, liar], "1": [raise_]}}
    assert upd["chat"] == [3, 9] and upd["timer"] is None and upd["palifico"] == ["1/0"]
    assert got["error"]  # an error frame is the page's to show: the state is the same value
    assert got["gone"] is None  # a seat the room no longer has: watching
    e2e.no_page_errors(page)
    page.context.close()
