// The page's words come from the server's message catalogue of the chosen language
// (GET /api/messages/LANG, the same .po files the terminal renders from): loaded once
// at start and again on a language switch.  The browser's language picks first, the
// header's menu switches.  Keys: the client's own words are catalogue entries `web.KEY`
// (called as `t("KEY")`), a game's `GAME.web.KEY` (called as `t("GAME.KEY")`); any
// other code of the catalogue (refusals, events, terms) renders under its own name.
import { Catalogue } from "./messages.js";

const LANGS = ["en", "de"];
let current = null;   // the Catalogue of `lang`
let words = {};       // client key → catalogue code

function initialLang() {
  // a link that names its language (`?lang=de`, as the rules pages take it) is followed
  // and kept, over what this browser chose before
  const asked = new URLSearchParams(location.search).get("lang")?.slice(0, 2).toLowerCase();
  if (asked && LANGS.includes(asked)) return asked;
  const saved = localStorage.getItem("lang");
  if (saved && LANGS.includes(saved)) return saved;
  const nav = (navigator.languages || [navigator.language || "en"]).map((l) => l.slice(0, 2).toLowerCase());
  return nav.find((l) => LANGS.includes(l)) || "en";
}

export let lang = initialLang();

async function fetchCatalogue(l) {
  const res = await fetch(`/api/messages/${l}`);
  if (!res.ok) throw Object.assign(new Error(`no message catalogue for ${l} (${res.status})`), { status: res.status });
  const body = await res.json().catch(() => { throw Object.assign(new Error(`unreadable message catalogue for ${l}`), { unreadable: true }); });
  const cat = new Catalogue(body);
  // the page draws a ten as "10" (svg.js rankText), so its words name it so too: a refusal
  // "you hold Q♥ and T♥" under cards showing 10♥ read as a code (the terminal keeps "T")
  cat.rankText = (rank) => (rank === "T" ? "10" : undefined);
  // a seat a refusal names (`{seat:seat}`, "it is not seat 1's turn") by its player's name
  // or bot, as the chips and the log name it; a seat nobody named keeps the catalogue's
  // "seat 1" (the words of `seatInText`)
  cat.seatText = (n) => seatNamer(n);
  return cat;
}

function index(cat) {
  const out = {};
  for (const code of Object.keys(cat.messages)) {
    const web = code.match(/^web\.(.+)$/) || code.match(/^([^.]+)\.web\.(.+)$/);
    if (!web) continue;
    out[web.length === 2 ? web[1] : `${web[1]}.${web[2]}`] = code;
  }
  return out;
}

// Load (or switch to) the catalogue of `l`; resolves when the page can render in it.
let wanted = null;
export async function setLang(l) {
  if (!LANGS.includes(l)) return;
  wanted = l;
  const cat = await fetchCatalogue(l);
  if (wanted !== l) return;  // a later switch overtook this one
  current = cat;
  words = index(cat);
  lang = l;
  localStorage.setItem("lang", l);
  document.documentElement.lang = l;
}

function codeOf(key) { return words[key] ?? key; }

// A game that ships no catalogue of its own (the test-only fifth game) may bring its
// words in its module (`strings`, a table per language); the catalogue wins.
const moduleWords = { en: {}, de: {} };
export function addStrings(table) {
  for (const l of LANGS) Object.assign(moduleWords[l], table[l] || {});
}

export function has(key) {
  return Boolean(current && current.has(codeOf(key))) || key in moduleWords[lang] || key in moduleWords.en;
}

// How a seat is called: its player's name or its bot ("Anna", "Bot (easy)"), set by the
// page, else its number in the catalogue's words.  A seat nobody names has two forms, as
// any noun: standing alone (a chip, a column head, the start of a line) it is "Seat 2",
// inside a sentence "seat 2" ("Waiting for seat 2."); German says "Platz 2" in both.  A
// name is the same in both.
let seatNamer = () => null;
export function setSeatNamer(fn) { seatNamer = fn; }
export function seatLabel(n) { return seatNamer(n) || t("seat", { n }); }
export function seatInText(n) { return seatNamer(n) || t("seat_in_text", { n }); }
// A seat standing alone in a list of every seat (a round's points line by line, a score
// table's column heads), the page's own marked as its chip is: "Seat 1 (you)" ("Seat 1: +2
// this round" was read to seat 1 as if it were another's); `seatInTextFor` the same inside
// a sentence ("Won by: seat 0 (you)", Wildwasser's tie-break "… decides for seat 0 (you)").
// `reader` is the page's seat (view.seat); a spectator's (null, undefined) marks none.
function ownMarked(words, n, reader) { return n === reader ? `${words} (${t("you")})` : words; }
export function seatLabelFor(n, reader) { return ownMarked(seatLabel(n), n, reader); }
export function seatInTextFor(n, reader) { return ownMarked(seatInText(n), n, reader); }

// A line as it is shown (a log line, an announcement, the turn line): one that begins
// with an unnamed seat's in-sentence word ("seat 2 deals") begins with its capital, as a
// sentence does.  A name a player typed is shown as typed, also at a line's start
// ("anna deals", "iPhone-Fan gibt").  German "Platz" is a capital word already.
export function sentence(text) {
  const word = t("seat_in_text", { n: "\u0000" }).split("\u0000")[0];   // "seat ", "Platz "
  return text && word && text.startsWith(word) ? word.charAt(0).toLocaleUpperCase(lang) + text.slice(1) : text;
}

// Lines worded to be spoken (app.js: the log's new lines for the live region): the seat
// that hears them is "you" where a line is about it (a sighted player knows their own seat
// by its chip; "Seat 0 took …" read to them as if it were another's), and a card is named
// in words (svg.js cardText) rather than by a sign a screen reader skips ("7♦").  Set only
// while `fn` runs: the log on screen keeps its seats and signs.
let voice = null;     // {you: the hearing seat, or null for a spectator} while speaking
export function speaking(you, fn) {
  const before = voice;
  voice = { you: Number.isInteger(you) ? you : null };
  try { return fn(); } finally { voice = before; }
}
export function spoken() { return voice !== null; }

// The one place where log lines, announcements and refusals become words: a sentence,
// each seat it names said by its in-sentence word — `seat` as `who`, and any other under
// its own name in `seats` ({who2: 3}, Watten's {d: dealer, c: caller}); a team is the
// list of its seats ({team: [0, 2]}: "seat 0 + seat 2", "Anna + seat 2").  Spoken to a
// seat the line names (or one of a team it names), the catalogue's form for it where it
// has one: `CODE.you` where it is the line's `who` ("You took …", „Du hast … genommen"),
// `CODE.you_NAME` where it is (in) the seat NAME ("{who} gave you the start marker",
// „{who} gab dir den Startmarker": the object of a sentence takes its own case, which a
// "you" put in for the seat's word would not; "Your team: 3 points", „Dein Team: …");
// the first seat named (`who` first) that has a form wins.  A line shown on screen is
// worded so for the seat `reader` where its game gives one (the page's own seat,
// view.seat): words a player reads as about themselves (Wildwasser's move "Start marker
// to yourself", Watten's team lines where the table already says "us : them").  The log
// on screen, given no reader, keeps a player's own moves under the seat's word.
function seatWords(seat) {
  return Array.isArray(seat) ? seat.map(seatInText).join(" + ") : Number.isInteger(seat) ? seatInText(seat) : "";
}

export function say(code, params = {}) {
  const { seats = {}, reader, ...out } = params;
  const named = params.seat === undefined ? { ...seats } : { who: params.seat, ...seats };
  for (const [name, seat] of Object.entries(named)) {
    if (out[name] === undefined) out[name] = seatWords(seat);
  }
  const you = voice ? voice.you : Number.isInteger(reader) ? reader : null;
  if (you !== null) {
    for (const [name, seat] of Object.entries(named)) {
      const form = name === "who" ? `${code}.you` : `${code}.you_${name}`;
      const yours = Array.isArray(seat) ? seat.includes(you) : seat === you;
      if (yours && has(form)) return sentence(t(form, out));
    }
  }
  return sentence(t(code, out));
}

// A refusal from the server: its reason (reason_code + params) rendered here in the
// page's language; else the client's words for the server's code (`err_CODE`); else the
// server's localised message, else its English words.  The code `text` is words passed
// on as they are (a lower layer's English, e.g. a malformed body): shown as such on an
// English page only, since on any other it would be the one English sentence.
export function refusalText(data) {
  const worded = data.reason_code && (data.reason_code !== "text" || lang === "en");
  if (worded && current?.has(data.reason_code)) return current.render(data.reason_code, data.params || {});
  const code = data.code || data.error;
  if (code && has("err_" + code)) return t("err_" + code);
  return data.message || data.reason || String(data.code || data.error || "");
}

// The refusals that are no ruling on the player's move: the server could not save it or
// read the table (`storage`), the position moved on first (`stale`, `reload`), too many
// messages, a failure of the server.  Framed as a rule's refusal they read as the
// player's fault ("Refused: the move could not be saved", „Nicht erlaubt: der Zug konnte
// nicht gespeichert werden"): they are shown as their reason alone, a sentence.
const NOT_BY_THE_RULES = new Set(["storage", "stale", "reload", "too_many", "internal"]);
export function byTheRules(data) {
  return !NOT_BY_THE_RULES.has(data?.code || data?.error);
}

// A refusal's words for a notice: "Refused: {reason}" for one by the rules, else the reason.
export function refusalNotice(data) {
  const reason = refusalText(data);
  if (byTheRules(data)) return t("refused", { reason });
  return reason.charAt(0).toLocaleUpperCase(lang) + reason.slice(1);
}

// Why a page (a table, a replay) cannot be shown, as a sentence: no such table, a replay
// asked for while its game runs.  Nothing the reader did was refused there, and
// "Refused: no such table" („Nicht erlaubt: diesen Tisch gibt es nicht") read as if it had;
// a link no longer valid (`bad_token`) was refused, and says so (refusalNotice).
const PAGE_FACTS = new Set(["no_table", "running", "not_found"]);
export function pageError(data) {
  if (!PAGE_FACTS.has(data?.code || data?.error)) return refusalNotice(data);
  const reason = refusalText(data);
  return reason.charAt(0).toLocaleUpperCase(lang) + reason.slice(1);
}

// The text of a client key or catalogue code with `params`; an unknown key shows itself.
// In words to be spoken (speaking), a key's spoken form `KEY.spoken` where the catalogue
// has one: a sign the screen shows is read as something else, or not at all (Wasserloch's
// "1 × 3", count × value, is "1 times 3" to NVDA at its default symbol level, "1 3" at
// level "none": a product, not one card of the 3).
export function t(key, params = {}) {
  if (voice && !key.endsWith(".spoken") && has(`${key}.spoken`)) key = `${key}.spoken`;
  const text = current.render(codeOf(key), params);
  if (text !== undefined) return text;
  const own = (params.n === 1 ? moduleWords[lang][key + "_1"] ?? moduleWords.en[key + "_1"] : undefined)
    ?? moduleWords[lang][key] ?? moduleWords.en[key];
  return own === undefined ? key : current.format(own, params);
}

// A term of the catalogue ("card.rank" of "K" → "König"), for game modules.
export function term(value, kind) { return current.terms(value, kind); }

// A game's name in the language: its catalogue entry `GAME.web.title`, else its module's.
export function gameTitle(name, module, fallback) {
  return has(`${name}.title`) ? t(`${name}.title`) : (module?.title?.[lang] || fallback || name);
}

// The catalogue failed before the page drew anything: instead of a blank page (the module's
// top-level await rejected, so the page's script never ran), a plain notice in both
// languages, the page's own first, that says what failed, with a button to try again.  Its
// words are index.html's (#load-failure-words), as the page's words without JavaScript are:
// which language the reader takes the page cannot know without the catalogue.  A network
// failure rejects the fetch itself (no status), an answer that is no catalogue fails to parse.
function loadFailed(err, retry) {
  const words = document.getElementById("load-failure-words").content.firstElementChild;
  const [sayWords, buttonWords] = words.children;
  // copies of a part's words in each language, the page's own first
  const ordered = (parent) => [...parent.querySelectorAll(":scope > [lang]")]
    .sort((a, b) => (b.lang === lang) - (a.lang === lang)).map((n) => n.cloneNode(true));
  let box = document.getElementById("load-failure");
  if (!box) {
    box = words.cloneNode(false);
    const button = buttonWords.cloneNode(false);
    button.append(...ordered(buttonWords).flatMap((n, k) => (k ? [" · ", n] : [n])));
    button.addEventListener("click", () => {
      if (button.getAttribute("aria-busy") === "true") return;   // a try under way
      button.setAttribute("aria-busy", "true");
      box.retry();   // this failure's, not the first one's
    });
    box.append(sayWords.cloneNode(false), button);
    (document.getElementById("app") || document.body).replaceChildren(box);
  }
  const [text, button] = box.children;
  box.retry = retry;
  button.removeAttribute("aria-busy");
  const why = err?.status ? "status" : err?.unreadable ? "unreadable" : "network";
  // worded anew at each failure (the alert is said again), with the part for this one
  text.replaceChildren(...ordered(sayWords).map((p) => {
    for (const part of p.querySelectorAll("[data-why]")) if (part.dataset.why !== why) part.remove();
    for (const n of p.querySelectorAll(".status")) n.textContent = err?.status ?? "";
    return p;
  }));
}

// The first catalogue: tried until it comes (at the player's "try again", or when the
// browser is back online), so that the module resolves only with words to render.
async function firstCatalogue() {
  for (;;) {
    try {
      await setLang(lang);
      document.getElementById("load-failure")?.remove();
      return;
    } catch (err) {
      await new Promise((resolve) => {
        const again = () => { removeEventListener("online", again); resolve(); };
        addEventListener("online", again);
        loadFailed(err, again);
      });
    }
  }
}

await firstCatalogue();
