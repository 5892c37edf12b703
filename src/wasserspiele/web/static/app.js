// The browser client: lobby, live table (WebSocket), replay viewer.
// Rules never run here: the server sends this seat's view and its legal moves in
// notation; each game module maps a move to the elements a player clicks.
import { t, lang, setLang, addStrings } from "./i18n.js";
import { h } from "./svg.js";

// Each game's client module is where its manifest puts it (`client` in /api/games).
const GAMES = {};
const { games: GAME_LIST } = await (await fetch("/api/games")).json();
await Promise.all(GAME_LIST.filter((g) => g.client).map(async (g) => { GAMES[g.name] = (await import(g.client)).default; }));
for (const g of Object.values(GAMES)) addStrings(g.strings || {});

const app = document.getElementById("app");
const show = (...nodes) => app.replaceChildren(...nodes.filter((n) => n !== null && n !== undefined && n !== false));
let rerender = () => {};

function applyStaticText() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
  document.title = t("app_title");
}

const langSelect = document.getElementById("lang");
langSelect.value = lang;
langSelect.addEventListener("change", () => { setLang(langSelect.value); applyStaticText(); rerender(); });
applyStaticText();

async function api(path, options = {}) {
  const res = await fetch(path, { headers: { "content-type": "application/json" }, ...options });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.reason || res.statusText);
  return body;
}

function seatName(seat) { return t("seat", { n: seat }); }

function errorText(msg) {
  const key = "err_" + msg.code;
  const local = t(key);
  return local !== key && lang !== "en" ? `${local} (${msg.reason})` : msg.reason;
}

// ---------------------------------------------------------------- lobby
async function lobby() {
  const { games, levels } = await api("/api/games");
  let current = games[0];
  let values = {};
  let seatKinds = [];
  let created = null;
  let lists = { running: [], over: [] };

  async function loadLists() {
    const [running, over] = await Promise.all([api("/api/tables?status=running"), api("/api/tables?status=over")]);
    lists = { running: running.tables, over: over.tables };
    render();
  }

  function players() {
    return current.fixed_players || values.players;
  }

  function resetGame(name) {
    current = games.find((g) => g.name === name) || games[0];
    values = Object.fromEntries(current.options.map((o) => [o.name, o.default]));
    fitSeats();
  }

  function fitSeats() {
    const n = players();
    seatKinds = Array.from({ length: n }, (_, i) => seatKinds[i] || (i === 0 ? "human" : "bot:medium"));
  }

  function optionInput(o) {
    const id = `opt-${o.name}`;
    const v = values[o.name];
    const set = (val) => { values[o.name] = val; if (o.name === "players") { fitSeats(); render(); } };
    let input;
    if (o.kind === "bool") {
      input = h("input", { id, type: "checkbox", name: o.name, checked: v ? true : null,
        onchange: (e) => set(e.target.checked) });
    } else if (o.kind === "choice") {
      input = h("select", { id, name: o.name, onchange: (e) => set(e.target.value) },
        o.choices.map((c) => h("option", { value: c, selected: c === v ? true : null }, t(`${current.name}.${o.name}.${c}`) === `${current.name}.${o.name}.${c}` ? c : t(`${current.name}.${o.name}.${c}`))));
    } else {
      input = h("input", { id, type: "number", name: o.name, value: v === null ? "" : v,
        step: o.kind === "float" ? "any" : "1", min: o.minimum ?? null, max: o.maximum ?? null,
        disabled: v === null ? true : null,
        onchange: (e) => {
          const raw = e.target.value;
          set(raw === "" ? o.default : (o.kind === "float" ? parseFloat(raw) : parseInt(raw, 10)));
        } });
    }
    const parts = [input];
    if (o.nullable) {
      parts.push(h("label", {}, h("input", { type: "checkbox", name: `${o.name}-null`, checked: v === null ? true : null,
        onchange: (e) => { values[o.name] = e.target.checked ? null : (o.default ?? 0); render(); } }), " ", t("null_value")));
    }
    const labelKey = `${current.name}.opt.${o.name}`;
    const label = t(labelKey) === labelKey ? o.name : t(labelKey);
    return [h("label", { for: id }, label), h("div", { class: "row" }, parts),
            h("div", { class: "help" }, o.help)];
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
    } catch (err) {
      created = { error: err.message };
    }
    render();
    loadLists();
  }

  function tableList(list, kind) {
    if (!list.length) return h("p", { class: "muted" }, t("none_yet"));
    return h("ul", { class: "links" }, list.map((tb) => h("li", {},
      h("a", { href: kind === "over" ? `/replay/${tb.id}` : `/table/${tb.id}`, "data-table": tb.id },
        `${GAMES[tb.game]?.title?.[lang] || tb.game} · ${t("moves_n", { n: tb.moves })} · `,
        tb.seats.map((s) => s.kind === "human" ? t("human") : `${t("bot")} (${t("level_" + s.level)})`).join(", "),
        " — ", kind === "over" ? t("replay") : t("watch")))));
  }

  function render() {
    const origin = location.origin;
    const createdBox = created && (created.error
      ? h("div", { class: "status refused", id: "create-error" }, t("refused", { reason: created.error }))
      : h("section", { class: "box", id: "created" }, h("h2", {}, t("links_title")),
          h("ul", { class: "links" },
            created.seats.filter((s) => s.kind === "human").map((s) => h("li", {},
              h("a", { href: s.link, "data-seat-link": s.seat }, t("open_seat", { n: s.seat })), ": ",
              h("code", {}, origin + s.link))),
            h("li", {}, h("a", { href: created.spectator_link, id: "spectator-link" }, t("spectator_link")), ": ",
              h("code", {}, origin + created.spectator_link)))));
    show(
      h("section", { class: "box" },
        h("h2", {}, t("new_table")),
        h("div", { class: "form-grid", id: "new-table" },
          h("label", { for: "game" }, t("game")),
          h("select", { id: "game", name: "game", onchange: (e) => { resetGame(e.target.value); render(); } },
            games.map((g) => h("option", { value: g.name, selected: g === current ? true : null }, GAMES[g.name]?.title?.[lang] || g.title))),
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

// ---------------------------------------------------------------- choosing moves by clicking
// Each legal move has a set of keys (elements to click) from the game module.  The player
// selects keys; elements that lead to some move are highlighted; moves whose keys equal the
// selection appear as buttons, and a selection that fits exactly one move plays it.
class Picker {
  constructor(game, view, legal, play) {
    this.game = game;
    this.view = view;
    this.play = play;
    this.entries = legal.map((a) => ({ action: a, keys: game.keys(a, view), label: game.label(a, view) }));
    this.selected = new Set();
  }
  candidates() {
    return this.entries.filter((e) => [...this.selected].every((k) => e.keys.includes(k)));
  }
  clickable() {
    const out = new Set();
    for (const e of this.candidates()) e.keys.forEach((k) => out.add(k));
    this.selected.forEach((k) => out.add(k));
    return out;
  }
  buttons() {
    if (!this.selected.size) return this.entries.filter((e) => !e.keys.length);
    return this.candidates().filter((e) => e.keys.length === this.selected.size);
  }
  click(key) {
    if (this.selected.has(key)) this.selected.delete(key);
    else {
      this.selected.add(key);
      if (!this.candidates().length) this.selected = new Set([key]);
    }
    const c = this.candidates();
    if (c.length === 1 && c[0].keys.length === this.selected.size) { this.play(c[0].action); return false; }
    return true;
  }
  ui(onChange) {
    const clickable = this.clickable();
    return {
      mark: (node, key) => {
        node.setAttribute("data-key", key);
        if (clickable.has(key)) {
          node.classList.add("clickable");
          if (this.selected.has(key)) node.classList.add("selected");
          node.addEventListener("click", (ev) => { ev.stopPropagation(); if (this.click(key)) onChange(); });
        } else {
          // not a legal choice: send the move it stands for anyway, so the server explains why
          const guess = this.game.guess ? this.game.guess(key, this.view) : null;
          if (guess) {
            node.classList.add("inactive");
            node.addEventListener("click", (ev) => { ev.stopPropagation(); this.play(guess); });
          }
        }
        return node;
      },
    };
  }
}

const passiveUi = { mark: (node, key) => { node.setAttribute("data-key", key); return node; } };

// ---------------------------------------------------------------- live table
function tablePage(tableId) {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  let msg = null;
  let notice = { text: t("connecting"), cls: "" };
  let picker = null;
  let socket = null;
  let closedForGood = false;
  let retry = 0;

  function send(obj) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(obj));
  }

  function play(action) {
    notice = { text: "", cls: "" };
    send({ type: "move", action, n: msg.n });
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}`);
    socket.addEventListener("open", () => { retry = 0; socket.send(JSON.stringify({ type: "hello", token })); });
    socket.addEventListener("message", (ev) => {
      const data = JSON.parse(ev.data);
      if (data.type === "state") {
        const moved = !msg || msg.n !== data.n || msg.my_choice !== data.my_choice;
        msg = data;
        if (moved || !picker) picker = null;
        if (notice.conn || notice.cls !== "refused" || moved) notice = { text: "", cls: "" };
        render();
      } else if (data.type === "refused") {
        notice = { text: t("refused", { reason: errorText(data) }), cls: "refused" };
        if (data.code === "bad_token" || data.code === "no_table") closedForGood = true;
        if (data.code === "stale") send({ type: "sync" });
        render();
      }
    });
    socket.addEventListener("close", () => {
      if (closedForGood) return;
      notice = { text: t("reconnecting"), cls: "refused", conn: true };
      render();
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, 300 * retry);
    });
  }

  function statusLine() {
    if (!msg) return "";
    if (msg.terminal) {
      const w = msg.winners.map(seatName).join(", ");
      return `${t("game_over")} ${w ? t("winners", { who: w }) : t("no_winner")}`;
    }
    if (msg.seat !== null && msg.my_choice) return t("you_chose", { a: GAMES[msg.game].label(msg.my_choice, msg.view) });
    if (msg.seat !== null && msg.legal.length) return t("your_turn");
    return t("waiting_for", { who: msg.waiting.map(seatName).join(", ") });
  }

  function seatChips() {
    return h("div", { class: "seats", id: "seats" }, msg.seats.map((s) => {
      const turn = msg.waiting.includes(s.seat);
      const who = s.kind === "bot" ? `${t("bot_short")} ${t("level_" + s.level)}` : (s.online ? t("online") : t("offline"));
      const extra = msg.chosen.includes(s.seat) ? ` · ${t("chosen")}` : (turn && s.kind === "bot" ? ` · ${t("thinking")}` : "");
      return h("span", { class: `seat-chip${turn ? " turn" : ""}${s.seat === msg.seat ? " me" : ""}`, "data-seat": s.seat },
        `${seatName(s.seat)}${s.seat === msg.seat ? " (" + t("you") + ")" : ""} · ${who}${extra} · ${t("score")} ${msg.scores[s.seat]}`);
    }));
  }

  function render() {
    if (!msg) { show(h("div", { class: `status ${notice.cls}`, id: "notice" }, notice.text)); return; }
    const game = GAMES[msg.game];
    if (!picker) picker = new Picker(game, msg.view, msg.legal, play);
    const ui = msg.legal.length ? picker.ui(render) : passiveUi;
    const buttons = msg.legal.length ? picker.buttons() : [];
    // every element some legal move needs, for checking that each move can be reached by tapping
    app.dataset.keys = JSON.stringify([...new Set(picker.entries.flatMap((e) => e.keys))]);
    const log = game.logLines(msg.view, msg);
    show(
      h("h2", {}, game.title[lang] || msg.title),
      h("div", { class: "muted" }, msg.seat === null ? t("spectating") : t("you_are", { n: msg.seat }), " ", game.status(msg.view, msg)),
      seatChips(),
      h("div", { class: `status ${msg.legal.length && !msg.terminal ? "yourturn" : ""}`, id: "turn", "data-n": msg.n,
        "data-mine": msg.legal.length ? "1" : "0", "data-terminal": msg.terminal ? "1" : "0" }, statusLine()),
      notice.text ? h("div", { class: `status ${notice.cls}`, id: "notice" }, notice.text) : null,
      h("div", { class: "board", id: "board" }, game.draw(msg.view, ui, msg)),
      msg.legal.length ? h("div", { class: "actions", id: "actions" },
        buttons.map((e) => h("button", { "data-action": e.action, onclick: () => play(e.action) }, e.label)),
        picker.selected.size ? h("button", { id: "clear", onclick: () => { picker.selected.clear(); render(); } }, t("cancel")) : null,
        !buttons.length && !picker.selected.size ? h("span", { class: "muted" }, t("pick_hint")) : null) : null,
      msg.terminal ? h("section", { class: "box", id: "result" }, h("h3", {}, t("result")), game.breakdown(msg.view, msg),
        h("p", {}, h("a", { href: `/replay/${tableId}`, id: "to-replay" }, t("to_replay")))) : null,
      h("section", { class: "box" }, h("h3", {}, t("log")), h("ol", { class: "log", id: "log" }, log.map((l) => h("li", {}, l)))));
  }

  rerender = render;
  render();
  connect();
}

// ---------------------------------------------------------------- replay viewer
async function replayPage(tableId) {
  let step = 0, data = null, timer = null, error = null;

  async function go(k) {
    try {
      data = await api(`/api/tables/${tableId}/replay/${k}`);
      step = data.step;
      error = null;
    } catch (err) { error = err.message; }
    render();
  }

  function render() {
    if (error) { show(h("div", { class: "status refused", id: "notice" }, t("refused", { reason: error }))); return; }
    if (!data) return;
    const game = GAMES[data.game];
    const msg = { ...data, seat: null, n: data.step, legal: [], seats: [] };
    show(
      h("h2", {}, `${t("replay_title")}: ${game.title[lang] || data.game}`),
      h("div", { class: "row" },
        h("button", { id: "first", onclick: () => go(0) }, t("first")),
        h("button", { id: "prev", disabled: step === 0 ? true : null, onclick: () => go(step - 1) }, t("prev")),
        h("span", { id: "step" }, t("step", { i: step, n: data.total })),
        h("button", { id: "next", disabled: step === data.total ? true : null, onclick: () => go(step + 1) }, t("next")),
        h("button", { id: "last", onclick: () => go(data.total) }, t("last")),
        h("button", { id: "autoplay", onclick: toggle }, timer ? t("pause_btn") : t("play_btn")),
        h("a", { href: `/api/tables/${tableId}/record`, download: `${tableId}.json` }, t("record"))),
      h("div", { class: "muted" }, game.status(data.view, msg)),
      h("div", { class: "board", id: "board" }, game.draw(data.view, passiveUi, msg)),
      data.terminal ? h("section", { class: "box", id: "result" }, game.breakdown(data.view, msg)) : null,
      h("section", { class: "box" }, h("h3", {}, t("log")),
        h("ol", { class: "log", id: "log" }, game.logLines(data.view, msg).map((l) => h("li", {}, l)))));
  }

  function toggle() {
    if (timer) { clearInterval(timer); timer = null; render(); return; }
    timer = setInterval(() => { if (data && step < data.total) go(step + 1); else { clearInterval(timer); timer = null; render(); } }, 700);
    render();
  }

  rerender = render;
  go(0);
}

// ---------------------------------------------------------------- routes
const path = location.pathname;
let m;
if ((m = path.match(/^\/table\/([\w-]+)$/))) tablePage(m[1]);
else if ((m = path.match(/^\/replay\/([\w-]+)$/))) replayPage(m[1]);
else lobby();
