// The pieces of the live table and the replay that are the same for every game:
// choosing moves (pointer and keyboard), the one-screen layout, motion, announcements.
// Rules never run here: the server sends this seat's view and its legal moves in notation;
// each game module maps a move to the elements a player clicks.
import { t, seatLabel, seatInText } from "./i18n.js";
import { h } from "./svg.js";

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// ---------------------------------------------------------------- choosing moves
// Each legal move has a set of keys (elements to click) from the game module.  The player
// selects keys; elements that lead to some move are highlighted; moves whose keys equal the
// selection appear as buttons, and a selection that fits exactly one move plays it.
export class Picker {
  constructor(game, view, legal, play, explain) {
    this.game = game;
    this.view = view;
    this.play = play;
    this.explain = explain;   // (key, node) => show why tapping this does nothing
    // a button's words: the game's own for a button where its move's label has a sign a
    // screen reader reads as something else (Wasserloch's "2 × 3", wasserloch/web.js button)
    this.entries = legal.map((a) => ({ action: a, keys: game.keys(a, view),
                                       label: game.button ? game.button(a, view) : game.label(a, view) }));
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
  // `onChange` draws the table anew (also when the layout changes); `onChoose`, if given,
  // instead when the player's selection changed (the page may drop what a tap before said)
  ui(onChange, active = true, onChoose = onChange) {
    redrawTable = onChange;   // the table drawn anew (app.js render): also when the layout changes
    const clickable = active ? this.clickable() : new Set();
    const name = (key) => (this.game.name ? this.game.name(key, this.view) : key);
    return {
      mark: (node, key) => {
        node.setAttribute("data-key", key);
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "-1");
        // what the page says of the piece besides the game's name for it (a seat chip's state)
        node.setAttribute("aria-label", [name(key), node.dataset.says].filter(Boolean).join("; "));
        if (clickable.has(key)) {
          node.classList.add("clickable");
          if (this.selected.has(key)) { node.classList.add("selected"); node.setAttribute("aria-pressed", "true"); }
          node.addEventListener("click", (ev) => { ev.stopPropagation(); if (this.click(key)) onChoose(); });
          // the game may say on the piece what choosing it does (Wildwasser's seat chips)
          this.game.offer?.(node, key, this.view, this.candidates().filter((e) => e.keys.includes(key)).map((e) => e.action));
          return node;
        }
        node.setAttribute("aria-disabled", "true");
        // not a legal choice: send the move it stands for anyway, so the server explains why;
        // or say here why tapping it does nothing now
        // (the selection too: Seven Waters' line tapped after cards is the slide of those cards)
        const guess = active && this.game.guess ? this.game.guess(key, this.view, [...this.selected]) : null;
        node.classList.add("inactive");
        node.addEventListener("click", (ev) => {
          ev.stopPropagation();
          if (guess) this.play(guess, node);
          else this.explain(key, node);
        });
        return node;
      },
    };
  }
}

// ---------------------------------------------------------------- keyboard
// Tab reaches each group (board, hand, seats) once; arrow keys move within it; Enter or
// Space chooses; Escape clears the selection.  One element per group is in the tab order.
export function rovingTabIndex(root) {
  root.querySelectorAll("[data-group]").forEach((group) => {
    const items = [...group.querySelectorAll("[data-key]")];
    if (!items.length) return;
    const entry = items.find((n) => n.classList.contains("selected"))
      || items.find((n) => n.classList.contains("clickable")) || items[0];
    entry.setAttribute("tabindex", "0");
  });
}

export function keyboardHandler(onEscape) {
  return (ev) => {
    const node = ev.target.closest?.("[data-key]");
    if (ev.key === "Escape") { onEscape(); ev.preventDefault(); return; }
    if (!node) return;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      return;
    }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity }[ev.key];
    if (step === undefined) return;
    const group = node.closest("[data-group]");
    if (!group) return;
    ev.preventDefault();
    const items = [...group.querySelectorAll("[data-key]")];
    let i = items.indexOf(node);
    i = step === -Infinity ? 0 : step === Infinity ? items.length - 1 : (i + step + items.length) % items.length;
    node.setAttribute("tabindex", "-1");
    items[i].setAttribute("tabindex", "0");
    items[i].focus();
  };
}

// The skip link (index.html, WCAG 2.4.1): from the top of a table page to the board in one
// Tab and Enter rather than seven Tabs past the header and the top bar.  Its own
// navigation is not followed: a seat link's hash holds the seat and its token, and a
// changed hash opens the table anew (app.js).  The focus goes to the board's piece in the
// tab order (rovingTabIndex), else to the board itself.
document.addEventListener("click", (ev) => {
  if (!ev.target.closest?.("#skip-link")) return;
  ev.preventDefault();
  const board = document.getElementById("board");
  if (!board) return;
  let target = board.querySelector("[data-key][tabindex='0']");
  if (!target) { board.setAttribute("tabindex", "-1"); target = board; }
  target.focus();
  target.scrollIntoView?.({ block: "nearest" });
});

// Where the keyboard focus was, so that a redraw can put it back on the same card or place.
// A move made with a button (after choosing a piece) gives the focus back to that piece;
// a piece that left with the move (a card played from the hand) to its neighbour in the
// same group, so that the player stays where they were (and never on the page's body).
// The group of the piece last focused: a piece may stand in two groups under one key
// (Wasserloch's 3s on the board and in the hand), and the one chosen from is meant.
let lastGroup = null;
document.addEventListener("focusin", (ev) => {
  const group = ev.target.closest?.("[data-key]")?.closest("[data-group]");
  if (group) lastGroup = group.dataset.group;
});

// How to find a control again once its part of the page is drawn anew: its id, else the
// first of `attrs` it carries (its name, or the table, seat or entry it stands for).
export function focusSelector(el, attrs) {
  if (el.id) return `#${CSS.escape(el.id)}`;
  for (const attr of attrs) {
    const v = el.getAttribute(attr);
    if (v !== null) return `${el.tagName.toLowerCase()}[${attr}="${CSS.escape(v)}"]`;
  }
  return null;
}

// The one focus memory of every page.  A page of forms (the lobby) passes `attrs`, the
// attributes that name its controls (focusSelector), with `root` (focus outside it is not
// its own), and may name a `kind` of control that can vanish (a forgotten table): the focus
// then goes to the next of that kind, else to `fallback`.  A table passes nothing: its
// pieces, groups and move buttons are found as below.
export function rememberFocus(attrs = null, { root = document, kind = null, fallback = null } = {}) {
  const a = document.activeElement;
  if (!a || a === document.body || !root.contains(a)) return null;
  const ofKind = kind && a.matches(kind) ? kind : null;
  const form = { root, selector: attrs ? focusSelector(a, attrs) : null, kind: ofKind,
                 kindIndex: ofKind ? [...root.querySelectorAll(ofKind)].indexOf(a) : -1,
                 fallback: ofKind ? fallback : null };
  const chosen = a.closest?.("#actions")
    ? (lastGroup && document.querySelector(`[data-group="${lastGroup}"] .selected[data-key]`))
      || document.querySelector("[data-group] .selected[data-key]")
    : null;
  const piece = a.dataset?.key ? a : chosen;
  const group = piece?.closest("[data-group]");
  // a detail's title: where it stands (under the board, beside it) and which of them it is
  const panels = a.matches?.(".panel > summary") ? a.closest("#under, #side") : null;
  return { ...form, key: a.dataset?.key, action: a.dataset?.action, id: a.id,
           panels: panels?.id, panelIndex: panels ? [...panels.querySelectorAll(":scope > .panel > summary")].indexOf(a) : -1,
           group: a.closest?.("[data-group]")?.dataset.group,
           chosen: chosen?.dataset.key, pieceGroup: group?.dataset.group,
           index: group ? [...group.querySelectorAll("[data-key]")].indexOf(piece) : -1,
           recent: lastGroup, inTools: !!a.closest?.(".tools"), inPlay: !!a.closest?.("#play") };
}

export function restoreFocus(saved) {
  if (!saved || (document.activeElement && document.activeElement !== document.body)) return;
  const q = (sel) => document.querySelector(sel);
  const inGroup = (group, key) => group && key && q(`[data-group="${group}"] [data-key="${CSS.escape(key)}"]`);
  const neighbour = () => {
    const items = saved.pieceGroup ? [...document.querySelectorAll(`[data-group="${saved.pieceGroup}"] [data-key]`)] : [];
    return saved.index >= 0 && items.length ? items[Math.min(saved.index, items.length - 1)] : null;
  };
  const others = saved.kind ? [...saved.root.querySelectorAll(saved.kind)] : [];
  const target = (saved.selector && saved.root.querySelector(saved.selector))
    || others[Math.min(saved.kindIndex, others.length - 1)]
    || (saved.fallback && saved.root.querySelector(saved.fallback))
    || inGroup(saved.group, saved.key)
    || (saved.action && (q(`#actions button[data-action="${CSS.escape(saved.action)}"]`) || q("#actions button[data-action]")))
    || inGroup(saved.pieceGroup, saved.chosen)
    || neighbour()
    || (saved.key && q(`[data-key="${CSS.escape(saved.key)}"]`))
    || (saved.id && !document.getElementById(saved.id)?.disabled && document.getElementById(saved.id))
    // a detail gone with the position (Seven Waters' park of the seat no longer to move):
    // the title of the one in its place
    || (saved.panels && document.querySelectorAll(`#${saved.panels} > .panel > summary`)[saved.panelIndex])
    || (saved.group && q(`[data-group="${saved.group}"] [data-key][tabindex="0"]`))
    // the name form gone once the name is saved: the next of the top bar's tools (never a
    // move button, which a second Enter would press)
    || (saved.inTools && q(".tools a, .tools button:not(:disabled)"))
    // a move made with a button alone: back to the group the player last chose in
    || (saved.inPlay && saved.recent && q(`[data-group="${saved.recent}"] [data-key][tabindex="0"]`))
    || (saved.inPlay && (q("#actions button") || q("[data-group] [data-key][tabindex='0']") || q("#turn")));
  if (target) {
    if (target.dataset.key) {
      const group = target.closest("[data-group]");
      group?.querySelectorAll("[data-key][tabindex='0']").forEach((n) => n.setAttribute("tabindex", "-1"));
      target.setAttribute("tabindex", "0");
    }
    target.focus({ preventScroll: true });
  }
}

// ---------------------------------------------------------------- motion
// Elements carry `data-anim` (the same piece before and after a move: a card's code, an
// animal) and may carry `data-from` (where a newly shown piece comes from: a seat).
// Before a redraw their screen positions are measured; afterwards each piece glides from
// where it was ("FLIP"), so a card travels from a hand to its place.
export function measure(root) {
  const out = new Map();
  root.querySelectorAll("[data-anim]").forEach((n) => out.set(n.dataset.anim, n.getBoundingClientRect()));
  root.querySelectorAll("[data-origin]").forEach((n) => out.set("origin:" + n.dataset.origin, n.getBoundingClientRect()));
  return out;
}

function svgScale(node) {
  const m = node.ownerSVGElement?.getScreenCTM?.() || node.getScreenCTM?.();
  return m && m.a ? m.a : 1;
}

export function animateFrom(before, root, duration = 450) {
  if (!before || reducedMotion()) return;
  root.querySelectorAll("[data-anim]").forEach((n) => {
    const was = before.get(n.dataset.anim) || (n.dataset.from && before.get("origin:" + n.dataset.from));
    if (!was) return;
    const now = n.getBoundingClientRect();
    const dx = was.left + was.width / 2 - (now.left + now.width / 2);
    const dy = was.top + was.height / 2 - (now.top + now.height / 2);
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
    const k = n instanceof SVGElement ? svgScale(n) : 1;
    n.animate([{ transform: `translate(${dx / k}px, ${dy / k}px)` }, { transform: "translate(0, 0)" }],
      { duration, easing: "cubic-bezier(.2,.7,.3,1)" });
  });
}

// Pieces that leave the table (driven-off cards, a taken trick) are drawn once as a ghost
// with `data-fly-to` naming where they go (a seat); they glide there and fade.
export function flyAway(root, duration = 900) {
  root.querySelectorAll("[data-fly-to]").forEach((n) => {
    const target = root.querySelector(`[data-origin="${CSS.escape(n.dataset.flyTo)}"]`);
    if (!target || reducedMotion()) { n.remove(); return; }
    const from = n.getBoundingClientRect(), to = target.getBoundingClientRect();
    const k = n instanceof SVGElement ? svgScale(n) : 1;
    const dx = (to.left + to.width / 2 - (from.left + from.width / 2)) / k;
    const dy = (to.top + to.height / 2 - (from.top + from.height / 2)) / k;
    n.animate([{ transform: "translate(0, 0)", opacity: 1 }, { transform: "translate(0, 0)", opacity: 1, offset: 0.3 },
               { transform: `translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0 }],
              { duration, easing: "ease-in", fill: "forwards" }).finished.then(() => n.remove(), () => {});
  });
}

// ---------------------------------------------------------------- pacing
// Other players' moves arrive faster than a person can follow (a bot answers at once):
// they are shown one after another, each at least `gap` ms; a position where it is this
// seat's turn, and every position with reduced motion, is shown at once.
export class Pacer {
  // `gapAfter(msg)`: how long the position `msg` stays before the next one is shown
  constructor(show, gapAfter = () => 650) { this.show = show; this.gapAfter = gapAfter; this.queue = []; this.timer = null; this.last = 0; this.gap = 0; }
  push(msg, urgent) {
    const now = performance.now();
    if (reducedMotion() || (urgent && !this.queue.length && now - this.last >= this.gap) || (!this.timer && now - this.last >= this.gap)) {
      this.queue = [];
      this.flush(msg);
      return;
    }
    this.queue.push(msg);
    if (!this.timer) this.timer = setTimeout(() => this.tick(), Math.max(0, this.gap - (now - this.last)));
  }
  tick() {
    this.timer = null;
    const next = this.queue.shift();
    if (next) this.flush(next);
    if (this.queue.length) this.timer = setTimeout(() => this.tick(), this.gap);
  }
  flush(msg) { this.last = performance.now(); this.gap = this.gapAfter(msg); this.show(msg); }
  stop() { clearTimeout(this.timer); this.timer = null; this.queue = []; }
}

// ---------------------------------------------------------------- a steady layout
// A strip whose words change as the game goes on (the seat chips' "to move", "thinking …",
// "has chosen" moving from seat to seat; the game's status line) wraps onto another line in
// one position and not in the next, and everything below it would jump at each move.  It
// keeps the tallest height it has had on this page at this width and in this language (and
// with the same `parts`: a strip that has lost a part for good, such as the name form once
// a name is given, starts afresh); `room` is the page's memory.  A height the player's own
// passing choice gives it (`passing`: the move buttons of a card selected, Seven Waters'
// joker with its 19) is not kept: the board gave its room to them for the rest of the game
// (on a phone 385 px high before a joker was selected, 128 px after it, ranks of 4.6 px).
export function keepTallest(node, room, parts = "", passing = false) {
  if (!node) return;
  const at = `${window.innerWidth}/${document.documentElement.lang}/${parts}`;
  if (room.at !== at) { room.at = at; room.height = 0; }
  node.style.minHeight = "";
  const height = node.getBoundingClientRect().height;
  if (!passing) room.height = Math.max(room.height, height);
  node.style.minHeight = `${room.height}px`;
}

// On a phone the play column is at least a screen high and the board takes the room the
// other parts leave (style.css), so that a player's hand and move buttons are on the first
// screen; on a wide screen the column is the screen's height beside the log, and the board
// takes the room left there.  A board drawn wider than its room's shape (Watten's table and
// Wildwasser's river on a phone; Seven Waters' pyramid beside a park, 2.2 times as wide as
// high, on a wide screen), or a column with no hand below the board (a spectator's, a
// replay's), left a box far taller than the board drawn across it: on a phone 80 to 175 px
// blank above the board and as much below it, scrolled past to reach the log; on a wide
// screen 100 to 137 px above and below a spectator's Seven Waters board, 31 to 49 px at a
// player's.  The column is made shorter by the box's blank part (style.css's `--fit` names
// what: a phone's least height, a wide screen's height), so the box fits the board drawn
// at the column's width (from the picture's viewBox, whatever the game) and what follows
// it (the hand, the move bar) stands right below it; where the board needs the whole room
// or more, nothing changes.  The column keeps the least height it has been fitted to at
// this screen size and in this language (`room`) while a hand or a move bar stands below
// the board: a strip above the board that grows (keepTallest) then takes its room from the
// board, as before, and the hand and the buttons never move down; a board whose picture
// grows taller (Seven Waters' park) is drawn a little smaller in its box instead.  Run once
// the page is shown and its strips' heights are kept; again when the window changes size.
let fitting = null;
export function fitBoard(room) {
  fitting = room;
  // a detail moved between the columns loses the keyboard focus on its title: given back
  const focused = document.activeElement;
  fitColumn(room);
  if (focused?.isConnected && focused !== document.body && document.activeElement === document.body) {
    focused.focus({ preventScroll: true });
  }
}

function fitColumn(room) {
  const play = document.getElementById("play");
  const board = document.getElementById("board");
  if (!play || !board) return;
  play.style.minHeight = "";
  play.style.height = "";
  board.style.minHeight = "";
  const under = document.getElementById("under");
  // the details back in the side column (under the board they are its first ones, in order)
  const side = document.getElementById("side");
  const first = side?.querySelector(":scope > .panel, :scope > .keys-help");
  if (under && side) under.querySelectorAll(":scope > .panel").forEach((p) => toSide(p, side, first));
  const svg = board.querySelector(":scope > svg, :scope > .boardwrap > svg");
  const vb = svg?.viewBox?.baseVal;
  const fit = getComputedStyle(play).getPropertyValue("--fit").trim();
  // only where the column has a height of the screen's (a phone's least, a wide screen's
  // own) and the board grows into it (not at the game's end, where the board keeps its
  // drawn size already)
  if (!vb || !vb.width || !vb.height || (fit !== "min-height" && fit !== "height")
      || getComputedStyle(board).flexGrow === "0") return;
  const at = `${window.innerWidth}x${window.innerHeight}/${document.documentElement.lang}`;
  if (under && fit === "height") detailsUnder(under, board, vb, room, at);
  foldAtHand(play, board, vb, fit);
  // On a phone (the page scrolls down) the move bar below the hand grows downwards: the
  // height it keeps (keepTallest, app.js) beyond the one it had when the column was first
  // fitted (`room.bar`) is added to the column.  Taken from the board, a bar grown to a
  // second row for good (Watten's two answers to a raise, its four signals) left the board
  // drawn smaller for the rest of the game (Watten's seat words 9.0 px); the hand stays
  // where it was either way.  A player's passing choice (Seven Waters' joker with its 19)
  // is not kept by the bar, and the board still gives way to it.
  const bar = fit === "min-height" ? parseFloat(play.querySelector(":scope > .actions")?.style.minHeight) || 0 : 0;
  // with no hand and no move bar below the board (a spectator, the replay) there is nothing
  // to keep in place: the box fits the board at each position, at its full size
  if (room.at !== at || !play.querySelector("#hand, .actions")) { room.at = at; room.height = Infinity; room.bar = bar; }
  const grown = Math.max(0, bar - room.bar);
  const box = board.getBoundingClientRect(), column = play.getBoundingClientRect().height;
  const drawn = Math.max(box.width * vb.height / vb.width, parseFloat(getComputedStyle(board).minHeight) || 0);
  room.height = Math.min(room.height, column - (box.height - drawn) - grown);
  const height = room.height + grown;
  if (height < column - 1 || grown > 0) play.style[fit === "height" ? "height" : "minHeight"] = `${height}px`;
}
// A fit on a resize is not kept as the column's least height: the board may still be the
// picture drawn for the other layout (its redraw comes after, layoutMatches), and its blank
// part, kept, shrank the board for the rest of the game (Wasserloch's waterhole from 361 to
// 190 px high after a phone was turned sideways and back).  The next drawing fits anew.
window.addEventListener("resize", () => {
  if (!fitting) return;
  fitting.at = null;
  fitBoard(fitting);
  fitting.at = null;
});

// A column whose first screen ends with the hand (style.css `--fold: hand`: Seven Waters on
// a phone held sideways, taller than 300 px): the move bar below the hand may stand below
// the screen, as it did already (at 667 × 375 and 740 × 360 it ended 43 and 38 px below it,
// at 844 × 390 5 px), and the board takes its room.  The column filled the screen with the
// move bar in it: the board kept 7rem (112 px) above the hand, its pyramid's cards 23.3 px
// wide.  On a phone (`--fit: min-height`, the page scrolls) the column is made as much
// taller as the hand ends above the screen's bottom; what follows (fitColumn) makes it
// shorter again where the board is drawn less tall.  Beside the log (844 × 390: `--fit:
// height`, the column is the screen's height and scrolls itself) the board's box grows by
// as much as the hand ends above the column's bottom, up to the board's height drawn across
// it.
function foldAtHand(play, board, vb, fit) {
  if (getComputedStyle(play).getPropertyValue("--fold").trim() !== "hand") return;
  const hand = play.querySelector(":scope > #hand");
  if (!hand) return;
  if (fit === "min-height") {
    // the first screen is the page's top to the window's height, wherever it is scrolled to
    const spare = window.innerHeight - (hand.getBoundingClientRect().bottom + window.scrollY);
    if (spare >= 1) play.style.minHeight = `${Math.floor(play.getBoundingClientRect().height + spare)}px`;
    return;
  }
  const column = play.getBoundingClientRect();
  const end = column.bottom - parseFloat(getComputedStyle(play).paddingBottom);
  const spare = end - (hand.getBoundingClientRect().bottom + play.scrollTop);
  const box = board.getBoundingClientRect();
  const grow = Math.min(spare, box.width * vb.height / vb.width - box.height);
  if (grow >= 1) board.style.minHeight = `${Math.floor(box.height + grow)}px`;
}

// A phone held sideways (560 px wide or more, 500 px high at most, 1.4 times as wide as
// high: 568 × 320 to 844 × 390, a window zoomed to 200 %): the board's room above the hand
// is about 112 px high and 560 to 730 px wide.  Wasserloch's waterhole, Watten's table and
// Wildwasser's river, drawn about as high as wide, were drawn 112 px high in it (places of
// 22 px, words of 3.3 to 3.8 px); with this query they draw a board as wide as that room.
export const SIDEWAYS = "(min-width: 560px) and (max-height: 500px) and (min-aspect-ratio: 7/5)";

// Whether the screen answers a media query by which a game draws its board in another
// layout (SIDEWAYS; Seven Waters' wide board, its board for a phone held sideways and for a
// screen up to 300 px high).  A board is drawn when a position comes; turning the phone only
// re-fitted the column (resize, above), and the board drawn for the other orientation stayed
// until the next move (Seven Waters' pyramid above its park, squeezed into 112 px, on a
// phone turned sideways).  A query asked here is watched: when its answer changes the table
// is drawn anew, by the redraw the page gave its picker (Picker.ui: a seat's and a
// spectator's page; the replay draws at its next step).
let redrawTable = null;
const watched = new Set();
let redrawQueued = false;   // a turn may change several answers at once: one redraw
export function layoutMatches(query) {
  const list = window.matchMedia(query);
  if (!watched.has(query)) {
    watched.add(query);
    list.addEventListener("change", () => {
      if (redrawQueued) return;
      redrawQueued = true;
      // a board drawn for another layout: which details fit under it is found anew
      // (`room.beside` keeps them beside a board of this screen size drawn as before)
      requestAnimationFrame(() => { redrawQueued = false; if (fitting) fitting.besideAt = null; redrawTable?.(); });
    });
  }
  return list.matches;
}

// A spectator and the replay have no hand and no move bar: on a wide screen a board drawn
// wider than its room's shape (Seven Waters' pyramid beside a park, always; Watten's table
// on a 1024 × 768 screen) left the column's lower part blank, 205 to 334 px, the log
// standing beside it; the board cannot grow there (it is as wide as the column already).
// The game's details (the other seat's park, the hands played, the podiums) take that
// room, unfolded, in place of a player's hand: each that fits below the board drawn at
// the column's width, in their order, the others staying folded in the side column.  One
// that did not fit stays in the side column at this screen size (`room.beside`), so that
// it does not move from one column to the other as the game goes on and back.  The board
// may give a little of its height for them (DETAILS_GIVE): Seven Waters' other park, 240 px
// high, missed the room under the board by up to 35 px (the replay at 1280 × 800, its step
// buttons above the board), Watten's hands played by 37 px at 1024 × 768; seeing the whole
// game is worth the board drawn a tenth smaller at most.
const DETAILS_GIVE = 0.9;
function detailsUnder(under, board, vb, room, at) {
  if (room.besideAt !== at) { room.besideAt = at; room.beside = new Set(); }
  const side = document.getElementById("side");
  // the board's box, and the height of the board drawn across it
  const measure = () => {
    const box = board.getBoundingClientRect();
    return [box.height, Math.max(box.width * vb.height / vb.width, parseFloat(getComputedStyle(board).minHeight) || 0)];
  };
  const [free, drawnFree] = measure();
  const left = free - drawnFree;   // what the board leaves blank (none where it is as high as its box)
  for (const p of [...(side?.querySelectorAll(":scope > .panel") || [])]) {
    if (room.beside.has(p.id)) break;
    const next = p.nextSibling;
    under.append(p);
    p.open = chosenOpen.get(p.id) ?? true;
    const [box, drawn] = measure();
    // the board gives at most a tenth, and never more than the blank it left: a board as
    // high as its room (Wasserloch's, Wildwasser's) keeps it, its details stay beside it
    if (drawn - box > Math.min((1 - DETAILS_GIVE) * drawn, left) + 1) { room.beside.add(p.id); toSide(p, side, next); break; }
  }
}

// back in the side column, before `next` (its place among the details there), folded
// unless its reader has opened it
function toSide(p, side, next) {
  side.insertBefore(p, next);
  p.open = chosenOpen.get(p.id) ?? false;
}

// ---------------------------------------------------------------- pieces of the page
export function announcer() {
  return h("div", { id: "announce", class: "sr-only", "aria-live": "polite", "aria-atomic": "false" });
}

// Lines for the live region.  Added, never replacing what is there: two positions
// arriving within moments (a move and a bot's answer) would otherwise take the first
// one's words away before a screen reader has said them.  Each line carries its language,
// so that a line kept from before a language switch is still read in its own; the
// region keeps the last few lines only.
export function announce(lines) {
  const box = document.getElementById("announce");
  if (!box || !lines.length) return;
  const lang = document.documentElement.lang;
  box.append(...lines.filter(Boolean).map((l) => h("p", { lang }, l)));
  while (box.childElementCount > 12) box.firstElementChild.remove();
}

export function logList(lines) {
  // before the first move the box says so, rather than standing empty under its heading
  if (!lines.length) return h("p", { class: "muted", id: "log" }, t("none_yet"));
  // newest first: the latest move is always in view
  return h("ol", { class: "log", id: "log", reversed: true, tabindex: "0", "aria-label": t("log") },
    [...lines].reverse().map((l, i) => h("li", { class: i === 0 ? "newest" : null }, l)));
}

// A panel opened or folded by its reader stays so when the table is drawn anew (each move
// drew it folded again: a spectator who had opened the other seat's park lost it at the
// next move, and the keyboard focus on its title went to the page's body); `open` is how
// it starts.
const chosenOpen = new Map();
export function panel(id, title, body, open = false) {
  const node = h("details", { class: "panel", id, open: chosenOpen.get(id) ?? open ? true : null },
    // its title has an id: the focus on it is given back when the table is drawn anew
    h("summary", { id: `${id}-title`, onclick: () => chosenOpen.set(id, !node.open) }, title), body);
  return node;
}

// ---------------------------------------------------------------- a bot for an absent player
// A friend who closed the tab or lost the connection for good kept the others waiting for
// ever.  Once a seat has had no page open anywhere for the server's `stand_in_seconds`
// while the game runs (each seat's `stand_in_after` says how long is left: 0 now, null not
// possible), every other seated player is offered to let a bot play for them, at a level
// of their choice; the player who comes back with their link has the seat again (the
// server tells their page `seat_back`).  The offer appears when the wait is over, on this
// page's clock, without another message from the server, and is said in the live region.
export class StandIns {
  constructor(redraw) {
    this.redraw = redraw;       // draws the table anew (the offer appears when its wait is over)
    this.readyAt = new Map();   // seat -> when it may be handed over (performance.now())
    this.levels = new Map();    // seat -> the level chosen in its offer (kept across redraws)
    this.told = new Set();      // seats whose offer the live region has said, while it stands
    this.timer = null;
  }

  // At each position received: when each absent seat may be handed to a bot.
  update(msg) {
    const now = performance.now();
    this.readyAt = new Map();
    for (const s of msg.seats || []) {
      if (typeof s.stand_in_after === "number") this.readyAt.set(s.seat, now + s.stand_in_after * 1000);
      else this.told.delete(s.seat);  // back, or a bot plays: a later absence is said again
    }
    this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = null;
    const now = performance.now();
    const later = [...this.readyAt.values()].filter((at) => at > now);
    if (later.length) this.timer = setTimeout(() => { this.timer = null; this.redraw(); this.schedule(); },
                                              Math.min(...later) - now + 20);
  }

  // The seats this page's player may hand to a bot now (a seated player's page, never their own seat).
  ready(msg) {
    if (msg.seat === null || msg.seat === undefined || msg.terminal || msg.replay || msg.replaced) return [];
    const now = performance.now();
    return (msg.seats || []).filter((s) => s.seat !== msg.seat && this.readyAt.get(s.seat) <= now).map((s) => s.seat);
  }

  // The offers, beside the seats: for each seat a level to choose and the button; `ask(seat,
  // level)` sends the request.  An offer that has just appeared is said in the live region.
  box(msg, levels, ask) {
    const seats = levels?.length ? this.ready(msg) : [];
    const fresh = seats.filter((n) => !this.told.has(n));
    fresh.forEach((n) => this.told.add(n));
    if (fresh.length) announce(fresh.map((n) => t("stand_in_ready", { who: seatInText(n) })));
    if (!seats.length) return null;
    return h("div", { class: "stand-ins", id: "stand-ins" }, seats.map((n) => {
      const chosen = this.levels.get(n) || (levels.includes("medium") ? "medium" : levels[0]);
      return h("div", { class: "row stand-in", "data-stand-in": n },
        h("label", { for: `stand-in-level-${n}` }, t("stand_in_level", { who: seatLabel(n) })),
        h("select", { id: `stand-in-level-${n}`, onchange: (e) => this.levels.set(n, e.target.value) },
          levels.map((l) => h("option", { value: l, selected: l === chosen ? true : null }, t("level_" + l)))),
        h("button", { id: `stand-in-${n}`, class: "secondary", onclick: () => ask(n, this.levels.get(n) || chosen) },
          t("stand_in_offer", { who: seatInText(n) })));
    }));
  }

  stop() { clearTimeout(this.timer); this.timer = null; }
}

// What changed in who plays the seats between two positions, for the live region: a bot
// began playing for an absent player, or the player came back (their own page is told by
// the server's `seat_back`, not here).
export function standInNews(before, after) {
  if (!before) return [];
  const lines = [];
  for (const s of after.seats || []) {
    const was = before.seats?.[s.seat]?.stand_in;
    if (s.seat === after.seat || (was || null) === (s.stand_in || null)) continue;
    lines.push(s.stand_in ? t("stand_in_began", { level: t("level_" + s.stand_in), who: seatInText(s.seat) })
                          : t("stand_in_ended", { who: seatInText(s.seat) }));
  }
  return lines;
}
