// The shapes of what the browser client handles, for the type checker only (`make lint` runs
// `tsc --checkJs`, tsconfig.json): the server's frames (docs/PROTOCOL.md), the room's state
// in the page (store.js), a rule family's interface (family.js) and the HTTP answers the
// pages read. No module imports this one at run time: the others name its types in their
// JSDoc comments, as `import("./types.js").View`.

export {};

// ---------------------------------------------------------------- moves

/**
 * A face: a number in the bidding family (1..12), a symbol in poker dice ("9", "10", "J",
 * "Q", "K", "A").
 * @typedef {number | string} Face
 */

/**
 * The bidding family's bid: `{"kind": "bid", "quantity": 3, "face": 5}`.
 * @typedef {{kind: "bid", quantity: number, face: number}} BidMove
 */
/** @typedef {{kind: "call", call: string}} CallMove A call: "liar", "exact". */
/** @typedef {{kind: "show", dice: number[]}} ShowMove Show-and-reroll: the dice shown. */
/** @typedef {{kind: "no_show"}} NoShowMove */
/** @typedef {{kind: "buy"}} BuyMove */
/** @typedef {{kind: "ask", question: string}} AskMove "turn" or "count". */
/**
 * Poker dice's claim: `category` (junk, high, pair, two pair, three, straight, full house,
 * four, five), the ranks it names and its other dice (`kickers`, highest first).
 * @typedef {{kind: "claim", category: string, ranks: string[], kickers: string[]}} ClaimMove
 */
/** @typedef {{kind: "accept"}} AcceptMove */
/** @typedef {{kind: "pass", direction: string}} PassMove "left" or "right". */
/** @typedef {{kind: "arrange", outside: string[]}} ArrangeMove The dice left outside the cup. */
/** @typedef {{kind: "roll", shake: boolean, dice: string[]}} RollMove */
/** @typedef {{kind: "keep", dice: string[]}} KeepMove */

/**
 * A move structured (docs/PROTOCOL.md, "Moves"): what `legal`, `history`, the `action`
 * events, the bid to beat and a result's bid carry beside their notation.
 * @typedef {BidMove | CallMove | ShowMove | NoShowMove | BuyMove | AskMove | ClaimMove | AcceptMove | PassMove | ArrangeMove | RollMove | KeepMove} Move
 */

/**
 * One of the view's legal moves: the `action` integer to send, its notation and its
 * structured move; a bidding bid's `chance` from the seat's own view.
 * @typedef {object} LegalEntry
 * @property {number} action
 * @property {string} text
 * @property {Move} move
 * @property {number} [chance]
 */

// ---------------------------------------------------------------- the room

/**
 * A seat of `room.seats`.
 * @typedef {object} Seat
 * @property {number} seat
 * @property {string} name
 * @property {string} kind "human" or "bot"
 * @property {string | null} level a bot's level ("prob")
 * @property {boolean} connected
 * @property {boolean} [away]
 * @property {boolean} [left] the player left during the game: a bot plays the seat
 * @property {string | null} player the rated identity
 * @property {number | null} [rating]
 * @property {number | null} [position] where this seat played in the current (or last) game
 */

/**
 * The running turn timer: `deadline` on the server's clock (epoch seconds).
 * @typedef {{seat: number, deadline: number, seconds: number}} Timer
 */

/**
 * The server's reveal timeline (seconds).
 * @typedef {{counted: number, lift: number, step: number, pause: number, verdict_at: number, hold: number}} RevealPlan
 */

/**
 * `room.reveal`: the reveal phase after a call.
 * @typedef {object} RevealPhase
 * @property {number} game_no
 * @property {number} round
 * @property {number} seconds
 * @property {number | null} deadline
 * @property {number[]} waiting
 * @property {number[]} ready
 * @property {number[]} held_by
 * @property {RevealPlan | null} plan
 */

/**
 * The frames' `room`: the public facts of a room.
 * @typedef {object} Room
 * @property {string} id
 * @property {string} preset
 * @property {string} family
 * @property {Record<string, unknown>} options
 * @property {string} status "lobby", "playing" or "finished"
 * @property {number} game_no
 * @property {number} [seq]
 * @property {number} host
 * @property {boolean} [private]
 * @property {boolean} [locked]
 * @property {number | null} turn_timer
 * @property {Timer | null} timer
 * @property {{faces: number, wild: number | null} | null} [rules]
 * @property {Seat[]} seats
 * @property {number[]} [wins]
 * @property {Record<string, number>} [wins_by_name]
 * @property {number[] | null} [ranking]
 * @property {number} [spectators]
 * @property {number[]} [games]
 * @property {RevealPhase} [reveal]
 */

// ---------------------------------------------------------------- the view

/**
 * A finished round of `view.results`. Bidding results name players (`caller`, `bidder`,
 * `reveal`, `losses`, `dice` by name); poker results give positions.
 * @typedef {object} RoundResult
 * @property {string} [bid]
 * @property {Move} bid_move
 * @property {number} [count]
 * @property {string} call
 * @property {string | number} caller
 * @property {string | number} bidder
 * @property {Record<string, number>} [losses]
 * @property {Record<string, number>} [gains]
 * @property {Record<string, number>} [dice] dice left by name (bidding)
 * @property {Record<string, number[]>} [reveal] every player's dice at the call (bidding)
 * @property {number[] | null} [stash]
 * @property {boolean} [palifico]
 * @property {string | number | null} [next_opener] (a name in the bidding family, a position in poker dice)
 * @property {string[]} [hand] the hand under the cup (poker)
 * @property {Move} [reading_move]
 * @property {boolean} [stood]
 * @property {number | null} [loser]
 * @property {number[]} [lives]
 * @property {number[]} [eliminated]
 * @property {string[][]} [attempts]
 * @property {boolean} [success]
 */

/**
 * "While you were away": what the computer played for the seat.
 * @typedef {{seq: number, moves: number, from?: number, to?: number, unit?: string}} AwaySummary
 */

/**
 * `current_bid_odds`: the bid to beat's chances from the recipient's own view.
 * @typedef {{at_least: number, exactly: number, known: number, unseen: number}} BidOdds
 */

/**
 * The frames' `view`: the rules core's view of the recipient's seat plus the server's
 * fields. One shape for both families: each family's module reads its own fields (bidding:
 * `my_dice`, `dice_counts`, `shown`, `stash`...; poker: `cup`, `outside`, `lives`...). The
 * replay builds one too (replay.js).
 * @typedef {object} View
 * @property {string[]} names
 * @property {number} game_no
 * @property {number} round
 * @property {string} [phase]
 * @property {number} to_move -4 once the game is over, below 0 while dice roll
 * @property {number | null} [viewer]
 * @property {number | null} [player]
 * @property {LegalEntry[]} [legal]
 * @property {RoundResult[]} [results]
 * @property {string | null} current_bid
 * @property {Move | null} current_bid_move
 * @property {number | null} bidder the position whose bid stands (-1 or null: none)
 * @property {number | null} winner
 * @property {string[]} [bids]
 * @property {boolean} [palifico]
 * @property {AwaySummary} [away_summary]
 * @property {number[]} [my_dice]
 * @property {number[]} [dice_counts]
 * @property {number} [dice_in_play]
 * @property {number[][]} [shown]
 * @property {number[] | null} [stash]
 * @property {number} [stash_size]
 * @property {number[]} [chips]
 * @property {BidOdds | null} [current_bid_odds]
 * @property {string[]} [cup]
 * @property {string[]} [outside]
 * @property {number} [cup_count]
 * @property {number} [direction]
 * @property {number} [holder]
 * @property {number[]} [lives]
 * @property {string[]} [passed_cup]
 * @property {Move | null} [hand_claim]
 * @property {string[]} [hand] the replay's: every die of the round
 * @property {string[]} [under] the replay's: the dice under the cup
 */

// ---------------------------------------------------------------- frames

/**
 * An update's event (every kind's fields in one shape; `kind` says which it has).
 * @typedef {object} RoomEvent
 * @property {number} [seq] (presence and notices have none)
 * @property {string} kind
 * @property {number | null} [seat]
 * @property {string} [name]
 * @property {string} [text]
 * @property {number} [action]
 * @property {Move} [move]
 * @property {boolean | null} [auto]
 * @property {boolean | null} [timeout]
 * @property {number} [game_no]
 * @property {number} [round]
 * @property {number | null} [winner]
 * @property {boolean} [away]
 * @property {boolean} [connected]
 */

/**
 * A move of the snapshot's `history` (and of the log: store.js).
 * @typedef {object} HistoryEntry
 * @property {number} seq
 * @property {number} [round]
 * @property {number} seat
 * @property {string} text
 * @property {Move} move
 * @property {boolean} [auto]
 * @property {boolean} [timeout]
 */

/**
 * A frame's `data` (every type's fields in one shape; the frame's `type` says which it has).
 * @typedef {object} FrameData
 * @property {number} [seq]
 * @property {number} [from_seq]
 * @property {number | null} [seat]
 * @property {string} [role]
 * @property {boolean | string} [host]
 * @property {Room} [room]
 * @property {View | null} [view]
 * @property {RoomEvent[]} [events]
 * @property {RoomEvent[]} [chat]
 * @property {HistoryEntry[]} [history]
 * @property {number} [now]
 * @property {string} [reply_to]
 * @property {string} [code]
 * @property {string} [message]
 * @property {InvalidDetail[] | null} [details]
 */

/**
 * A frame, both ways: `{"type": "update", "version": 1, "data": {...}}`.
 * @typedef {{type: string, version?: number, data: FrameData}} Frame
 */

/**
 * One problem of an `invalid` error.
 * @typedef {{field: string | null, problem: string, limit: number | null}} InvalidDetail
 */

// ---------------------------------------------------------------- the room's state

/**
 * The game's log: round -> its moves.
 * @typedef {{game: number | null, rounds: Record<number, HistoryEntry[]>}} GameLog
 */

/**
 * The room's state in the page (store.js): the server's frames and nothing else.
 * @typedef {object} RoomState
 * @property {string} id
 * @property {number | null} seat my seat, or null when watching
 * @property {string} role
 * @property {boolean} host
 * @property {boolean} welcomed
 * @property {Room | null} room
 * @property {View | null} view
 * @property {Map<number, RoomEvent>} chat
 * @property {GameLog} log
 * @property {{seat: number, at: number, seconds: number} | null} timerLocal
 * @property {(RevealPhase & {endsAt: number | null}) | null} reveal
 * @property {Set<string>} palificoSeen
 */

/**
 * What the drawing functions read: the room's state, the odds toggle and the move in flight
 * (app.js's `tableState`; the replay makes one of its own).
 * @typedef {RoomState & {oddsOn: boolean, pending?: string | null}} TableState
 */

// ---------------------------------------------------------------- the families

/**
 * A result in words: its title, its sentences, the note (a palifico round), every hand
 * `[name, faces]`, which dice counted and whether it was a palifico round.
 * @typedef {object} ResultWords
 * @property {string} title
 * @property {string[]} sentences
 * @property {string | null} note
 * @property {[string, Face[]][]} hands
 * @property {(face: Face) => boolean} matches
 * @property {boolean} palifico
 */

/**
 * What the reveal lifts and counts: the dice by position (-1: the centre's), the counted
 * ones `[position, index]` in order, the losses by position, the caller's and the bidder's.
 * @typedef {object} RevealCount
 * @property {Map<number, Face[]>} seats
 * @property {[number, number][]} order
 * @property {Map<number, number>} losses
 * @property {number} callerSeat
 * @property {number} bidderSeat
 */

/**
 * The reveal in progress (reveal.js's RevealController).
 * @typedef {RevealCount & {
 *   S: TableState, res: RoundResult, index: number, family: Family, d: ResultWords,
 *   lit: number, phase: string, key: string, timeline?: {lift: number, step: number, verdictAt: number, hold: number},
 *   phaseInfo?: RevealPhase | null, done?: boolean, waited?: boolean, continued?: boolean,
 * }} Reveal
 */

/**
 * What a plate or the reveal draws: a signature (redrawn only when it changes) and the
 * function that builds the children.
 * @typedef {{sig: unknown, build: () => import("./dom.js").Child[]}} Drawing
 */

/**
 * What the table asks of the reveal: the RevealController (reveal.js), or the replay's own
 * (replay.js: every seat's dice face up).
 * @typedef {object} TableReveal
 * @property {() => boolean} active a reveal is on
 * @property {(seat: number) => boolean} losesAt the seat loses dice in the reveal's verdict
 * @property {(seat: number) => Drawing | null} diceFor what the seat's plate draws, or null
 */

/**
 * A seat's facts for its plate (table.js's renderSeats).
 * @typedef {{p: number, i: number, seat: Seat, count: number, out: boolean, over: boolean, isPlaying: boolean}} PlateFacts
 */

/**
 * A tip of the first-game walkthrough.
 * @typedef {{id: string, order: number, when: (S: TableState) => boolean, text: string}} Tip
 */

/**
 * A group of presets in the lobby's picker.
 * @typedef {{label: string, order: number, presets: Preset[]}} PresetGroup
 */

/**
 * A button's words: [text, class, the aria-label given the bid to beat in words].
 * @typedef {[string, string, (cur: string) => string]} ButtonWords
 */

/**
 * A family's move controls (family-*-moves.js).
 * @typedef {{build: (S: TableState, cur: string) => import("./dom.js").Child[]}} Controls
 */

/**
 * A die of a dice picker in the tray: its face, the tray's zone, picked or not, its label.
 * @typedef {object} PickDie
 * @property {Face} face
 * @property {boolean} picked
 * @property {{key: string, label: string, mine: boolean}} zone
 * @property {string} src
 * @property {string} label
 * @property {boolean} [out]
 * @property {() => unknown} [onpick] a die that stands for a choice of its own
 */

/**
 * The tray's dice selection (moves.js's dicePicker).
 * @typedef {{mode: string, title: string, caption: string, dice: PickDie[], toggle?: (i: number) => void}} Selection
 */

/**
 * What the replay's family reads to lay out a step's table.
 * @typedef {object} ReplayStep
 * @property {GameRecord} record
 * @property {RecordRound} rd the round
 * @property {RecordMove[]} moves the moves made so far
 * @property {SummaryRound[]} rounds
 * @property {number} r
 * @property {number} toMove
 * @property {number} bidder the position whose bid stands (-1: none)
 * @property {number} direction
 */

/**
 * A rule family in the browser (family.js), as the server's `families/base.py`: the shared
 * modules call these and never ask which family they have.
 * @typedef {object} Family
 * @property {string} name
 * @property {string} title
 * @property {Record<string, string>} titles each preset's title
 * @property {(presets: Preset[]) => PresetGroup[]} lobbyGroups
 * @property {() => string} optionsHint
 * @property {boolean} hasOdds
 * @property {(text: string) => Move | null} readMove notation (records, analyses) as a move
 * @property {(move: Move) => string} bidWords
 * @property {(move: Move, you?: boolean) => string} moveWords
 * @property {(move: Move) => boolean} isBid
 * @property {(view: View, seat: number) => number | null} stock
 * @property {(view: View, seat: number) => number | null} finalStock
 * @property {(view: View) => number[]} outRounds
 * @property {(S: TableState, game: number, round: number, res?: RoundResult | null) => boolean} palifico
 * @property {(S: TableState, facts: PlateFacts) => Drawing} plateStock
 * @property {() => string} ownBidLabel
 * @property {(bid: Move, text: string) => HTMLElement} bidPicture
 * @property {(S: TableState) => {sig: unknown, parts: HTMLElement[]}} centre
 * @property {(el: HTMLElement, heading: HTMLElement, S: TableState, attrs: Record<string, unknown>) => void} tray
 * @property {(S: TableState) => {sig: unknown, node: HTMLElement | null}} trayExtra
 * @property {(S: TableState, res: RoundResult, index: number, game?: number) => ResultWords} describeResult
 * @property {(d: ResultWords) => string} resultHeading
 * @property {(S: TableState, res: RoundResult, d: ResultWords) => RevealCount} revealCount
 * @property {(r: Reveal, who: (seat: number) => string) => HTMLElement[]} revealStage
 * @property {(S: TableState) => string} moveContext
 * @property {(picker: import("./moves.js").MovePicker) => Controls} controls
 * @property {(S: TableState, entry: LegalEntry) => string | null} [oddsPercent]
 * @property {Tip[]} tips
 * @property {(view: View, step: ReplayStep) => Map<number, Face[]>} replayView
 * @property {(rd: RecordRound) => HTMLElement[]} replayHands
 * @property {(view: View) => import("./dom.js").Child[] | null} replayAside
 * @property {(round: SummaryRound) => string} describeSummary
 */

// ---------------------------------------------------------------- HTTP answers

/**
 * A preset of `GET /api/presets`.
 * @typedef {{name: string, family?: string, description?: string, rules?: string[]}} Preset
 */

/**
 * A move of a game's JSON record (docs/RECORD.md): the player and the move's own keys.
 * @typedef {object} RecordMove
 * @property {string} player
 * @property {string} [bid]
 * @property {string} [call]
 * @property {number[]} [show]
 * @property {Face[]} [reroll] (numbers in the bidding family, symbols in poker dice)
 * @property {number[]} [buy]
 * @property {string} [ask]
 * @property {string} [pass]
 * @property {boolean} [accept]
 * @property {string[]} [out]
 * @property {boolean} [shake]
 * @property {string[]} [rolled]
 * @property {{keep: string[], rolled?: string[]}[]} [attempts]
 */

/**
 * A round of a game's JSON record.
 * @typedef {object} RecordRound
 * @property {string} [opener]
 * @property {Record<string, number[]>} [dice] (bidding)
 * @property {number[] | null} [stash]
 * @property {string[]} [roll] the opening roll (poker)
 * @property {RecordMove[]} moves
 */

/**
 * A game's JSON record (`GET .../record?format=json`).
 * @typedef {{rules: string, players: string[], options?: Record<string, unknown>, rounds: RecordRound[]}} GameRecord
 */

/**
 * A round of the replay summary (`liarsdice replay --json`).
 * @typedef {object} SummaryRound
 * @property {string} [bid]
 * @property {number} [count]
 * @property {string} call
 * @property {string} [caller]
 * @property {string} [bidder]
 * @property {string} [accepter]
 * @property {Record<string, number>} [losses]
 * @property {Record<string, number>} [lives]
 * @property {string[]} [hand]
 * @property {boolean} [stood]
 * @property {boolean} [success]
 */

/**
 * The replay summary (`GET .../record?format=summary`).
 * @typedef {{ok: boolean, rounds: SummaryRound[], winner: string | null}} ReplaySummary
 */

/**
 * A move of a game's analysis (docs/ANALYSIS.md).
 * @typedef {object} AnalysedMove
 * @property {number} round
 * @property {string} player
 * @property {string} played
 * @property {string | null} faced
 * @property {string | null} expert
 * @property {string | null} best
 * @property {boolean} agrees
 * @property {string | null} mark
 * @property {boolean} [computer]
 * @property {number | null} p_known
 * @property {number | null} p_actual
 * @property {number | null} loss
 * @property {number | null} value
 * @property {number | null} best_value
 */

/**
 * A player's summary in a game's analysis.
 * @typedef {object} AnalysedPlayer
 * @property {number} decisions
 * @property {number} [computer]
 * @property {number} judged
 * @property {number} agreed
 * @property {number} inaccuracies
 * @property {number} mistakes
 * @property {number} blunders
 * @property {number | null} average_loss
 */

/**
 * A game's analysis (`GET .../analysis`).
 * @typedef {object} Analysis
 * @property {string} family
 * @property {string} rules
 * @property {string[]} seats
 * @property {string | null} winner
 * @property {string} values "win", "points" or "lose_life"
 * @property {{inaccuracy: number, mistake: number, blunder: number}} thresholds
 * @property {AnalysedMove[]} moves
 * @property {Record<string, AnalysedPlayer>} players
 */

/**
 * A room of `GET /api/rooms`.
 * @typedef {{id: string, preset: string, family: string, status: string, game_no: number, players: number, seats: string[], spectators: number, turn_timer: number | null}} ListedRoom
 */

/**
 * A rated game of a player's page.
 * @typedef {{room: string, game_no: number, family: string, preset?: string, place?: number, players?: number | string[], rating?: number | null, at?: string | number | null}} RecentGame
 */

/**
 * A player's ratings in one family.
 * @typedef {{rating?: number | null, games?: number, wins?: number, calls_made?: number, calls_won?: number, recent?: RecentGame[]}} FamilyStats
 */

/**
 * A player of the leaderboard or of `GET /api/players/{id}`.
 * @typedef {FamilyStats & {player: string, name: string, kind?: string, level?: string | null, tag?: string, family?: string, families?: Record<string, FamilyStats>}} PlayerInfo
 */

/**
 * This browser's identity (api.js): its player id and token, or nulls on an older server.
 * @typedef {{player: string | null, token: string | null, name: string}} Identity
 */
