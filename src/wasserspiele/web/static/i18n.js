// English and German strings; the browser's language picks, the header's menu switches.
const STRINGS = {
  en: {
    app_title: "Wasserspiele", language: "Language",
    lobby: "Lobby", new_table: "New table", game: "Game", options: "Options", seats: "Seats",
    seat: "Seat {n}", human: "Human", bot: "Bot", create: "Create table", creating: "Creating …",
    open_tables: "Open tables", finished_tables: "Finished tables", none_yet: "None yet.",
    watch: "Watch", replay: "Replay", moves_n: "{n} moves",
    links_title: "Table created — share each seat's link with its player",
    seat_link: "Seat {n}", spectator_link: "Spectators", open_seat: "Play seat {n}",
    level_easy: "easy", level_medium: "medium", level_hard: "hard", level_expert: "expert",
    yes: "yes", no: "no", null_value: "none",
    connecting: "Connecting …", reconnecting: "Connection lost — reconnecting …",
    spectating: "You are watching.", you_are: "You play seat {n}.",
    your_turn: "Your turn.", waiting_for: "Waiting for {who}.", you_chose: "You chose {a} — waiting for the others.",
    chosen: "has chosen", game_over: "Game over.", winners: "Winners: {who}.", no_winner: "No winner.",
    refused: "Refused: {reason}", log: "Last actions", score: "Score", result: "Result",
    online: "online", offline: "offline", thinking: "thinking …", bot_short: "bot",
    cancel: "Clear selection", pick_hint: "Tap a highlighted card or place; choices appear here.",
    replay_title: "Replay", step: "Move {i} of {n}", first: "◀◀", prev: "◀", next: "▶", last: "▶▶",
    play_btn: "▶ play", pause_btn: "⏸ pause", record: "Download record", to_replay: "Watch the replay",
    err_stale: "the position changed before your move arrived; here is the new one",
    err_not_your_turn: "it is not your turn", err_game_over: "the game is over",
    err_already_chosen: "you have already chosen", err_spectator: "spectators cannot move",
    err_bad_token: "this seat link is not valid", err_no_table: "no such table",
    err_too_large: "message too large", err_bad_message: "malformed message", err_too_many: "too many messages",
    round: "Round {n}", hand_no: "Hand {n}", pile: "Pile: {n}", you: "you", team: "Team {n}",
    total: "Total", cards_n: "{n} cards", cards_n_1: "1 card", moves_n_1: "1 move",
    bot_named: "Bot ({level})", to_move: "to move", your_hand: "Your hand", board: "Board", details: "Details",
    choices: "Your choices", not_now: "That is not one of your choices right now.",
    not_your_turn_now: "It is not your turn.", replaced: "This seat was opened in another tab or window; this one has stopped.",
    take_back: "Play here again", hint: "Hint", hint_is: "The expert bot suggests: {a}", rules: "Rules",
    rules_of: "Rules of {g}", rematch: "Rematch", join_rematch: "Go to the rematch", my_tables: "My tables",
    forget: "Forget", forget_l: "Forget table {id}", prev_hand: "◀ hand", next_hand: "hand ▶",
    first_l: "First move", prev_l: "Previous move", next_l: "Next move", last_l: "Last move", speed: "Speed",
    your_name: "Your name", save_name: "Save", summary: "Summary",
    card_name: "{r} of {s}", card_hidden: "face-down card", card_empty: "empty place", card_joker: "joker",
    card_joker_as: "joker standing for {r}", suit_C: "clubs", suit_D: "diamonds", suit_H: "hearts", suit_S: "spades",
    rank_A: "ace", rank_K: "king", rank_Q: "queen", rank_J: "jack", rank_T: "10", rank_9: "9", rank_8: "8",
    rank_7: "7", rank_6: "6", rank_5: "5", rank_4: "4", rank_3: "3", rank_2: "2",
  },
  de: {
    app_title: "Wasserspiele", language: "Sprache",
    lobby: "Lobby", new_table: "Neuer Tisch", game: "Spiel", options: "Optionen", seats: "Plätze",
    seat: "Platz {n}", human: "Mensch", bot: "Bot", create: "Tisch eröffnen", creating: "Wird eröffnet …",
    open_tables: "Offene Tische", finished_tables: "Beendete Tische", none_yet: "Noch keine.",
    watch: "Zuschauen", replay: "Wiederholung", moves_n: "{n} Züge",
    links_title: "Tisch eröffnet — gib jedem Spieler den Link seines Platzes",
    seat_link: "Platz {n}", spectator_link: "Zuschauer", open_seat: "Platz {n} spielen",
    level_easy: "leicht", level_medium: "mittel", level_hard: "schwer", level_expert: "Experte",
    yes: "ja", no: "nein", null_value: "keine",
    connecting: "Verbinde …", reconnecting: "Verbindung verloren — verbinde neu …",
    spectating: "Du schaust zu.", you_are: "Du spielst Platz {n}.",
    your_turn: "Du bist am Zug.", waiting_for: "Warte auf {who}.", you_chose: "Du hast {a} gewählt — warte auf die anderen.",
    chosen: "hat gewählt", game_over: "Spielende.", winners: "Gewonnen: {who}.", no_winner: "Kein Sieger.",
    refused: "Nicht erlaubt: {reason}", log: "Letzte Züge", score: "Punkte", result: "Ergebnis",
    online: "online", offline: "offline", thinking: "überlegt …", bot_short: "Bot",
    cancel: "Auswahl aufheben", pick_hint: "Tippe eine markierte Karte oder einen Platz; die Wahl erscheint hier.",
    replay_title: "Wiederholung", step: "Zug {i} von {n}", first: "◀◀", prev: "◀", next: "▶", last: "▶▶",
    play_btn: "▶ abspielen", pause_btn: "⏸ anhalten", record: "Partie herunterladen", to_replay: "Wiederholung ansehen",
    err_stale: "die Stellung hat sich vor deinem Zug geändert; hier ist die neue",
    err_not_your_turn: "du bist nicht am Zug", err_game_over: "das Spiel ist vorbei",
    err_already_chosen: "du hast schon gewählt", err_spectator: "Zuschauer können nicht ziehen",
    err_bad_token: "dieser Platz-Link ist ungültig", err_no_table: "diesen Tisch gibt es nicht",
    err_too_large: "Nachricht zu groß", err_bad_message: "fehlerhafte Nachricht", err_too_many: "zu viele Nachrichten",
    round: "Durchgang {n}", hand_no: "Spiel {n}", pile: "Stapel: {n}", you: "du", team: "Team {n}",
    total: "Summe", cards_n: "{n} Karten", cards_n_1: "1 Karte", moves_n_1: "1 Zug",
    bot_named: "Bot ({level})", to_move: "am Zug", your_hand: "Deine Hand", board: "Spielplan", details: "Details",
    choices: "Deine Wahl", not_now: "Das kannst du gerade nicht wählen.",
    not_your_turn_now: "Du bist nicht am Zug.", replaced: "Dieser Platz wurde in einem anderen Tab oder Fenster geöffnet; hier ist er beendet.",
    take_back: "Wieder hier spielen", hint: "Tipp", hint_is: "Der Experten-Bot schlägt vor: {a}", rules: "Regeln",
    rules_of: "Regeln: {g}", rematch: "Revanche", join_rematch: "Zur Revanche", my_tables: "Meine Tische",
    forget: "Vergessen", forget_l: "Tisch {id} vergessen", prev_hand: "◀ Spiel", next_hand: "Spiel ▶",
    first_l: "Erster Zug", prev_l: "Voriger Zug", next_l: "Nächster Zug", last_l: "Letzter Zug", speed: "Tempo",
    your_name: "Dein Name", save_name: "Speichern", summary: "Zusammenfassung",
    card_name: "{s}-{r}", card_hidden: "verdeckte Karte", card_empty: "leerer Platz", card_joker: "Joker",
    card_joker_as: "Joker als {r}", suit_C: "Kreuz", suit_D: "Karo", suit_H: "Herz", suit_S: "Pik",
    rank_A: "Ass", rank_K: "König", rank_Q: "Dame", rank_J: "Bube", rank_T: "10", rank_9: "9", rank_8: "8",
    rank_7: "7", rank_6: "6", rank_5: "5", rank_4: "4", rank_3: "3", rank_2: "2",
  },
};

// Per-game words (option names, actions, pieces), merged in by the game modules.
export function addStrings(table) {
  for (const lang of Object.keys(STRINGS)) Object.assign(STRINGS[lang], table[lang] || {});
}

function initialLang() {
  const saved = localStorage.getItem("lang");
  if (saved && STRINGS[saved]) return saved;
  const nav = (navigator.languages || [navigator.language || "en"]).map((l) => l.slice(0, 2).toLowerCase());
  return nav.find((l) => STRINGS[l]) || "en";
}

export let lang = initialLang();

export function setLang(l) {
  if (!STRINGS[l]) return;
  lang = l;
  localStorage.setItem("lang", l);
  document.documentElement.lang = l;
}

export function has(key) { return key in STRINGS[lang] || key in STRINGS.en; }

// How a seat is called: its player's name, "Easy bot", or "Seat 2" (set by the page).
let seatNamer = (n) => t("seat", { n });
export function setSeatNamer(fn) { seatNamer = fn; }
export function seatLabel(n) { return seatNamer(n); }

// The one place where log lines, announcements and refusals become words.  Today the
// templates are the ones above; a server message catalogue keyed by the same codes
// (code + params) plugs in here.
export function say(code, params = {}) {
  const out = { ...params };
  if (params.seat !== undefined && params.who === undefined) out.who = seatLabel(params.seat);
  return t(code, out);
}

export function refusalText(data) {
  // the server's catalogue message (in the language sent with hello) first
  if (data.message) return data.message;
  const key = "err_" + data.code;
  const local = t(key);
  return local !== key && lang !== "en" ? local : (data.reason || local);
}

export function t(key, params = {}) {
  // a singular form "KEY_1" is used when n is 1 ("1 card", not "1 cards")
  if (params.n === 1 || params.n === "1") key = (STRINGS[lang][key + "_1"] ?? STRINGS.en[key + "_1"]) !== undefined ? key + "_1" : key;
  let s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  for (const [k, v] of Object.entries(params)) s = s.replaceAll(`{${k}}`, v);
  return s;
}
