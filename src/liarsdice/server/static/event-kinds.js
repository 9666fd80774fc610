// Written by `python -m liarsdice.server.room_events` from the server's event
// classes (server/room_events.py): do not edit; tests fail when it is out of date.

/** The kinds of a room's logged events, as `update` frames name them. */
export const EVENT = Object.freeze({
  ROOM_CREATED: "room_created",
  SEAT_JOINED: "seat_joined",
  CLIENT_SEED: "client_seed",
  SEAT_REMOVED: "seat_removed",
  SEAT_LEFT: "seat_left",
  HOST_CHANGED: "host_changed",
  SETTINGS: "settings",
  LOCKED: "locked",
  BANNED: "banned",
  CHAT: "chat",
  ROOM_CLOSED: "room_closed",
  FAIR_ROUND: "fair_round",
  GAME_STARTED: "game_started",
  CHANCE: "chance",
  ACTION: "action",
  FAIR_REVEAL: "fair_reveal",
  REVEAL: "reveal",
  REVEAL_OVER: "reveal_over",
  GAME_OVER: "game_over",
});
