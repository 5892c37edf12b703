// The browser client: lobby, live table (WebSocket), replay viewer.
// Rules never run here: the server sends this seat's view and its legal moves in
// notation; each game module maps a move to the elements a player clicks.
import { t, has, lang, setLang, addStrings, seatLabel, seatInText, seatInTextFor, sentence, setSeatNamer, refusalText, gameTitle,
         speaking, refusalNotice, pageError, byTheRules } from "./i18n.js";
import { h, fitTexts, SEAT_COLORS } from "./svg.js";
import { Picker, rovingTabIndex, keyboardHandler, rememberFocus, restoreFocus, measure, animateFrom, Pacer,
         announce, logList, panel, flyAway, keepTallest, fitBoard, StandIns, standInNews } from "./table.js";

// Each game's client module is where its manifest puts it (`client` in /api/games), loaded
// when a page first needs it: a table or a replay its own game's, the lobby none (its
// titles and words are in /api/games and the catalogue; a game that ships no catalogue, the
// test-only fifth game, brings its words in its module, loaded when it is chosen).  Loading
// all four on every page cost a table 69 kB of scripts (25.7 kB gzipped) it never ran.
// GAMES holds the modules loaded so far (looked up while drawing), MODULES their loads.
const GAMES = {};
const MODULES = new Map();
let gameList = null;
let titles = {};              // each game's titles by language, from /api/games
function gameData() {
  // one request for the page's life (the lobby's form and the modules' addresses share it);
  // a failed one is asked again next time
  if (!gameList) {
    gameList = api("/api/games").then((body) => {
      titles = Object.fromEntries(body.games.map((g) => [g.name, g.titles]));
      return body;
    }, (err) => { gameList = null; throw err; });
  }
  return gameList;
}
function gameModule(name) {
  if (!MODULES.has(name)) {
    MODULES.set(name, (async () => {
      const { games: list } = await gameData();
      const client = list.find((g) => g.name === name)?.client;
      if (!client) throw new Error(`no client module for ${name}`);
      const module = (await import(client)).default;
      addStrings(module.strings || {});
      GAMES[name] = module;
      return module;
    })().catch((err) => {
      MODULES.delete(name);   // not kept: a later call (the next reconnection) tries again
      // said in the page's language, whatever the browser's own words for the failure
      throw Object.assign(new Error(err?.message || String(err)),
                          { words: () => t("game_not_loaded", { game: titleOf(name) }) });
    }));
  }
  return MODULES.get(name);
}
// A game's title: the catalogue's, else its module's, else the manifest's from /api/games
// (every language it gives) for a game whose module is not loaded.
function titleOf(name, fallback) {
  return gameTitle(name, GAMES[name] || { title: titles[name] }, fallback);
}

const app = document.getElementById("app");
const show = (...nodes) => {
  app.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined && n !== false));
  fitTexts(app);
  scoreWordsWhole(app);
};

// On a phone a score table's heads may break anywhere (style.css), so that a long name of
// one word does not carry the table past its box; a head of short words was then broken
// inside a word where the table had the room to keep it whole: "Bot (schwer" over ")" at the
// end of a four-seat Wasserloch (390 px, German).  Each table shown is tried with its heads'
// words whole (`whole-words`) and keeps them so where it still fits its box.
const PHONE = matchMedia("(max-width: 600px)");
function scoreWordsWhole(root) {
  if (!PHONE.matches) return;
  for (const table of root.querySelectorAll("table.score")) {
    const box = table.parentElement;
    if (!box || !table.getClientRects().length) continue;    // not shown (a closed panel): as it was
    table.classList.add("whole-words");
    const style = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (table.getBoundingClientRect().width > room + 0.5) table.classList.remove("whole-words");
  }
}
let rerender = () => {};

// A drawing replaces a page's controls, and a tap pressed on one and released on its
// successor is no click (the browser sends none): a tap was lost whenever something came
// within it — at the table a message (another seat's pick in Wildwasser, a friend coming
// online, a reconnection attempt), in the lobby its lists of tables (a second "Create"
// pressed while the lists the first one asked for arrived).  While a pointer is down in
// `root` a drawing waits until it is up and its click has been handled (at most HOLD_MS:
// a finger resting on the glass does not stop the page).  `waits(flag)` is asked first by
// the page's drawing: true, and the drawing is made after the release, by `draw(flag)`
// (the flags of the drawings held meanwhile or-ed: the table's "from the server").
const HOLD_MS = 3000;
function heldDrawing(root, draw) {
  let pressedAt = null;
  let held = null;            // {flag, timer}: the drawing waiting for the release
  // (a press on a menu opens its list, whose release the page may never see: the lobby's
  // game chosen would have been drawn only HOLD_MS later)
  const pressed = (ev) => { if (!ev.target.closest?.("select")) pressedAt = performance.now(); };
  const released = () => {
    pressedAt = null;
    if (!held) return;
    const flag = held.flag;
    clearTimeout(held.timer);
    held = null;
    setTimeout(() => draw(flag));   // after the click this release makes
  };
  root.addEventListener("pointerdown", pressed, true);
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  return {
    waits(flag = false) {
      const pressing = pressedAt === null ? null : performance.now() - pressedAt;
      if (pressing === null || pressing >= HOLD_MS) return false;
      held ??= { flag: false, timer: setTimeout(released, HOLD_MS - pressing) };
      held.flag ||= flag;
      return true;
    },
    stop() {
      root.removeEventListener("pointerdown", pressed, true);
      clearTimeout(held?.timer);
      document.removeEventListener("pointerup", released, true);
      document.removeEventListener("pointercancel", released, true);
    },
  };
}

function applyStaticText() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
  document.title = t("app_title");
}

const langSelect = document.getElementById("lang");
langSelect.value = lang;
// A language whose words could not be loaded (the server or the network failed): the page
// stays in its own, the menu goes back to it and says why, rather than showing the new
// language over a page still in the old one (and an uncaught error)
const langFailed = document.getElementById("lang-failed");
langSelect.addEventListener("change", async () => {
  const asked = langSelect.value, name = langSelect.selectedOptions[0].textContent;
  try {
    await setLang(asked);
  } catch {
    if (langSelect.value === asked) langSelect.value = lang;
    langFailed.textContent = t("lang_not_loaded", { name });
    announce([langFailed.textContent]);
    return;
  }
  langFailed.textContent = "";
  applyStaticText();
  rerender();
});
applyStaticText();

async function api(path, options = {}) {
  const res = await fetch(path, { headers: { "content-type": "application/json" }, ...options });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw refusal(body, res.statusText);
  return body;
}

// A refusal keeps the server's answer, so that its words follow a language switch.
function refusal(body, fallback = "") {
  return Object.assign(new Error(refusalText(body) || fallback), { body, fallback });
}
function errorText(err) {
  return (err?.body && refusalText(err.body)) || err?.fallback || err?.message || String(err);
}

// A failed request as a notice: the server's refusal worded as refusalNotice words it (a
// server failure, "the database refuses every write", is no "Refused:" by the rules),
// else "Refused:" with what went wrong (the network, no answer); a failure of the page's
// own (a game's module not loaded) in its own words
function errorNotice(err) {
  if (err?.words) return err.words();
  return err?.body ? refusalNotice(err.body) : t("refused", { reason: errorText(err) });
}

function seatName(seat) { return t("seat", { n: seat }); }

// The lobby's controls, found again after a redraw (table.js rememberFocus) by their id,
// else their name or the table, seat or entry they stand for.
const LOBBY_FOCUS_ATTRS = ["name", "data-table", "data-my-table", "data-seat-link", "data-forget", "data-copy"];

// "My tables": the seats this browser plays, so a reload or a closed tab never loses a
// game; a seat is kept when its link is opened here (and the creator's own seat when a
// table is created: the other links are the friends', to be sent, not played here).
// Each entry: {table, seat, game, link, at (last open, ms), over, n}; newest first.
const MY_TABLES = "my_tables";
function myTables() {
  let list;
  try { list = JSON.parse(localStorage.getItem(MY_TABLES) || "[]"); } catch { list = []; }
  return Array.isArray(list) ? list.filter((e) => e && e.table && e.link).sort((a, b) => (b.at || 0) - (a.at || 0)) : [];
}
function remember(entry) {
  const rest = myTables().filter((e) => !(e.table === entry.table && e.seat === entry.seat));
  localStorage.setItem(MY_TABLES, JSON.stringify([{ ...myTables().find((e) => e.table === entry.table && e.seat === entry.seat), ...entry, at: Date.now() }, ...rest].slice(0, 50)));
}
function forget(entry) {
  localStorage.setItem(MY_TABLES, JSON.stringify(myTables().filter((e) => !(e.table === entry.table && e.seat === entry.seat))));
}

// When a table was last played here, in the page's language: "last played 5 minutes ago".
function playedWhen(at) {
  const secs = Math.max(0, (Date.now() - at) / 1000);
  if (secs < 60) return t("played_just_now");
  const units = [["minute", 60], ["hour", 3600], ["day", 86400], ["week", 604800], ["month", 2629800], ["year", 31557600]];
  let [unit, size] = units[0];
  for (const [u, s] of units) if (secs >= s) [unit, size] = [u, s];
  // "yesterday", else a number: "1 week ago" rather than "last week"
  const when = new Intl.RelativeTimeFormat(lang, { numeric: unit === "day" ? "auto" : "always" }).format(-Math.floor(secs / size), unit);
  return t("played_when", { when });
}

// Option help in the player's language: the game module's text, else the server's
// (without the rule clause ids a player cannot look up).
function optionHelp(game, o) {
  const key = `${game}.help.${o.name}`;
  const local = t(key);
  if (local !== key) return local;
  return (o.help || "").replace(/\s*\(?\b[A-Z]{2}-\d+(\.\d+)*[a-z]?\b\)?/g, "").trim();
}

// ---------------------------------------------------------------- lobby
// The games could not be fetched (the server failed, the network is down): the lobby said
// nothing, a blank page.  It says what failed, in the page's language (again after a
// language switch), and asks again at the press of a button, which keeps the focus.
function lobbyFailed(err, retried = false) {
  // the server's own words where it answered with a refusal, else whether it answered at all
  const reason = err?.body ? (refusalText(err.body) || t("lobby_failed_server")) : t("lobby_failed_network");
  show(h("h1", { class: "sr-only" }, t("lobby")),
    h("div", { class: "status refused", id: "lobby-error", role: "alert" }, t("lobby_failed", { reason })),
    h("div", { class: "row" }, h("button", { class: "primary", id: "lobby-retry", onclick: (e) => {
      e.currentTarget.disabled = true;
      lobby(true);
    } }, t("try_again"))));
  if (retried) document.getElementById("lobby-retry").focus();
  rerender = () => lobbyFailed(err);
}

async function lobby(retried = false) {
  let data;
  try { data = await gameData(); } catch (err) { lobbyFailed(err, retried); return; }
  const { games, levels } = data;
  let current = games[0];
  let wordsError = null;      // {game, err}: the chosen game's module, needed for its words, failed to load
  let values = {};
  let seatKinds = [];
  let created = null;
  let lists = { running: [], over: [] };
  let copied = null;          // {what, ok}: the link last copied (its button says so across redraws)
  const createdAlert = {};    // the refused creation last drawn as an alert (alertOnce)

  async function loadLists() {
    const [running, over] = await Promise.all([api("/api/tables?status=running"), api("/api/tables?status=over")]);
    lists = { running: running.tables, over: over.tables };
    render();
    document.body.dataset.lobby = "ready";  // the form will not be redrawn under the user now
  }

  // the seat rows follow the count typed, kept within the option's range (a count outside
  // it is the server's to refuse, naming the option; a billion rows would hang the page)
  function players() {
    if (current.fixed_players) return current.fixed_players;
    const o = current.options.find((x) => x.name === "players");
    const n = Math.trunc(Number(values.players));
    return Math.min(Math.max(Number.isFinite(n) ? n : o.default, o.minimum ?? 1), o.maximum ?? o.default);
  }

  function resetGame(name) {
    current = games.find((g) => g.name === name) || games[0];
    values = Object.fromEntries(current.options.map((o) => [o.name, o.default]));
    fitSeats();
    loadWords(current);
  }

  // A game whose words are not in the catalogue (a plugin game that ships none) brings them
  // in its module (option names and choices): loaded when it is chosen, the form drawn again
  // once it is there; the four games' words are all in the catalogue, so none is loaded.
  function loadWords(g) {
    if (!g.client || GAMES[g.name] || has(`${g.name}.title`)) return;
    gameModule(g.name).then(() => { if (current === g) render(); }, (err) => {
      wordsError = { game: g.name, err };
      if (current === g) render();
    });
  }

  function fitSeats() {
    const n = players();
    seatKinds = Array.from({ length: n }, (_, i) => seatKinds[i] || (i === 0 ? "human" : "bot:medium"));
    // an option that names a seat (`seat` in the manifest) keeps the seat chosen while the
    // table still has it; a count made smaller takes it away: then the option's default
    for (const o of current.options) {
      if (!o.seat || values[o.name] === null) continue;
      const seats = seatChoices(o);
      if (!seats.includes(values[o.name])) values[o.name] = seats.includes(o.default) ? o.default : seats[0];
    }
  }

  // The seats a seat option may name: the seat rows' (as many as the player count), within
  // the option's own range.  0-based, as the API and the records count.
  function seatChoices(o) {
    const lo = Math.max(0, o.minimum ?? 0);
    const hi = Math.min(seatKinds.length - 1, o.maximum ?? Infinity);
    return Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => lo + i);
  }

  function optionInput(o) {
    const id = `opt-${o.name}`;
    const v = values[o.name];
    // a count left by Tab is committed (change) while the focus is on its way to the next
    // field: the form is drawn anew once it has arrived there, so that it keeps it
    const set = (val) => { values[o.name] = val; if (o.name === "players") { fitSeats(); setTimeout(render); } };
    let input;
    if (o.kind === "bool") {
      input = h("input", { id, type: "checkbox", name: o.name, checked: v ? true : null,
        onchange: (e) => set(e.target.checked) });
    } else if (o.kind === "choice") {
      input = h("select", { id, name: o.name, onchange: (e) => set(e.target.value) },
        o.choices.map((c) => h("option", { value: c, selected: c === v ? true : null }, t(`${current.name}.${o.name}.${c}`) === `${current.name}.${o.name}.${c}` ? c : t(`${current.name}.${o.name}.${c}`))));
    } else if (o.seat) {
      // a seat is chosen among the table's seats, called as the seat rows below call them
      // ("Seat 1", not a bare 1 to be guessed at); the value sent stays the seat's number
      input = h("select", { id, name: o.name, disabled: v === null ? true : null,
        onchange: (e) => set(Number(e.target.value)) },
        seatChoices(o).map((i) => h("option", { value: String(i), selected: i === v ? true : null }, seatName(i))));
    } else {
      // the number as typed (2.5 in a whole-number field is refused by the server, naming
      // the option, rather than cut to 2 here); empty is the default
      const parse = (raw) => (raw === "" ? o.default : Number(raw));
      input = h("input", { id, type: "number", name: o.name, value: v === null ? "" : v,
        step: o.kind === "float" ? "any" : "1", min: o.minimum ?? null, max: o.maximum ?? null,
        disabled: v === null ? true : null,
        // keep what is typed at once: the lists arriving re-render the form before any change event
        oninput: (e) => { if (e.target.value !== "") values[o.name] = parse(e.target.value); },
        onchange: (e) => set(parse(e.target.value)) });
    }
    const parts = [input];
    if (o.nullable) {
      parts.push(h("label", {}, h("input", { type: "checkbox", name: `${o.name}-null`, checked: v === null ? true : null,
        onchange: (e) => { values[o.name] = e.target.checked ? null : (o.default ?? 0); render(); } }), " ", t("null_value")));
    }
    const labelKey = `${current.name}.opt.${o.name}`;
    const label = t(labelKey) === labelKey ? o.name : t(labelKey);
    return [h("label", { for: id }, label), h("div", { class: "row" }, parts),
            h("div", { class: "help", id: `help-${o.name}` }, optionHelp(current.name, o))];
  }

  function seatInput(i) {
    const choices = [["human", t("human")], ...levels.map((l) => [`bot:${l}`, `${t("bot")} (${t("level_" + l)})`])];
    return [h("label", { for: `seat-${i}` }, seatName(i)),
      h("select", { id: `seat-${i}`, name: `seat-${i}`, onchange: (e) => { seatKinds[i] = e.target.value; } },
        choices.map(([v, text]) => h("option", { value: v, selected: seatKinds[i] === v ? true : null }, text)))];
  }

  async function create(button) {
    button.disabled = true;
    button.textContent = t("creating");
    const seats = seatKinds.map((k) => k === "human" ? { kind: "human" } : { kind: "bot", level: k.slice(4) });
    const options = {};
    for (const o of current.options) if (values[o.name] !== o.default) options[o.name] = values[o.name];
    try {
      created = await api("/api/tables", { method: "POST", body: JSON.stringify({ game: current.name, options, seats }) });
      created.error = null;
      copied = null;
      // the creator plays the first human seat; the others' links are shown to be sent
      created.mine = created.seats.find((s) => s.link)?.seat ?? null;
      const mine = created.seats.find((s) => s.seat === created.mine);
      if (mine) remember({ table: created.id, seat: mine.seat, game: created.game, link: mine.link, over: false, n: 0 });
    } catch (err) {
      created = { error: err };
    }
    render();
    reveal(true);
    await loadLists().catch(() => {});
    reveal(false);
  }

  // What the creation brought is where the player looks next: "My tables" appearing above
  // the form pushed it down, and on a phone the new links lay below the screen, the focus
  // lost with the redrawn button.  Its box is scrolled into view and the player's own link
  // (else the first) takes the focus; the lists arriving redraw the page, so the box is
  // scrolled to again after them — the focus only if it was lost: the redraw keeps it where
  // the player has moved it meanwhile (taking it back, a keyboard player who had gone on to
  // a copy button pressed Enter on their own link instead).
  function reveal(focus) {
    const box = document.getElementById("created") || document.getElementById("create-error");
    if (!box) return;
    box.scrollIntoView({ block: "nearest" });
    if (!focus && document.activeElement && document.activeElement !== document.body) return;
    // a refusal has no link: the focus goes back to the button (its words are an alert)
    (box.querySelector("li[data-mine='1'] a") || box.querySelector("a") || document.getElementById("create"))
      ?.focus({ preventScroll: true });
  }

  // A link is shared by copying it: selecting a long monospace line by a phone's long
  // press was the only way.  Where the clipboard is closed (a plain-http server seen from
  // another machine), the link's text is selected for the player to copy.
  async function copyLink(what, url) {
    let ok = true;
    try { await navigator.clipboard.writeText(url); } catch { ok = false; }
    copied = { what, ok };
    render();
    if (!ok) selectLink(what);
    announce([ok ? t("copied") : t("copy_failed")]);
  }

  function selectLink(what) {
    const code = document.querySelector(`code[data-url="${CSS.escape(what)}"]`);
    if (code) { const r = document.createRange(); r.selectNodeContents(code); getSelection().removeAllRanges(); getSelection().addRange(r); }
  }

  // The link whose text is selected, if any (to be selected again after a redraw)
  function selectedLink() {
    const node = getSelection().anchorNode;
    const el = node?.nodeType === Node.ELEMENT_NODE ? node : node?.parentElement;
    return el?.closest("code[data-url]")?.dataset.url ?? null;
  }

  function copyButton(what, url, name) {
    const done = copied?.what === what;
    // the seat it copies is said to a screen reader after the visible words (which begin its name)
    return h("button", { class: "secondary small copy", "data-copy": what, onclick: () => copyLink(what, url) },
      done ? (copied.ok ? t("copied") : t("copy_failed")) : t("copy_link"), h("span", { class: "sr-only" }, ` (${name})`));
  }

  // A seat as the lists say it: a friend who left and whose seat a bot plays for now is
  // "Ben (bot plays)", as the table's own lines say it, not seated as if still there (in
  // the running games only: a finished game's list does not say who played at its end)
  function lobbySeat(s, kind) {
    if (s.kind !== "human") return botName(s.level);
    const who = s.name || t("human");
    return s.stand_in && kind !== "over" ? t("seat_bot_plays", { who }) : who;
  }

  function tableList(list, kind) {
    if (!list.length) return h("p", { class: "muted" }, t("none_yet"));
    return h("ul", { class: "links" }, list.map((tb) => h("li", {},
      h("a", { href: kind === "over" ? `/replay/${tb.id}` : `/table/${tb.id}`, "data-table": tb.id },
        `${titleOf(tb.game)} · ${t("moves_n", { n: tb.moves })} · `,
        tb.seats.map((s) => lobbySeat(s, kind)).join(", "),
        " — ", kind === "over" ? t("replay") : t("watch")))));
  }

  // Each entry says whether its game is over (as the lobby's lists or the table page last
  // saw it), how far it went and when it was last played here: a rematch's two tables
  // of the same seat are told apart, the newest first.
  function myTablesBox() {
    const mine = myTables();
    if (!mine.length) return null;
    const known = new Map([...lists.running, ...lists.over].map((tb) => [tb.id, tb]));
    return h("section", { class: "box", id: "my-tables" }, h("h2", {}, t("my_tables")),
      h("ul", { class: "links" }, mine.map((e) => {
        const tb = known.get(e.table);
        const over = tb ? tb.status === "over" : e.over;
        const moves = tb ? tb.moves : e.n;
        const info = [over === true ? t("status_over") : over === false ? t("status_running") : null,
                      Number.isFinite(moves) ? t("moves_n", { n: moves }) : null,
                      e.at ? playedWhen(e.at) : null].filter(Boolean).join(" · ");
        const words = `${e.game ? titleOf(e.game) : e.table} · ${t("seat", { n: e.seat })}`;
        // the button is named by its entry's words ("Forget Wasserloch · Seat 1"), not by the
        // table's random id, and forgets that entry alone: two seats of one table played
        // here were two buttons of the same name, each forgetting both
        return h("li", { "data-my-entry": e.table, "data-status": over === true ? "over" : over === false ? "running" : null },
          h("a", { href: e.link, "data-my-table": e.table }, words),
          info ? h("span", { class: "muted my-info", title: e.at ? new Date(e.at).toLocaleString(lang) : null }, ` · ${info}`) : null,
          " ", h("button", { class: "secondary small", "data-forget": `${e.table}/${e.seat}`, "aria-label": t("forget_entry_l", { entry: words }),
                            onclick: () => { forget(e); render(); } }, t("forget")));
      })));
  }

  // The form is drawn anew on each change (another game's options, a seat row more, the
  // lists arriving, a table forgotten): the control a keyboard player was on keeps the
  // focus, else (a forgotten table) the next of its kind, rather than the page's body.
  const hold = heldDrawing(app, () => render());
  function render() {
    if (hold.waits()) return;
    const focus = rememberFocus(LOBBY_FOCUS_ATTRS, { root: app, kind: "[data-forget]", fallback: "#game" });
    // a link selected to be copied (the clipboard closed) stays selected when the lobby is
    // drawn again: the lists that arrive after a table's creation redrew it and the
    // selection was gone before the player could copy it (seen in CI)
    const selected = selectedLink();
    draw();
    restoreFocus(focus);
    if (selected) selectLink(selected);
  }

  function draw() {
    const origin = location.origin;
    const role = alertOnce(Boolean(created?.error), [created], createdAlert);
    const createdBox = created && (created.error
      ? h("div", { class: "status refused", id: "create-error", role },
          errorNotice(created.error))
      : h("section", { class: "box", id: "created" }, h("h2", {}, t("links_title")),
          h("ul", { class: "links" },
            created.seats.filter((s) => s.kind === "human").map((s) => h("li", { "data-mine": s.seat === created.mine ? "1" : "0" },
              s.seat === created.mine
                ? [h("a", { href: s.link, "data-seat-link": s.seat }, t("open_seat", { n: s.seat })), " ",
                   h("span", { class: "muted" }, t("seat_yours"))]
                : [h("a", { href: s.link, "data-seat-link": s.seat }, t("seat_link", { n: s.seat })), " ",
                   h("span", { class: "muted" }, t("seat_send"))],
              ": ", h("code", { "data-url": String(s.seat) }, origin + s.link), " ",
              copyButton(String(s.seat), origin + s.link, t("seat_link", { n: s.seat })))),
            h("li", {}, h("a", { href: created.spectator_link, id: "spectator-link" }, t("spectator_link")), ": ",
              h("code", { "data-url": "spectators" }, origin + created.spectator_link), " ",
              copyButton("spectators", origin + created.spectator_link, t("spectator_link"))))));
    show(
      h("h1", { class: "sr-only" }, t("lobby")),
      myTablesBox(),
      h("section", { class: "box" },
        h("h2", {}, t("new_table")),
        h("div", { class: "form-grid", id: "new-table" },
          h("label", { for: "game" }, t("game")),
          h("select", { id: "game", name: "game", onchange: (e) => { resetGame(e.target.value); render(); } },
            games.map((g) => h("option", { value: g.name, selected: g === current ? true : null }, titleOf(g.name, g.title)))),
          wordsError?.game === current.name && !GAMES[current.name]
            ? [h("span", {}), h("div", { class: "status refused", id: "game-error", role: "status" }, errorNotice(wordsError.err))] : null,
          h("span", {}), h("a", { href: `/rules/${current.name}?lang=${lang}`, id: "lobby-rules" }, t("rules_of", { g: titleOf(current.name, current.title) })),
          current.options.map(optionInput).flat(),
          seatKinds.map((_, i) => seatInput(i)).flat()),
        h("div", { class: "row" }, h("button", { class: "primary", id: "create", onclick: (e) => create(e.target) }, t("create")))),
      createdBox,
      h("section", { class: "box" }, h("h2", {}, t("open_tables")), tableList(lists.running, "running")),
      h("section", { class: "box" }, h("h2", {}, t("finished_tables")), tableList(lists.over, "over")));
  }

  resetGame(games[0].name);
  rerender = render;
  render();
  loadLists();
}

// ---------------------------------------------------------------- the table, live or replayed
// One screen: the play column (turn, seats and scores, the board you act on, your hand,
// the move buttons) fills the window; the side column (summary, log, details) sits to the
// right on a wide screen and below the play column on a phone.
function botName(level, n) {
  return n === undefined ? t("bot_named", { level: t("level_" + level) }) : t("bot_named_at", { level: t("level_" + level), n });
}

// A seat is called by its player's name, its bot's level or its number; a name two seats
// share (two easy bots, two players called Anna) names the seat too, so that the log, the
// turn and the results tell them apart.  Worded when asked: a language switch renames.
function seatNamerFor(seats) {
  // who a seat is, whatever the language: its name, its bot level, or nobody in particular
  // (null: i18n.js words the seat by its number, as a label or inside a sentence)
  const key = (s) => s?.name ? `name:${s.name}` : s?.kind === "bot" ? `bot:${s.level}` : "";
  const shared = new Set();
  const seen = new Set();
  for (const s of seats || []) {
    const k = key(s);
    if (k && seen.has(k)) shared.add(k);
    seen.add(k);
  }
  return (n) => {
    const s = seats?.[n];
    const k = key(s);
    if (!k) return null;
    const at = shared.has(k) ? n : undefined;
    if (s.name) return at === undefined ? s.name : t("named_at", { name: s.name, n });
    return botName(s.level, at);
  };
}

function seatStrip(game, msg, ui) {
  const view = msg.view;
  const seats = msg.seats.length ? msg.seats : Array.from({ length: msg.players }, (_, i) => ({ seat: i, kind: "human" }));
  return h("div", { class: "seats", id: "seats", "data-group": "seats", role: "group", "aria-label": t("seats") }, seats.map((s) => {
    const turn = (msg.waiting || msg.to_move || view.to_move || []).includes(s.seat);
    const chosen = (msg.chosen || []).includes(s.seat);
    const extra = game.seatInfo && !game.seatInfoOnBoard ? game.seatInfo(view, s.seat) : "";
    const score = game.seatScore ? game.seatScore(view, s.seat, msg) : msg.scores?.[s.seat];
    const everyone = (msg.waiting || []).length > 1;
    const name = seatLabel(s.seat);
    // whose move it is, and whether its player is here: a friend who closed the tab is
    // "to move · offline", not just "to move"
    // (an absent player's seat a bot plays: "bot plays", and "thinking …" on its turn)
    const state = [chosen ? t("chosen") : turn && !everyone ? (s.kind === "bot" || s.stand_in ? t("thinking") : t("to_move")) : "",
                   s.stand_in ? t("bot_plays") : offline(s) ? t("offline") : ""].filter(Boolean).join(" · ");
    const chip = h("div", { class: `seat-chip${turn ? " turn" : ""}${s.seat === msg.seat ? " me" : ""}`, "data-seat": s.seat,
                           "data-origin": `seat:${s.seat}`, style: `--seat: ${SEAT_COLORS[s.seat % SEAT_COLORS.length]}` },
      h("span", { class: "who", title: name }, name, s.seat === msg.seat ? ` (${t("you")})` : ""),
      // its word for a screen reader (style.css: the alt text of an empty ::before), not on
      // screen: "Seat 0 (you) 0 5 cards" read the score as a bare number
      score !== undefined && score !== null ? h("span", { class: "score", title: t("score"), "data-label": t("score") }, String(score)) : null,
      extra ? h("span", { class: "extra" }, extra) : null,
      state ? h("span", { class: "state" }, state) : null);
    const key = game.seatKey ? game.seatKey(s.seat, view) : null;
    if (!key) return chip;
    // a chip that is a choice (Wildwasser's team cards) is named by the game (table.js
    // mark), and a screen reader reads that name, not the chip's words: what else the chip
    // shows (that it is this player's seat, its symbols, whose turn it is or who has
    // chosen) is said after it, or it could not be learnt
    const symbols = [...chip.querySelectorAll("[role='img'][aria-label]")].map((n) => n.getAttribute("aria-label"));
    chip.dataset.says = [s.seat === msg.seat ? t("you") : "", ...symbols, state].filter(Boolean).join("; ");
    return ui.mark(chip, key);
  }));
}

function tableLayout({ game, msg, ui, picker, notice, actions, result, summary, tools, replayBar, fresh, standIns = null,
                       rename = null }) {
  const raw = game.draw(msg.view, ui, { ...msg, fresh });
  const drawn = raw instanceof Node ? { board: raw } : raw;
  const title = gameTitle(msg.game, game, msg.title);
  // at the game's end a hand with no card left is not drawn: its room goes to the board and the result
  const handGone = msg.terminal && drawn.hand && !drawn.hand.querySelector?.("[data-key]");
  const hand = drawn.hand && !handGone
    ? h("div", { class: "hand", id: "hand", "data-group": "hand", role: "group", "aria-label": t("your_hand") }, drawn.hand) : null;
  const last = new Set(game.lastKeys ? game.lastKeys(msg.view, msg) : []);
  // how to play by keyboard, for a seat at a live table (a catalogue without the words says
  // nothing); the seats are a Tab stop only in a game whose seats are choices (Wildwasser's)
  const keysWords = game.seatKey ? "keys_help" : "keys_help_no_seats";
  const keysHelp = !msg.replay && msg.seat !== null && has(keysWords)
    ? h("p", { class: "muted keys-help", id: "keys-help" }, t(keysWords)) : null;
  const page = h("div", { class: `table-page game-${msg.game}${msg.terminal ? " over" : ""}`, id: "table" },
    h("section", { class: "play", id: "play", "aria-label": title },
      h("div", { class: "topbar" },
        h("h1", { class: "title" }, title),
        h("span", { class: "status-text muted" }, game.status(msg.view, msg)),
        h("span", { class: "spacer" }),
        tools),
      replayBar || null,
      h("div", { class: `turn ${msg.legal.length && !msg.terminal && !msg.replaced ? "yourturn" : ""}`, id: "turn", tabindex: "-1",
        "data-n": msg.n, "data-mine": msg.legal.length && !msg.replaced ? "1" : "0", "data-terminal": msg.terminal ? "1" : "0" },
        statusLine(game, msg)),
      seatStrip(game, msg, ui),
      standIns,                 // beside the seats: a bot for an absent player (table.js StandIns)
      h("div", { class: `board ${drawn.boardClass || ""}`, id: "board", "data-group": "board", role: "group",
                 "aria-label": t("board") }, drawn.board),
      // a spectator's and the replay's room under the board, where a player's hand is: the
      // game's details stand there when the board leaves it free (table.js, fitBoard)
      msg.seat === null || msg.seat === undefined ? h("div", { class: "under", id: "under" }) : null,
      notice,
      result,
      hand,
      actions),
    h("aside", { class: "side", id: "side", "aria-label": t("details") },
      summary,
      h("section", { class: "box" }, h("h2", {}, t("log")), logList(game.logLines(msg.view, msg))),
      (drawn.side || []).map(([id, name, node]) => panel(id, name, node, false)),
      rename,
      keysHelp));
  // the keys are told beside the table, and describe each group a player chooses in
  if (keysHelp) page.querySelectorAll("[data-group]").forEach((g) => g.setAttribute("aria-describedby", "keys-help"));
  page.querySelectorAll("#board [data-key]").forEach((n) => { if (last.has(n.dataset.key)) n.classList.add("last"); });
  // the board and the hand hold choosable pieces: groups, not pictures; a picture has a name
  page.querySelectorAll("#board svg, #hand svg").forEach((svg) => { svg.setAttribute("role", "group"); });
  page.querySelector("#board > svg")?.setAttribute("aria-label", t("board"));
  page.querySelector("#hand > svg")?.setAttribute("aria-label", t("your_hand"));
  page.querySelectorAll("svg[role='img']:not([aria-label])").forEach((svg) => {
    svg.setAttribute("aria-label", svg.closest("details")?.querySelector("summary")?.textContent || title);
  });
  rovingTabIndex(page);
  return page;
}

// Two names the server would store alike (hub.clean_name: the blanks between words made one
// space, the letters in one spelling, NFC)
function sameName(a, b) {
  const clean = (x) => x.split(/\s+/u).filter(Boolean).join(" ").normalize("NFC");
  return clean(a) === clean(b);
}

// A seat waited for, with why it may be slow to move: "Anna (offline)", "seat 2 (bot
// plays)"; a name two seats share is numbered inside the same parenthesis ("Jörg (seat 1,
// offline)"): "Jörg (seat 1) (offline)" read as a slip
function seatWaitedFor(seats, n) {
  const s = seats?.[n];
  const why = s?.stand_in ? "bot_plays" : offline(s) ? "offline" : null;
  if (!why) return seatInText(n);
  if (s.name && seats.some((o, i) => i !== n && o?.name && sameName(o.name, s.name))) {
    return t(`named_at_${why}`, { name: s.name, n });
  }
  return t(why === "bot_plays" ? "seat_bot_plays" : "seat_offline", { who: seatInText(n) });
}

// A human seat whose player has no page open at the table (a replay knows nobody's).
function offline(s) {
  return s?.kind === "human" && s.online === false;
}

// Who won, as the result box says it and the end is announced ("Game over. Winners: …").
// The winners in their in-sentence words, the page's own seat marked as its chip is ("seat 0
// (you)"): "Won by: seat 0, seat 2" was shown and read to seat 0 as if others had won
function endLine(msg) {
  const w = msg.winners.map((n) => seatInTextFor(n, msg.seat)).join(", ");
  return `${t("game_over")} ${w ? t("winners", { who: w }) : t("no_winner")}`;
}

// The line under the title.  At the end only "Game over.": the result box right below it
// says who won (the same sentence twice, one above the other, read as a slip).
function statusLine(game, msg) {
  // a rematch another seat started is said where the eye is (on a phone its button lies
  // below the board and the result), not only by the button's changed words
  if (msg.terminal) return msg.rematch && !msg.replay ? t("rematch_started") : t("game_over");
  if (msg.replaced) return t("replaced_turn");   // never "Your turn." in a tab that cannot play
  // what was chosen, as a game names a choice (Wildwasser's "the meerkat"), else as its
  // button said it ("Pick meerkat": "You chose Pick meerkat" read as a slip)
  if (msg.seat !== null && msg.my_choice) return t("you_chose", { a: (game.chosen || game.label).call(game, msg.my_choice, msg.view) });
  if (msg.seat !== null && msg.legal.length) return t("your_turn");
  const waited = msg.waiting || msg.to_move || [];
  // a replay waits for nobody: it says whose move comes next
  // the seats inside the line in their in-sentence words ("Waiting for seat 2."); a line
  // that begins with one begins with a capital ("Seat 2, seat 3 to move")
  if (msg.replay) return sentence(`${waited.map(seatInText).join(", ")} ${t("to_move")}`);
  const who = waited.map((n) => seatWaitedFor(msg.seats, n)).join(", ");
  // a spectator (the spectator link, or a third person at a full table) waits for nobody:
  // "Waiting for seat 0." read as if they had a seat; they are told they watch, and who moves
  if (msg.seat === null) return t("spectator_turn", { who });
  return t("waiting_for", { who });
}

function resultBox(game, msg, extra) {
  const why = game.tieBreak ? game.tieBreak(msg.view, msg) : null;
  // a named region: the focus lands on it at the game's end, and it says what it is
  return h("section", { class: "box result", id: "result", tabindex: "-1", "aria-labelledby": "result-title" },
    h("h2", { id: "result-title" }, t("result")),
    h("p", { class: "winners" }, endLine(msg)),
    why ? h("p", { id: "tie-break" }, why) : null,  // the tie-break that decided, beside who won
    // what to do next (the replay, the rematch) right under who won and why: on a phone it
    // stood below the whole breakdown (a Watten of eleven hands: 700 px below the screen)
    extra,
    game.breakdown(msg.view, msg));
}

// What others did since the last position, for the live region and the summary.
function newLines(before, after) {
  if (!before) return [];
  let k = Math.min(before.length, after.length);
  while (k > 0 && before.slice(before.length - k).join("\n") !== after.slice(0, k).join("\n")) k--;
  return after.slice(k);
}

// The log's lines that are new in `after` (since `before`), worded for the live region:
// the one place where log lines are spoken.  The same lines as the log shows (found by
// comparing the shown lines), worded anew by the game's logLines under i18n.js speaking:
// the hearing seat's own moves as "you" ("You took …" where the log shows "Seat 0 took …"),
// cards by their names ("7 of diamonds" where it shows "7♦").  A game's spoken log has a
// line for each shown one, in the same order.
function spokenLines(game, before, after) {
  const shown = newLines(game.logLines(before.view, before), game.logLines(after.view, after));
  if (!shown.length) return shown;
  const words = speaking(after.seat, () => game.logLines(after.view, after));
  return words.length >= shown.length ? words.slice(words.length - shown.length) : shown;
}

// Whether this seat, to move now, is told so: the turn came from another seat, or it
// stayed with this seat across more than its own move (a trick it took, a round its play
// ended, WL-5.5: it begins the next) — the words heard then were of the end, not of whose
// turn it is.  Not after a move that only goes on with the same turn (Seven Waters' take,
// then its placing; Watten's choice of trump, then its signal).
function turnCameBack(game, prev, msg, lines) {
  if (!prev.legal.length) return true;
  const phase = (m) => (game.phaseNo ? game.phaseNo(m.view) : null);
  return lines.length > 1 || phase(prev) !== phase(msg);
}

// Words kept for a later render (a notice, a summary) are kept as a function that says
// them, so that a language switch rewords them too.
function said(text) {
  return typeof text === "function" ? text() : text;
}

// The wait before the `k`th attempt (1, 2, …) to reconnect a table's page: doubling from
// 300 ms up to 15 s, each drawn between half and the whole of it.  It was 300 ms × k up to
// 1.5 s, and k started again at every socket that opened: while the database could not be
// read (each hello refused, its socket closed) a page asked every 300 ms for as long as
// that lasted, every page of the server in step with the others.
const RECONNECT_FIRST_MS = 300, RECONNECT_MOST_MS = 15_000;
function reconnectDelay(k) {
  const most = Math.min(RECONNECT_MOST_MS, RECONNECT_FIRST_MS * 2 ** Math.min(k - 1, 16));
  return most / 2 + Math.random() * most / 2;
}

// The live table as the seat of the link's hash (or as a spectator); returns a function
// that leaves it (closes its socket, stops its timers): a seat link pasted into the tab
// changes only the hash, and the page opens the table anew as that seat.
function tablePage(tableId) {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  let gone = false;           // left for another seat of this tab: nothing more is drawn or sent
  let msg = null, prev = null;
  let notice = null;          // {text, cls, key}: a refusal or an explanation (text: words or a function saying them)
  let hint = null;            // {action, label}
  let picker = null;
  let socket = null;
  let closedForGood = false;
  let inbox = Promise.resolve();  // the server's messages, taken in order once the game's module is there
  let noModule = false;       // the game's module could not be loaded: nothing can be drawn
  // reconnection attempts since the connection last worked (a position received: a socket
  // that opens and whose hello is refused, the database down, has not worked), and the
  // timer of the next one
  let retry = 0;
  let retryTimer = null;
  let summary = null;         // the last hand's or round's summary
  // the seat strip's, the top bar's, the turn line's and the move bar's tallest heights so
  // far (keepTallest): the chips' words, the game's status line, the turn line and the move
  // buttons wrap in one position and not in the next (on a phone Wildwasser's "You chose
  // Pick meerkat — waiting for the others." takes two lines, "Your turn." one; Watten's four
  // signals take two rows of buttons, a trick's cards one)
  const seatsRoom = {}, topRoom = {}, turnRoom = {}, actionsRoom = {};
  const boardRoom = {};       // the board's box fitted to its picture (fitBoard)
  // the move number a move of this page was sent at, until the server answers it: a
  // second click meanwhile (a double-click, a held Enter) is not sent, as the server
  // would refuse it as stale once the first has moved the game on
  let sentAt = null;
  // the move number after a move of this page that the server first refused as not saved
  // (no answer from its database in time) and then stored after all (`accepted` with
  // `late`), while the position with it waits to be shown (the Pacer): said once it is
  let savedLate = null;
  // What this page cannot do right now stands above any notice a click brings, until it
  // changes: a click on a move used to overwrite "replaced" (and its button) or
  // "reconnecting" with "Your turn." while the move went nowhere.
  let replaced = false;       // this seat was opened in another tab: this one's socket is closed for good
  let down = false;           // the connection is lost and being made anew
  // {action, n}: a move chosen while the connection was down, sent once it is back if the
  // position is still the one it was chosen in (the server refuses a stale move number
  // anyway: it is never played twice nor in another position)
  let pending = null;
  // this page's id in its hellos (its own connection the server has not yet seen drop is
  // not another tab's); set when the page reconnects on its own (not at its first open,
  // nor after "play here again", which opens the page anew)
  const tabId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
  let resuming = false;
  // what the notice last drawn as an alert stood for (alertOnce): what the page cannot do
  // now (replaced, reconnecting), and a refusal, each told once as it comes
  const standingAlert = {}, noticeAlert = {};

  const link = location.pathname + location.hash;  // this seat's, whatever the hash says later
  if (token) remember({ table: tableId, seat: +params.get("seat"), link });

  function send(obj) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(obj));
    return true;
  }

  // A click in a replaced tab is answered with why it does nothing (the tab's socket is
  // closed; the seat plays in the other tab), the "replaced" notice and its button kept.
  function refuseReplaced(key) {
    // (said by the notice, an alert: it was also put in the live region, and heard twice)
    notice = { text: () => t("replaced_click"), cls: "refused", key };
    render();
  }

  function play(action, node) {
    if (replaced) { refuseReplaced(node?.dataset.key); return; }
    if (sentAt === msg.n) return;
    hint = null;
    sentAt = msg.n;
    if (send({ type: "move", action, n: msg.n })) {
      notice = node ? { text: "", cls: "", key: node.dataset.key } : null;
    } else if (!closedForGood) {
      // the connection is down: the move waits for it (receive sends it), and says so
      pending = { action, n: msg.n };
      notice = null;
      announce([t("move_waits")]);
    } else {
      sentAt = null;        // a table closed for good (its refusal stays on screen): nothing to wait for
    }
    render();
  }

  // The move chosen while the connection was down, once a position is shown: sent if it is
  // still the one it was chosen in and the connection is back, else dropped with a word.
  function sendPending(moved) {
    if (!pending || (!moved && (down || socket?.readyState !== WebSocket.OPEN))) return;
    const p = pending;
    pending = null;
    // not checked against the legal moves: a piece that is no move is sent too, for the
    // server to say why (as it is when connected)
    if (!moved && msg.n === p.n && send({ type: "move", action: p.action, n: p.n })) {
      sentAt = p.n;
      return;
    }
    sentAt = null;
    notice = { text: () => t("move_not_sent"), cls: "info" };
    announce([t("move_not_sent")]);
  }

  function explain(key, node) {
    if (replaced) { refuseReplaced(key); return; }
    const game = GAMES[msg.game];
    const at = msg;
    // In the server's order of refusals: the game's end, the turn, then the rule.  A
    // game's own explanation speaks of the moves of the seat to move, so it is asked
    // only then (off turn, Watten's "you must follow" would be false).
    const text = () => (at.terminal ? t("game_over")
      // a seat that made its secret choice and waits for the others (Wildwasser's picks,
      // WW-3.1) was told "It is not your turn", as if its choice had not counted
      : !at.legal.length ? t(at.seat !== null && at.my_choice ? "already_chosen_now" : "not_your_turn_now")
      : (game.explain && game.explain(key, at.view, at)) || t("not_now"));
    // "not your turn" (or "already chosen") stays true while others move: kept until this
    // seat may move again (`receive`), where it went with the next bot move, 0.8 s later
    notice = { text, cls: "info", key, untilTurn: !at.terminal && !at.legal.length };
    render();
    // the notice is drawn anew at each render (a live region that appears with its words
    // is not read out): the page's own live region says it
    announce([text()]);
  }

  const pacer = new Pacer((data) => receive(data), (m) => GAMES[m.game]?.hold?.(m.view) ?? 650);
  // a bot for an absent player: offered once their seat has been offline long enough
  const standIns = new StandIns(() => render());
  let levels = null;          // the bots' levels (/api/games), for the offer
  gameData().then((d) => { levels = d.levels; }, () => {});
  function askStandIn(seat, level) {
    if (!send({ type: "stand_in", seat, level })) notice = { text: () => t("reconnecting"), cls: "refused" };
    render();
  }

  // A name when taking a seat: the one this browser used before is sent at once; a
  // first-time player gets a small form (kept across redraws so typing is never lost).
  const nameInput = h("input", { id: "my-name", name: "name", maxlength: "40", autocomplete: "nickname",
                                 value: localStorage.getItem("player_name") || "" });
  // its words are set at each render (a language switch rewords it; what is typed stays)
  const nameLabel = h("label", { for: "my-name" });
  const nameButton = h("button", { type: "submit" });
  const nameForm = h("form", { id: "name-form", class: "name-form row", onsubmit: (ev) => {
      ev.preventDefault();
      const name = nameInput.value.trim();
      if (name) { localStorage.setItem("player_name", name); send({ type: "name", name }); }
      if (name && renaming) endRenaming();
    } },
    nameLabel, nameInput, nameButton);
  // A seat that has its name may change it (the server takes a few changes a minute): the
  // button beside the log shows the form again, the name in it; saving or Escape puts the
  // button back, and the focus on it.  Before, a name once given (or taken unasked from
  // this browser) stayed the seat's for the whole game.
  let renaming = false;
  function endRenaming() {
    renaming = false;
    render();
    document.getElementById("change-name")?.focus();
  }
  nameInput.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || !renaming) return;
    ev.preventDefault();
    ev.stopPropagation();
    endRenaming();
  });
  function startRenaming() {
    renaming = true;
    nameInput.value = msg.seats[msg.seat]?.name || nameInput.value;
    render();
    nameInput.focus();
    nameInput.select();
  }
  let nameSent = false;
  // The saved name sent unasked, until the table shows it or the server refuses something:
  // meanwhile the seat counts as named.  Before, the form stood in the top bar for the
  // round trip and went with the name's echo, and everything below it moved up (41.6 px
  // on a German phone) just after the page opened.
  let nameAwaited = false;
  function maybeSendName() {
    const saved = localStorage.getItem("player_name");
    if (!nameSent && token && msg && msg.seat !== null && !msg.seats[msg.seat]?.name && saved) {
      nameSent = true;
      // a name another seat of this table carries already is a second player at this
      // device (two seats opened in one browser): the seat was named after the first
      // player unasked ("Jörg (seat 0)", "Jörg (seat 1) (you)").  It asks instead, the
      // saved name offered in the form
      if (!msg.seats.some((s, i) => i !== msg.seat && s.name && sameName(s.name, saved))) {
        nameAwaited = send({ type: "name", name: saved });
      }
    }
  }

  function receive(data) {
    if (gone) return;
    const moved = !msg || msg.n !== data.n || msg.my_choice !== data.my_choice;
    prev = msg;
    msg = data;
    setSeatNamer(seatNamerFor(msg.seats));
    if (token && msg.seat !== null) remember({ table: tableId, seat: msg.seat, game: msg.game, link,
                                              over: Boolean(msg.terminal), n: msg.n });
    if (moved || !picker) picker = null;
    if (moved) {
      if (!(notice?.untilTurn && !msg.legal.length && !msg.terminal)) notice = null;
      hint = null;
      if (!pending) sentAt = null;
    }
    sendPending(moved);
    const game = GAMES[msg.game];
    if (prev && moved) {
      const lines = spokenLines(game, prev, msg);
      const before = prev, after = msg;
      const s = game.summary ? game.summary(before.view, after.view, after) : null;
      if (s) summary = () => game.summary(before.view, after.view, after) || s;
      // what a sighted player sees change besides the log: the summary of a round or hand
      // that ended (what of it the game says aloud: `said`; the result box says the last),
      // the turn coming back to this seat (the turn line is no live region: it is drawn
      // anew at each move), the end
      if (s?.said && !msg.terminal) lines.push(...s.said);
      if (msg.terminal && !prev.terminal) lines.push(endLine(msg));
      else if (msg.seat !== null && msg.legal.length && !replaced && turnCameBack(game, prev, msg, lines)) lines.push(t("your_turn"));
      announce(lines);
    }
    // a rematch started by another seat (the position unchanged): told as it appears
    if (prev && !moved && msg.rematch && !prev.rematch) announce([t("rematch_started")]);
    // A rematch, a name or a stand-in this page was told "may still be saved" about (no
    // answer from the database in time) that the table now shows was stored after all: the
    // refusal gives way (it stayed over the "Go to the rematch" button, over the name, or
    // over the bot playing the seat, saying it might not be)
    if (settledInDoubt(prev, msg)) notice = null;
    standIns.update(msg);
    announce(standInNews(prev, msg));   // a bot began playing for an absent player, or they came back
    if (savedLate !== null && msg.n >= savedLate) tellSavedLate(false);   // after the move's own lines
    if (msg.seat !== null && msg.seats[msg.seat]?.name) nameAwaited = false;
    maybeSendName();
    render(moved);          // motion and one-time effects only when the position changed
  }

  function settledInDoubt(before, now) {
    const code = notice?.reasonCode;
    if (code === "server.rematch_in_doubt") return Boolean(now.rematch);
    // a bot taking over a seat, or leaving it: once the table shows a seat played otherwise
    // than when the notice came (the only such write a page asks for, or its return makes)
    if (code === "server.stand_in_in_doubt") {
      const then = notice.standIns;
      return Boolean(then) && now.seats.some((s, i) => (s.stand_in ?? null) !== then[i]);
    }
    return code === "server.name_in_doubt" && Boolean(before) && now.seat !== null
      && now.seats[now.seat]?.name !== before.seats[now.seat]?.name;
  }

  function tellSavedLate(draw = true) {
    savedLate = null;
    notice = { text: () => t("move_saved_late"), cls: "info" };
    announce([t("move_saved_late")]);
    if (draw) render();
  }

  // A message of the server, once its game's module is there (the socket's `inbox`).
  function take(data) {
    if (gone || noModule) return;
    if (data.type === "state") {
      retry = 0;            // the connection works: a later loss starts again at a short wait
      // a refusal of the hellos meanwhile (the database down) is over with it
      if (notice && !byTheRules(notice) && (down || !msg)) notice = null;
      down = false;
      pacer.push(data, data.legal.length > 0 || data.terminal || !msg);
    } else if (data.type === "refused") {
      const wasSent = sentAt;
      nameAwaited = false;   // (the name's, or one before it: the form asks, as it would have)
      // (one `late`, unasked, is no answer to a move this page may be waiting on: a write
      // it was told "may still be saved" about failed after all; its notice takes the
      // in-doubt one's place, as every refusal takes the last notice's)
      if (!data.late) sentAt = null;
      // The same refusal again while reconnecting (each hello refused while the database
      // cannot be read) is the notice already shown and said: kept, so that it is not
      // said again at every attempt.  One that is no ruling on a move (the server could
      // not save it) marks no piece as refused.
      const again = (down || !msg) && notice?.code === data.code && notice?.reasonCode === data.reason_code;
      if (!again) {
        notice = { text: () => refusalNotice(data), cls: "refused", key: byTheRules(data) ? notice?.key : undefined,
                   code: data.code, reasonCode: data.reason_code,
                   // who plays each seat as the table showed it then (settledInDoubt)
                   standIns: msg && data.reason_code === "server.stand_in_in_doubt"
                     ? msg.seats.map((s) => s.stand_in ?? null) : undefined };
        // before any position the notice is no alert: the live region says it
        if (!msg && !byTheRules(data)) announce([refusalNotice(data)]);
      }
      if (data.code === "bad_token" || data.code === "no_table") {
        // the hello after a reconnection refused (the table gone, the link no longer
        // valid): nothing will reconnect, so "reconnecting" and a waiting move (which
        // stood above the refusal and hid it) give way to why, and to the move's fate.
        // A table page that never showed its table (/table/nope) says so as a fact, not
        // as a refusal: nothing was refused there (i18n.js pageError); nor does a table that
        // was shown and is gone from the server since ("Refused: no such table" over its
        // board, and no way on): it says so, and the way back to the lobby (render)
        closedForGood = true;
        down = false;
        const why = msg && data.code === "no_table" ? () => t("table_gone") : () => pageError(data);
        if (!again) notice.text = why;
        // (said as every refusal is: the notice is an alert)
        if (pending) notice.text = () => `${why()} ${t("move_dropped")}`;
        pending = null;
      }
      if (data.code === "stale") send({ type: "sync" });
      // the same refusal again changes nothing shown: not drawn anew (a tap across a
      // drawing is lost, the socket's close handler)
      if (!again || wasSent !== sentAt) render();
    } else if (data.type === "accepted" && data.late) {
      // A move this page was told "could not be saved" about was stored after all: its
      // player was never told, and the refusal stayed on screen over the position that
      // holds the move.  Said (and shown) once the position with it is drawn.
      savedLate = data.n;
      if (msg && msg.n >= data.n && !pacer.queue.length) tellSavedLate();
    } else if (data.type === "seat_back") {
      // this player is back at a seat a bot played meanwhile: said, and the seat is theirs
      notice = { text: () => t("seat_back"), cls: "info" };
      announce([t("seat_back")]);
      render();
    } else if (data.type === "replaced") {
      closedForGood = true;
      replaced = true;
      down = false;
      sentAt = null;
      // a move waiting for the connection goes nowhere now: said under "replaced"
      notice = pending ? { text: () => t("move_dropped"), cls: "refused" } : null;
      pending = null;
      render();
    }
  }

  // The game's module could not be loaded (the network, a plugin's script missing): the
  // page cannot draw the table, and says so in its language rather than staying blank.
  function moduleFailed(err) {
    if (gone || noModule) return;
    noModule = true;          // the messages queued behind it are dropped, not tried again
    closedForGood = true;     // no reconnecting: reloading the page is the way to try again
    down = false;
    notice = { text: () => errorNotice(err), cls: "refused" };
    announce([errorNotice(err)]);
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close();
    render();
  }

  function connect() {
    if (gone) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}`);
    // a reconnection of its own says so (`resume`): if the player has moved to another tab
    // meanwhile (a phone waking up), the server tells this page it is replaced, rather than
    // this page taking the seat back from the tab in use and sending its waiting move there
    const hello = { type: "hello", token, lang, tab: tabId, ...(resuming ? { resume: true } : {}) };
    socket.addEventListener("open", () => { socket.send(JSON.stringify(hello)); });
    socket.addEventListener("message", (ev) => {
      if (gone) return;
      const data = JSON.parse(ev.data);
      // a position is drawn by its game's module: the first waits for it to load, and every
      // message after it waits its turn, so that none overtakes another
      inbox = inbox.then(() => (data.type === "state" && !GAMES[data.game] ? gameModule(data.game) : null))
        .then(() => take(data), moduleFailed)
        // a failure in drawing is reported as an uncaught error, as before, and the next
        // message is still taken
        .catch((err) => { setTimeout(() => { throw err; }); });
    });
    socket.addEventListener("close", () => {
      const wasDown = down, wasSent = sentAt;
      if (!pending) sentAt = null;  // a move lost with the connection can be made again
      // a name awaited may be lost with the connection: sent again if the table, back, lacks it
      if (nameAwaited) nameSent = false;
      if (closedForGood) return;
      // said once, not at every attempt: by the notice, an alert, at a table drawn (it was
      // also put in the live region, and heard twice); before any position only the live
      // region says it (the first notice is no alert)
      if (!down && !msg) announce([t("reconnecting")]);
      down = true;
      // drawn when what the page shows changes, not at every failed attempt: a drawing
      // replaces the pieces, and a tap pressed on one piece and released on its successor is
      // no click (the browser sends none), so a move tapped while reconnecting was lost
      if (!wasDown || wasSent !== sentAt) render();
      retry += 1;
      resuming = true;
      retryTimer = setTimeout(reconnectNow, reconnectDelay(retry));
    });
  }

  // The attempt waited for, made now (its time come, or the browser back online: a
  // connection back after a long wait is not kept waiting out the rest of it).
  function reconnectNow() {
    if (retryTimer === null) return;
    clearTimeout(retryTimer);
    retryTimer = null;
    connect();
  }

  // While the hint is on its way the button says it is busy but keeps the focus (a
  // disabled button would drop it on the page's body); the hint is announced.
  let asking = false;
  async function askHint(button) {
    if (asking) return;
    asking = true;
    button.setAttribute("aria-disabled", "true");
    try {
      const res = await fetch(`/api/tables/${tableId}/hint`, { headers: { authorization: `Bearer ${token}` } });
      const body = await res.json();
      if (!res.ok) throw refusal(body, res.statusText);
      if (body.n === msg.n) hint = body;
    } catch (err) {
      notice = { text: () => errorNotice(err), cls: "refused" };
    } finally {
      asking = false;
    }
    render();
    // said as the log's lines are (i18n.js speaking): the move's cards and suits in words
    // ("Take 7 of diamonds", not the button's "Take 7♦", whose sign is skipped or read as a name)
    if (hint && hint.n === msg.n) {
      const game = GAMES[msg.game];
      announce([speaking(msg.seat, () => t("hint_is", { a: game.label(hint.action, msg.view) }))]);
    }
  }

  // The rematch: the first seat to ask creates it, everyone else joins it; each seat gets
  // its own new link (and "My tables" remembers it when the page opens).
  let rematching = false;
  async function startRematch(button) {
    if (rematching) return;
    rematching = true;
    button.setAttribute("aria-disabled", "true");  // not disabled: a refusal leaves the focus on it
    try {
      const res = await fetch(`/api/tables/${tableId}/rematch`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
      const body = await res.json();
      if (!res.ok) throw refusal(body, res.statusText);
      location.assign(body.link);
    } catch (err) {
      rematching = false;
      // (its code kept: one in doubt gives way once the table shows the rematch, settledInDoubt)
      notice = { text: () => errorNotice(err), cls: "refused", reasonCode: err?.body?.reason_code };
      render();
    }
  }

  const hold = heldDrawing(app, (fromServer) => render(fromServer));

  function render(fromServer = false) {
    if (gone || hold.waits(fromServer)) return;
    if (!msg) {
      // a table that cannot be opened (no such table, a seat link not valid) was a dead
      // end: the ways on are offered — its spectators' view (the table is there), the lobby
      const ways = closedForGood && notice ? h("p", { class: "row", id: "ways-on" },
        notice.code === "bad_token" ? h("a", { href: `/table/${tableId}`, id: "watch-instead" }, t("watch_instead")) : null,
        h("a", { href: "/", id: "to-lobby" }, t("back_to_lobby"))) : null;
      // reconnecting keeps saying why, when the server said it (the database down)
      const why = down && notice?.code && !byTheRules(notice) ? said(notice.text) : null;
      show(h("div", { class: `status ${down ? "refused" : notice?.cls || ""}`, id: "notice", role: "status" },
             down ? t("reconnecting") : said(notice?.text) || t("connecting"),
             why ? h("span", { id: "notice-more" }, " ", why) : null), ways);
      return;
    }
    const game = GAMES[msg.game];
    const before = fromServer ? measure(app) : null;
    const focus = rememberFocus();
    if (!picker) picker = new Picker(game, msg.view, msg.legal, play, explain);
    // a replaced tab offers no move (no highlighted piece, no button): a click on a piece says why
    const canPlay = msg.legal.length > 0 && !replaced;
    // a piece chosen: what a tap on a piece said before (why it does nothing, the server's
    // refusal of it) is no longer about the selection shown
    const ui = picker.ui(render, canPlay, () => { if (notice?.key) notice = null; render(); });
    const buttons = canPlay ? picker.buttons() : [];
    // every element some legal move needs, for checking that each move can be reached by tapping
    app.dataset.keys = JSON.stringify([...new Set(picker.entries.flatMap((e) => e.keys))]);
    // what the page cannot do now (replaced, reconnecting) first; what a click brought after it
    const standing = replaced ? t("replaced") : down ? t("reconnecting") : null;
    const noticeText = pending ? t("move_waits") : said(notice?.text);
    // The standing state is told as it begins, a refusal as it comes: a refusal under a
    // standing state told already (a click in a replaced tab) is an alert of its own words,
    // not the whole box again ("This seat was opened in another tab …" at every click)
    const refusal = noticeText && notice?.cls === "refused" ? notice : null;
    const standingRole = alertOnce(Boolean(standing), [replaced, down], standingAlert);
    const refusalRole = alertOnce(Boolean(refusal), [refusal], noticeAlert);
    const role = standing ? standingRole : refusalRole;
    const moreRole = standing && standingRole !== "alert" && refusalRole === "alert" ? "alert" : null;
    // where the notice stands over the seats (a phone held sideways, style.css), a tap puts
    // it away: a seat under it may be a move (Wildwasser's start marker); what the page
    // cannot do now (standing) stays, and a move waiting is no notice of its own
    const putAway = !standing && !pending && notice
      ? (e) => { if (getComputedStyle(e.currentTarget).position === "absolute") { notice = null; render(); } } : null;
    const noticeBox = standing || noticeText
      ? h("div", { class: `status ${standing ? "refused" : notice.cls}`, id: "notice", role, onclick: putAway },
          standing,
          standing && noticeText ? h("span", { id: "notice-more", role: moreRole }, " ", noticeText) : noticeText,
          replaced ? h("button", { id: "take-back", onclick: () => location.reload() }, t("take_back")) : null,
          closedForGood && notice?.code === "no_table" ? h("a", { href: "/", id: "to-lobby" }, t("back_to_lobby")) : null)
      : null;
    const hintKeys = hint ? new Set(game.keys(hint.action, msg.view)) : new Set();
    const seated = token && msg.seat !== null && !msg.terminal;
    const actions = canPlay ? h("div", { class: "actions", id: "actions", role: "group", "aria-label": t("choices"),
                                                 "aria-busy": sentAt === msg.n ? "true" : null },
      // a game may name a button whose words are a symbol (Watten's "Trump ♦") for a screen reader
      buttons.map((e) => h("button", { "data-action": e.action, class: hint?.action === e.action ? "hinted" : null,
                                       "aria-label": game.spoken?.(e.action, msg.view) || null,
                                       onclick: () => play(e.action) }, e.label)),
      picker.selected.size ? h("button", { id: "clear", class: "secondary", onclick: () => { picker.selected.clear(); render(); } }, t("cancel")) : null,
      !buttons.length && !picker.selected.size ? h("span", { class: "hint-text" }, t("pick_hint")) : null,
      hint ? h("span", { class: "hint-text", id: "hint-text" }, t("hint_is", { a: game.label(hint.action, msg.view) })) : null)
      // a seat waiting for others keeps the bar's room (unseen, its usual words inside for
      // their height): the board and the hand stay where they are when the turn passes
      : seated ? h("div", { class: "actions idle", "aria-hidden": "true" }, h("span", { class: "hint-text" }, t("pick_hint")))
      : null;
    const named = Boolean(msg.seats[msg.seat]?.name) || nameAwaited;
    const needName = token && msg.seat !== null && (!named || renaming) && !msg.terminal;
    const rename = token && msg.seat !== null && named && !renaming && !msg.terminal && !replaced
      ? h("p", { class: "row rename" }, h("button", { id: "change-name", type: "button", class: "secondary small",
                                                      onclick: startRenaming }, t("change_name"))) : null;
    nameLabel.textContent = t("your_name");
    nameButton.textContent = t("save_name");
    const tools = h("span", { class: "tools" },
      needName ? nameForm : null,
      h("a", { href: `/rules/${msg.game}?lang=${lang}`, target: "_blank", id: "rules-link" }, t("rules")),
      // offered on this seat's turn, and kept (disabled) meanwhile: the top bar keeps its height
      seated ? h("button", { id: "hint", class: "secondary", disabled: canPlay ? null : true,
                             "aria-disabled": asking ? "true" : null, onclick: (e) => askHint(e.currentTarget) }, t("hint")) : null);
    const result = msg.terminal ? resultBox(game, msg, h("p", { class: "row" },
      h("a", { href: `/replay/${tableId}`, id: "to-replay" }, t("to_replay")),
      token ? h("button", { id: "rematch", class: "primary", onclick: (e) => startRematch(e.currentTarget) },
                msg.rematch ? t("join_rematch") : t("rematch"))
            : (msg.rematch ? h("a", { href: `/table/${msg.rematch}`, id: "rematch-link" }, t("join_rematch")) : null))) : null;
    const sum = summary && !msg.terminal ? summary() : null;
    const summaryBox = sum
      ? h("section", { class: "box summary", id: "summary" }, h("h2", {}, sum.title), sum.lines.map((l) => h("p", {}, l))) : null;
    // a replaced tab shows the position, but not as this seat's turn
    const standInBox = standIns.box(replaced ? { ...msg, replaced } : msg, levels, askStandIn);
    show(tableLayout({ game, msg: replaced ? { ...msg, replaced } : msg, ui, picker, notice: noticeBox, actions, result, summary: summaryBox, tools, fresh: fromServer,
                       standIns: standInBox, rename }));
    keepTallest(document.getElementById("seats"), seatsRoom, String(!!msg.terminal));
    keepTallest(document.querySelector("#play .topbar"), topRoom, `${needName}/${seated}`);
    keepTallest(document.getElementById("turn"), turnRoom, String(!!msg.terminal));
    keepTallest(document.querySelector("#play .actions"), actionsRoom, String(seated), picker.selected.size > 0);
    fitBoard(boardRoom);
    document.querySelectorAll("[data-key]").forEach((n) => {
      if (hintKeys.has(n.dataset.key)) n.classList.add("hinted");
      if (notice?.key && n.dataset.key === notice.key) n.classList.add("refused-here");
    });
    animateFrom(before, app);
    flyAway(app);
    restoreFocus(focus);
    if (fromServer && msg.terminal && prev && !prev.terminal) document.getElementById("result")?.focus({ preventScroll: true });
  }

  const onKey = keyboardHandler(() => { if (picker) { picker.selected.clear(); notice = null; render(); } });
  app.addEventListener("keydown", onKey);
  rerender = render;
  render();
  connect();
  window.addEventListener("online", reconnectNow);
  return function leave() {
    gone = true;
    closedForGood = true;     // no reconnecting
    pacer.stop();
    standIns.stop();
    app.removeEventListener("keydown", onKey);
    hold.stop();
    window.removeEventListener("online", reconnectNow);
    clearTimeout(retryTimer);
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close();
  };
}

// ---------------------------------------------------------------- replay viewer
async function replayPage(tableId) {
  let step = 0, wanted = 0, data = null, timer = null, error = null, prev = null;
  let saidStep = null;        // the step the live region last told
  let speed = +(localStorage.getItem("replay_speed") || 1);
  const boardRoom = {};       // the board's box fitted to its picture (fitBoard)
  const cache = new Map();

  async function fetchStep(k) {
    if (!cache.has(k)) cache.set(k, api(`/api/tables/${tableId}/replay/${k}`));
    return cache.get(k);
  }

  // The step shown is in the address (#step=12): a reload or a link shared opens the replay
  // there (it opened at move 0), and one typed in goes there; replaced, not added, so that
  // Back leaves the replay.
  const inAddress = () => +(/^#step=(\d{1,6})$/.exec(location.hash)?.[1] || 0);
  const opening = inAddress();
  window.addEventListener("hashchange", () => { if (inAddress() !== step) go(inAddress()); });

  async function go(k) {
    wanted = k;
    try {
      const next = await fetchStep(k);
      // the step is drawn by its game's module, loaded with the first step (a failure is
      // shown as a request's is)
      if (!GAMES[next.game]) await gameModule(next.game);
      if (k !== wanted) return;  // a later step was asked for meanwhile (a key held down)
      prev = data;
      data = next;
      step = data.step;
      error = null;
      history.replaceState(history.state, "", step ? `#step=${step}` : location.pathname + location.search);
    } catch (err) {
      cache.delete(k);
      if (k !== wanted) return;
      // a link's step past the game's end (its address edited): the replay from its start
      if (!data && k === opening && k && err.body?.reason_code === "server.step_range") { go(0); return; }
      error = err;
    }
    render(true);
  }

  async function jump(dir) {
    // the step where the next (or previous) hand or round begins
    const game = GAMES[data.game];
    const unit = (d) => (game.phaseNo ? game.phaseNo(d.view) : null);
    const here = unit(data);
    if (here === null) { go(dir > 0 ? data.total : 0); return; }
    let lo = dir > 0 ? step : 0, hi = dir > 0 ? data.total : step;
    const target = dir > 0 ? here + 1 : here - 1;
    if (dir < 0 && here <= 1) { go(0); return; }
    // the first step whose hand/round number is at least `target` (numbers never go down)
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const d = await fetchStep(mid);
      if (unit(d) >= target) hi = mid; else lo = mid + 1;
    }
    go(lo);
  }

  function render(fromServer = false) {
    if (error) {
      // (the database down is no refusal by the rules: its reason alone, refusalNotice).
      // Not a dead end: the way back to the lobby, and for a game still running (its
      // replay comes once it is over) the way to watch it live, as a spectator.  Nothing
      // was refused there: said as a fact (pageError), not "Refused: …"
      const running = (error.body?.code || error.body?.error) === "running";
      show(h("div", { class: "status refused", id: "notice", role: "status" },
             error.body ? pageError(error.body) : errorNotice(error)),
           h("p", { class: "row", id: "ways-on" },
             running ? h("a", { href: `/table/${encodeURIComponent(tableId)}`, id: "watch-instead" }, t("watch_instead")) : null,
             h("a", { href: "/", id: "to-lobby" }, t("back_to_lobby"))));
      return;
    }
    if (!data) return;
    const game = GAMES[data.game];
    setSeatNamer(seatNamerFor(data.seats));
    const msg = { ...data, seat: null, n: data.step, legal: [], seats: data.seats || [], waiting: data.view.to_move || [],
                  replay: true };
    const before = fromServer ? measure(app) : null;
    const focus = rememberFocus();
    const bar = h("div", { class: "row replay-bar", id: "replay-bar", role: "group", "aria-label": t("replay_title") },
      h("button", { id: "first", "aria-label": t("first_l"), "aria-keyshortcuts": "Home", onclick: () => go(0) }, t("first")),
      // a button's name in words, beginning with its visible word: "◀ hand" was read as
      // "black left-pointing triangle hand", "▶ play" likewise (WCAG 2.5.3)
      game.phaseNo ? h("button", { id: "prev-hand", "aria-keyshortcuts": "PageUp", "aria-label": t("prev_phase_l", { u: unspoken(t(`${data.game}.prev_phase`)) }),
                                   onclick: () => jump(-1) }, t(`${data.game}.prev_phase`)) : null,
      // at either end "previous" and "next" only say they cannot go on (aria-disabled): a
      // disabled button would drop the focus of the player stepping with it on the body
      h("button", { id: "prev", "aria-label": t("prev_l"), "aria-keyshortcuts": "ArrowLeft", "aria-disabled": step === 0 ? "true" : null,
                    onclick: () => { if (step > 0) go(step - 1); } }, t("prev")),
      h("span", { id: "step", role: "status" }, t("step", { i: step, n: data.total })),
      h("button", { id: "next", "aria-label": t("next_l"), "aria-keyshortcuts": "ArrowRight", "aria-disabled": step === data.total ? "true" : null,
                    onclick: () => { if (step < data.total) go(step + 1); } }, t("next")),
      game.phaseNo ? h("button", { id: "next-hand", "aria-keyshortcuts": "PageDown", "aria-label": t("next_phase_l", { u: unspoken(t(`${data.game}.next_phase`)) }),
                                   onclick: () => jump(1) }, t(`${data.game}.next_phase`)) : null,
      h("button", { id: "last", "aria-label": t("last_l"), "aria-keyshortcuts": "End", onclick: () => go(data.total) }, t("last")),
      h("button", { id: "autoplay", "aria-label": unspoken(timer ? t("pause_btn") : t("play_btn")), onclick: toggle }, timer ? t("pause_btn") : t("play_btn")),
      h("label", {}, t("speed"), " ", h("select", { id: "speed", onchange: (e) => { speed = +e.target.value; localStorage.setItem("replay_speed", speed); if (timer) { toggle(); toggle(); } } },
        // each speed named in words ("playback speed 0.5", „Wiedergabetempo 0,5"): "0.5×" was
        // read "zero point five" and a sign, or "multiplication sign"
        [0.5, 1, 2, 4].map((v) => h("option", { value: v, selected: v === speed ? true : null,
                                                "aria-label": t("speed_x", { x: v }) }, `${v}×`)))),
      h("a", { href: `/api/tables/${tableId}/record`, download: `${tableId}.json` }, t("record")));
    const ui = passiveUi(game, data.view, () => render());
    const result = data.terminal ? resultBox(game, msg, null) : null;
    show(tableLayout({ game, msg, ui, notice: null, actions: null, result, summary: null,
                       tools: h("a", { href: `/rules/${data.game}?lang=${lang}`, id: "rules-link" }, t("rules")), replayBar: bar, fresh: fromServer }));
    document.querySelector("#play h1").textContent = `${t("replay_title")}: ${gameTitle(data.game, game)}`;
    fitBoard(boardRoom);
    animateFrom(before, app);
    restoreFocus(focus);
    if (fromServer) sayStep(game, msg);
  }

  // The step reached, and the move that led to it when stepping forward by one, for a
  // screen reader (the step counter is drawn anew at each step: no live region of its
  // own); not at the page's opening, and not while the replay plays itself.
  function sayStep(game, msg) {
    if (saidStep === null || timer) { saidStep = step; return; }
    if (step === saidStep) return;
    const lines = [t("step", { i: step, n: data.total })];
    if (prev && step === prev.step + 1) {
      const before = { ...prev, seat: null, n: prev.step, legal: [], seats: prev.seats || [], replay: true };
      const moved = spokenLines(game, before, msg);
      lines.push(...moved);
      // a move the log keeps no line of (Watten's signals, secret to a spectator) said
      // nothing; a sighted viewer saw the turn go on to the next seat
      if (!moved.length && !data.terminal) lines.push(statusLine(game, msg));
    }
    // the last step, however reached (→, End, the last hand): who won, as the live table's
    // end is said; the result box appeared below the board unannounced
    if (data.terminal) lines.push(endLine(msg));
    saidStep = step;
    announce(lines);
  }

  function toggle() {
    if (timer) { clearInterval(timer); timer = null; render(); return; }
    timer = setInterval(() => {
      if (data && step < data.total) { go(step + 1); return; }
      clearInterval(timer); timer = null; render();
      // the steps are not said while it plays itself; its end is, as the last step is (sayStep)
      if (data?.terminal) announce([endLine(data)]);
    }, 900 / speed);
    render();
  }

  // Keys do what the bar's buttons do, wherever the focus is, except where a key means
  // something already (a card or place steps through its group, a list picks its value).
  const keys = { ArrowLeft: () => go(Math.max(0, wanted - 1)), ArrowRight: () => go(Math.min(data.total, wanted + 1)),
                 Home: () => go(0), End: () => go(data.total), PageUp: () => jump(-1), PageDown: () => jump(1) };
  document.addEventListener("keydown", (ev) => {
    const act = keys[ev.key];
    if (!act || !data || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey
        || ev.target.closest?.("[data-key], select, input, textarea")) return;
    ev.preventDefault();
    act();
  });

  rerender = render;
  go(opening);
}

// The role of a box that tells a refusal (`alerting`), asked at every drawing: "alert" the
// first time, "status" when it is drawn again for what it told already (`what`: the page's
// standing states and the refusal; each one set now is compared with the last drawing's).
// An alert is read out each time one is put in the page, and the page is drawn anew at
// every change: a refusal still on screen was read out again when another seat came or
// went, when the lobby's lists arrived, at every reconnection attempt.  A new refusal (a
// new object, also with the same words) or a state newly set is an alert again.
function alertOnce(alerting, what, memory) {
  const told = alerting && memory.what && what.every((x, i) => !x || x === memory.what[i]);
  memory.what = alerting ? what : null;
  return alerting && !told ? "alert" : "status";
}

// A control's words without the arrows and signs drawn beside them ("◀ hand" → "hand"), for
// its accessible name
function unspoken(text) {
  return text.replace(/[◀▶⏸]/gu, "").trim();
}

// A board's pieces for a page that makes no move (the replay): `redraw` draws the page anew
// when its layout changes (a phone turned: table.js layoutMatches)
function passiveUi(game, view, redraw) {
  return new Picker(game, view, [], () => {}, () => {}).ui(redraw, false);
}

// ---------------------------------------------------------------- routes
const path = location.pathname;
let m;
if ((m = path.match(/^\/table\/([\w-]+)$/))) {
  document.body.classList.add("at-table");
  const id = m[1];
  const seatOf = (hash) => { const p = new URLSearchParams(hash.slice(1)); return `${p.get("seat")}/${p.get("token")}`; };
  let opened = seatOf(location.hash);
  let leave = tablePage(id);
  // a seat link (or the spectator link) of this table pasted into the tab changes only
  // the hash: leave the table as it was open and open it as the link says
  window.addEventListener("hashchange", () => {
    if (seatOf(location.hash) === opened) return;
    opened = seatOf(location.hash);
    leave();
    leave = tablePage(id);
  });
}
else if ((m = path.match(/^\/replay\/([\w-]+)$/))) { document.body.classList.add("at-table"); replayPage(m[1]); }
else lobby();
