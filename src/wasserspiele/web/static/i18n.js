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
    total: "Total", cards_n: "{n} cards",
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
    total: "Summe", cards_n: "{n} Karten",
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

export function t(key, params = {}) {
  let s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  for (const [k, v] of Object.entries(params)) s = s.replaceAll(`{${k}}`, v);
  return s;
}
