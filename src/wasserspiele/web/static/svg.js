// Small helpers to build SVG and HTML from view JSON (no framework, no build step).
import { t, term, spoken } from "./i18n.js";
const NS = "http://www.w3.org/2000/svg";

export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false)
    node.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  return node;
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false)
    node.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  return node;
}

// A text a board must keep within `max` units: a seat's name (players choose up to 40
// characters, and bots of one level carry their seat number) or what is said about the
// seat.  Once drawn (fitTexts, run by every redraw), a text wider than `max` that may wrap
// (`wrap`: its new lines go "up", above it, or "down", below it) takes as many lines as it
// needs, up to `lines` (two: the room the boards leave a seat's texts; a caller with more
// room may allow more); a word wider than `max` ("Donaudampfschifffahrtskapitänin")
// breaks after a hyphen of its own, else between two syllables, else where the line is
// full, with a hyphen added.
// Only a text that may wrap and does not fit so is set smaller (down to FIT_FLOOR of its
// size), and only then is a line still too wide squeezed to `max`.  A "\n" in the text
// starts a new line where it stands (a name and what is said of it, each on lines of their
// own: Seven Waters' corner title), counted in `lines`.  Squeezing alone (the old way,
// after two lines at most) narrowed a long German name to 40 % of its width on a phone.
const FIT_FLOOR = 0.75;

export function fitText(text, max, attrs, wrap = null, lines = 2) {
  return s("text", { ...attrs, "data-fit": max, "data-wrap": wrap, "data-lines": wrap ? lines : 1 }, text);
}

export function fitTexts(root) {
  for (const el of root.querySelectorAll("text[data-fit]")) {
    const max = +el.dataset.fit;
    el.removeAttribute("data-fit");
    el.setAttribute("data-fitted", max);   // what it was fitted to (tests read it)
    const text = el.textContent;
    if (!text.includes("\n") && el.getComputedTextLength() <= max) continue;
    const budget = Math.max(1, +el.dataset.lines || 1);
    // a string's width at the size being tried, by a canvas in the text's font: setting a
    // text and asking the SVG its length lays the page out at every try (20 times slower);
    // scaled by the whole text's own two lengths, and every line measured again below.
    // The size is the one the text is drawn at, from its attribute or from a style
    const style = getComputedStyle(el);
    const size0 = parseFloat(style.fontSize) || 12;
    const pen = measurer();
    const font = (px) => `${style.fontStyle} ${style.fontWeight} ${px}px ${style.fontFamily}`;
    pen.font = font(size0);
    const scale = el.getComputedTextLength() / (pen.measureText(text).width || 1);
    const width = (str) => pen.measureText(str).width * scale;
    let size = size0, rows = null;
    const drawn = el.getAttribute("font-size");
    const setSize = (k) => {
      size = +(size0 * k).toFixed(2);
      if (k < 1) el.setAttribute("font-size", size);   // set smaller: only then is the size written
      else if (drawn === null) el.removeAttribute("font-size");
      else el.setAttribute("font-size", drawn);
      pen.font = font(size);
    };
    // a one-line text (a label the board made room for) keeps its size and is squeezed, as
    // before: set smaller it would read smaller than its neighbours (the park's row labels).
    // A size at which a word breaks only between syllables is taken before a larger one
    // at which it does not ("Schil-dkröte"); only where none does (between syllables it
    // needs more lines than the caller allows) is it broken after the most letters that fit
    search: for (const syllables of budget > 1 ? [true, false] : [false]) {
      for (const k of budget > 1 ? [1, 0.9, 0.82, FIT_FLOOR] : [1]) {
        setSize(k);
        rows = balancedLines(text, max, budget, width, syllables);
        if (rows && !rows.bad) break search;
        rows = null;
      }
    }
    // at the smallest size it does not fit: in `budget` lines broken at spaces only, as
    // even as can be, a line still too wide squeezed below
    if (!rows) rows = fewestLines(text, max, budget, width);
    // a line that would be squeezed below FIT_FLOOR because of a word that alone would be
    // (a name without spaces, "WWWW…" of 40 letters) is not squeezed: it was a bar of
    // strokes no one could read (Watten's partner at the top of the table and its side
    // seats, at 23 % of their width at 390 × 844 and at 1280 × 800).  The text is drawn at
    // its size, broken where its lines are full, in as many lines as the caller allows, the
    // last ending in "…".  The whole text stays the tooltip and what a screen reader reads
    // (as Watten's shortName has it)
    // (a line of words each of which fits, squeezed, is left as it was: a label keeps its
    // neighbours' size, above)
    const hopeless = (row) => row.split(/\s+/).some((word) => width(word) * FIT_FLOOR > max);
    let cut = false;
    if (rows.some(hopeless)) {
      cut = true;
      setSize(1);
      const all = wrapLines(text, max, width, budget > 1);
      rows = all.slice(0, budget);
      if (all.length > budget || width(rows.at(-1)) > max) rows.push(ellipsized(rows.pop().replace(/-$/, ""), max, width));
    }
    const step = 1.15 * size;
    const up = el.dataset.wrap === "up";
    const y = +el.getAttribute("y");
    const nodes = rows.map((row, i) => {
      const line = i === 0 ? el : el.cloneNode(false);
      line.textContent = row;
      line.setAttribute("y", +(y + (up ? i - (rows.length - 1) : i) * step).toFixed(2));
      return line;
    });
    el.after(...nodes.slice(1));
    if (cut) {
      const whole = text.replaceAll("\n", " ");
      const named = s("g", { role: "img", "aria-label": whole, "data-short-name": "" }, s("title", {}, whole));
      el.before(named);
      named.append(...nodes);
    }
    for (const line of nodes) {
      if (line.getComputedTextLength() > max) {
        line.setAttribute("textLength", max);
        line.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
  }
}

// `row` followed by "…" (more of the text is left out), cut to whole characters (an emoji
// is one) within `max` by `width` (a hair under it: the canvas measures the page's font a
// little apart from the SVG)
function ellipsized(row, max, width) {
  const chars = [...row];
  while (chars.length > 1 && width(chars.join("").trimEnd() + "…") > 0.98 * max) chars.pop();
  return chars.join("").trimEnd() + "…";
}

// About how wide `text` is drawn with `attrs` (its font-size and font-weight) in the page's
// font, before it is drawn: for a layout that gives a text a second line only when it
// needs one (fitTexts measures again once it is drawn, and squeezes what is still too wide)
export function textWidth(text, attrs = {}) {
  const pen = measurer();
  const family = getComputedStyle(document.body).fontFamily;
  pen.font = `${attrs["font-weight"] || "normal"} ${attrs["font-size"] || 12}px ${family}`;
  return pen.measureText(text).width;
}

let canvas = null;
function measurer() {
  canvas ??= document.createElement("canvas");
  return canvas.getContext("2d");
}

// The lines of `text` no wider than `max` (by `width`), filled one after another; a word
// too wide for a line of its own is broken (breakWord) when `hard`, else left whole.
// `breaks`: how many words were broken.  `wrap` false: one line, as it is.
function wrapLines(text, max, width, wrap = true, hard = true, syllables = false) {
  if (!wrap) return Object.assign([text.replaceAll("\n", " ")], { breaks: 0 });
  const rows = [];
  let breaks = 0, bad = 0;   // words broken, and how many of those breaks were not between syllables
  for (const part of text.split("\n")) {   // a "\n" ends a line wherever it stands
    let row = "";
    for (const word of part.split(" ").filter(Boolean)) {
      const joined = row ? `${row} ${word}` : word;
      if (width(joined) <= max) { row = joined; continue; }
      if (row) rows.push(row);
      const pieces = !hard || width(word) <= max ? [word] : breakWord(word, max, width, syllables);
      breaks += pieces.length - 1;
      bad += pieces.bad || 0;
      rows.push(...pieces.slice(0, -1));
      row = pieces.at(-1);
    }
    if (row) rows.push(row);
  }
  return Object.assign(rows, { breaks, bad });
}

// A word wider than `max` in pieces that fit: after a hyphen it has where one fits, else
// between two syllables (syllableCut) as far on as fits, if that fills at least 40 % of the
// line, else after the most letters that fit; a hyphen added.  The most letters that fit
// broke "Donaudampfschifffahrtskapitänin" as "Donaudam-pfschifffah-rtskapitänin".
function breakWord(word, max, width, syllables = false) {
  const out = [];
  let rest = word, bad = 0;
  while (rest.length > 3 && width(rest) > max) {
    let cut = -1;
    for (let i = rest.indexOf("-"); i > 0 && i < rest.length - 1; i = rest.indexOf("-", i + 1)) {
      if (width(rest.slice(0, i + 1)) <= max) cut = i + 1;
    }
    let head;
    if (cut > 0) head = rest.slice(0, cut);
    else {
      let lo = 2, hi = rest.length - 1;   // the most letters that fit, found by halving
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (width(rest.slice(0, mid) + "-") <= max) lo = mid; else hi = mid - 1;
      }
      cut = -1;
      for (let i = lo; syllables && i >= Math.max(2, Math.ceil(0.4 * lo)) && cut < 0; i--) if (syllableCut(rest, i)) cut = i;
      if (cut < 0) { cut = lo; bad += syllables ? 1 : 0; }
      head = rest.slice(0, cut) + "-";
    }
    out.push(head);
    rest = rest.slice(cut);
  }
  out.push(rest);
  return Object.assign(out, { bad });
}

// Whether a word may be broken before its letter `i` by the rule of thumb German (and
// mostly English) hyphenation follows, without a dictionary: a syllable starts with the
// last consonant before its vowel ("Do-nau", "Erd-männ"), or with a group read as one
// sound ("sch", "ch", "ck", "ph", "th", "qu": "Donaudampf-schiff", "Erdmänn-chen") or a
// consonant before r or l ("Schild-kröte"); both parts keep a vowel.
const VOWEL = /[aeiouyäöüàáâãåæéèêëíìîïóòôõøúùûœ]/i;
const LETTER = /\p{L}/u;
const ONSETS = ["sch", "ch", "ck", "ph", "th", "qu"];
function syllableCut(word, i) {
  const w = word.toLowerCase();
  if (i < 2 || w.length - i < 2 || !LETTER.test(w[i - 1]) || !LETTER.test(w[i])) return false;
  if (!VOWEL.test(w.slice(0, i)) || !VOWEL.test(w.slice(i))) return false;
  // a group read as one sound is not cut inside ("s-ch", "c-h", "c-k", …)
  for (const g of ONSETS) {
    for (let k = 1; k < g.length; k++) if (w.startsWith(g, i - k)) return false;
  }
  if (VOWEL.test(w[i])) return false;
  if (/[rl]/.test(w[i]) && !VOWEL.test(w[i - 1]) && !/[rl]/.test(w[i - 1])) return false;   // "k-r": "kr" starts the syllable
  const group = ONSETS.find((g) => w.startsWith(g, i));
  const onset = group ? group.length : /[rl]/.test(w[i + 1] || "") && w[i] !== w[i + 1] && !/[rl]/.test(w[i]) ? 2 : 1;
  return VOWEL.test(w[i + onset] || "");
}

// `text` in the fewest lines (at most `budget`) that fit `max`, their widths as even as
// that many lines allow (a name split in two halves rather than a long line and one word,
// and no word broken that did not have to be); null when it needs more lines.  `syllables`:
// a word is broken between syllables where one fits (breakWord), and `bad` counts where not.
function balancedLines(text, max, budget, width, syllables = false) {
  const wrap = budget > 1;
  const rows = wrapLines(text, max, width, wrap, true, syllables);
  if (rows.length > budget || rows.some((r) => width(r) > max)) return null;
  if (rows.length < 2) return rows;
  let lo = max / rows.length, hi = max, best = rows;   // the narrowest width giving as many lines
  for (let i = 0; i < 8; i++) {
    const mid = (lo + hi) / 2;
    const tried = wrapLines(text, mid, width, wrap, true, syllables);
    // narrower, a word may break where it does not between syllables: not so
    if (tried.length <= rows.length && tried.breaks <= rows.breaks && tried.bad <= rows.bad
        && tried.every((r) => width(r) <= mid)) {
      best = tried; hi = mid;
    } else lo = mid;
  }
  return best;
}

// `text` broken at spaces only into at most `budget` lines, the widest as narrow as can be
// (wider than `max`: the caller squeezes it).
function fewestLines(text, max, budget, width) {
  const wrap = budget > 1;
  let lo = max, hi = width(text), best = wrapLines(text, Infinity, width, wrap, false);   // its own lines
  for (let i = 0; i < 10 && wrap; i++) {
    const mid = (lo + hi) / 2;
    const tried = wrapLines(text, mid, width, wrap, false);
    if (tried.length <= budget) { best = tried; hi = mid; } else lo = mid;
  }
  return best;
}

export function svgRoot(w, hgt, ...children) {
  return s("svg", { viewBox: `0 0 ${w} ${hgt}`, role: "img", preserveAspectRatio: "xMidYMid meet" }, ...children);
}

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_COLOR = { C: "#1d2a33", S: "#1d2a33", D: "#c62828", H: "#c62828" };

// A rank as the cards of the language print it (German: B D K A for J Q K A), as the
// terminal and the rules pages write it; a ten is "10" in both.
export function rankText(r) { return r === "T" ? "10" : term(r, "card.rank"); }

// A playing card ("TH", "X1", "X1=7", "##" face down, null empty) at (x, y).
export function card(code, x, y, w = 44, hgt = 62) {
  const g = s("g", { transform: `translate(${x},${y})`, class: "card" });
  if (code === null || code === undefined) {
    g.append(s("rect", { class: "hl", x: 1, y: 1, width: w - 2, height: hgt - 2, rx: 5, fill: "none",
                        stroke: "#0002", "stroke-dasharray": "4 3" }));
    return g;
  }
  if (code === "##") {
    g.append(s("rect", { class: "hl", x: 1, y: 1, width: w - 2, height: hgt - 2, rx: 5, fill: "#3d8fc4", stroke: "#1d4f70" }));
    g.append(s("path", { d: `M6 ${hgt / 2} q${(w - 12) / 4} -8 ${(w - 12) / 2} 0 t${(w - 12) / 2} 0`, stroke: "#cfe6f5", fill: "none", "stroke-width": 2 }));
    return g;
  }
  g.append(s("rect", { class: "hl", x: 1, y: 1, width: w - 2, height: hgt - 2, rx: 5, fill: "#fffdf7", stroke: "#555" }));
  const [base, decl] = code.split("=");
  if (base[0] === "X") {
    g.append(s("text", { x: w / 2, y: hgt / 2 - 2, "text-anchor": "middle", "font-size": 18, fill: "#6a1b9a" }, "★"));
    g.append(s("text", { x: w / 2, y: hgt - 8, "text-anchor": "middle", "font-size": 11, fill: "#6a1b9a" },
      decl ? `=${rankText(decl)}` : "Joker"));
    return g;
  }
  const r = rankText(base.slice(0, -1)), suit = base.slice(-1);
  const col = SUIT_COLOR[suit] || "#333";
  g.append(s("text", { x: 5, y: 17, "font-size": 15, "font-weight": "bold", fill: col }, r));
  g.append(s("text", { x: w / 2, y: hgt / 2 + 13, "text-anchor": "middle", "font-size": 24, fill: col }, SUIT_SYMBOL[suit] || suit));
  return g;
}

// A card as the page writes it ("10♥", "★=7"); in lines worded to be spoken (i18n.js
// speaking) by its name ("10 of hearts"): a sign is skipped or read as "black heart suit"
export function cardText(code) {
  if (!code) return "";
  if (spoken()) return cardName(code);
  const [base, decl] = code.split("=");
  if (base[0] === "X") return `★${decl ? "=" + rankText(decl) : ""}`;
  return rankText(base.slice(0, -1)) + (SUIT_SYMBOL[base.slice(-1)] || base.slice(-1));
}

// A suit as the page writes it ("♦"); in lines worded to be spoken by its name ("diamonds"),
// as cardText names a card
export function suitText(suit) {
  if (spoken()) return t("suit_" + suit);
  return SUIT_SYMBOL[suit] || suit;
}

// A seat's colour, and the ink of a letter drawn on it (an animal's initial on its token):
// at least 4.5:1 against it (WCAG AA for text under 18.66 px bold).  The green is one shade
// darker than it was (white on #388e3c was 4.1:1); on the amber a white letter was 2:1,
// so its ink is dark.
export const SEAT_COLORS = ["#d32f2f", "#1976d2", "#2e7d32", "#f9a825", "#7b1fa2", "#00838f"];
export const SEAT_INK = ["#fff", "#fff", "#fff", "#1d2a33", "#fff", "#fff"];

// A seat's shape, beside its colour: red and green (seats 0 and 2) look alike to a player
// without red or green cones (ΔE 17 simulated), blue and purple (1, 4) without green, blue,
// green and teal (1, 2, 5) without blue, and in forced colours (Windows high contrast) the
// chips' colours are gone.  A token of Wildwasser is drawn in its seat's shape, and its
// seat chip shows the same (style.css, .game-wildwasser .seat-chip::before): circle,
// square, diamond, triangle, hexagon, house.  Each holds an initial of size r + 1.
export const SEAT_SHAPES = ["circle", "square", "diamond", "triangle", "hexagon", "house"];

// Seat `seat`'s shape around (0, 0), about as large as a circle of radius `r`.
export function seatShape(seat, r, attrs = {}) {
  const kind = SEAT_SHAPES[seat % SEAT_SHAPES.length];
  const pts = (list) => list.map(([x, y]) => `${+(x * r).toFixed(2)},${+(y * r).toFixed(2)}`).join(" ");
  const own = { ...attrs, "data-shape": kind };
  if (kind === "circle") return s("circle", { ...own, r });
  // a polygon, the square too (a picture's rects are its boxes: Wildwasser's podium places);
  // the letter stands a little below the centre: the triangle points down, wide where it is
  const corners = {
    square: [[-0.9, -0.9], [0.9, -0.9], [0.9, 0.9], [-0.9, 0.9]],
    diamond: [[0, -1.3], [1.3, 0], [0, 1.3], [-1.3, 0]],
    triangle: [[-1.35, -0.8], [1.35, -0.8], [0, 1.35]],
    hexagon: [[0, -1.15], [1, -0.58], [1, 0.58], [0, 1.15], [-1, 0.58], [-1, -0.58]],
    house: [[0, -1.35], [1.05, -0.45], [1.05, 1], [-1.05, 1], [-1.05, -0.45]],
  }[kind];
  return s("polygon", { ...own, points: pts(corners) });
}

// A card as a screen reader speaks it: "queen of hearts", "joker standing for 7".  A joker's
// declaration is a value in a slide ("X1=10", "X1=1"), a rank in a river ("X1=T", "X1=K") or a
// suit in a pool ("X1=H"): the catalogue names ranks and suits, a value is its number (there is
// no rank "10" or "1": "joker standing for rank_10" was read on a random deal's park)
export function cardName(code) {
  if (!code) return t("card_empty");
  if (code === "##") return t("card_hidden");
  const [base, decl] = code.split("=");
  if (base[0] === "X") {
    if (!decl) return t("card_joker");
    const r = /^\d+$/.test(decl) ? decl : "CDHS".includes(decl) ? t("suit_" + decl) : t("rank_" + decl);
    return t("card_joker_as", { r });
  }
  return t("card_name", { r: t("rank_" + base.slice(0, -1)), s: t("suit_" + base.slice(-1)) });
}

// Wraps a piece so it can glide from where it was (the wrapper has no transform of its own).
export function anim(node, id, from = null) {
  return s("g", { "data-anim": id, "data-from": from }, node);
}
