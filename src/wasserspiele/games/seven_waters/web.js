// Seven Waters: the pyramid, both parks (lines, slides, river, pool, theme), your hand.
import { s, h, svgRoot, card, cardText, cardName, anim, fitText, textWidth, rankText, SUIT_SYMBOL, SUIT_COLOR } from "../svg.js";
import { t, say, seatLabel, seatLabelFor, seatInTextFor, spoken } from "../i18n.js";
import { SIDEWAYS, layoutMatches } from "../table.js";

const CW = 40, CH = 56;

function parse(action) {
  const words = action.trim().split(/\s+/);
  const verb = words[0].toLowerCase();
  if (verb === "take") return { verb, pos: words[1] };
  if (verb === "slide") return { verb, line: words[1], cards: words.slice(2) };
  return { verb, cards: words.slice(1) };
}

const SW = 0.9 * CW, SH = 0.7 * CH;   // a card in a park
const PARK_W = 420;                     // a park's width

// The compact board, for a phone and for the game's end.  A phone's board is about
// 380 × 410 px (the rest of the screen holds the seats, the hand and the moves), too
// little for the pyramid above a park of full cards: drawn whole, both shrank to cards of
// about 24 px.  Here the pyramid's rows overlap further (each covered card shows its top
// strip, where its rank and suit are written) and the park's cards are tiles that show
// just that strip, so that both fit at about their drawn size: cards 38 px wide.
const TINY_W = 380;                      // the compact board's width (a phone's board)
const SIDE_W = 320;                      // a park in the side column beside a wide board
// a park row's pitch: 30, so that a line to slide onto (28 high) is a target 24 px apart from
// the next one (WCAG 2.5.8's spacing) on a 320 px screen, where the board is drawn at 0.82
const TW = 38, TH = 26, TROW = TH + 4;   // a park tile, and a park row's pitch
const LBL = 56;                          // the park's label column
const TP = 33;                           // the pitch of a row of tiles (they overlap a little, "10♥" shows whole)
const PY = { w: 38, h: 53, pitch: 40, step: 20 };   // the compact pyramid's cards and rows
const JOKER_WORD = 13;                   // the word on a joker's top strip: a rank's size, less one
// a phone held sideways (landscapeBoard; style.css has the same query), and one that is short
const LANDSCAPE = "(min-width: 560px) and (max-width: 760px) and (min-aspect-ratio: 7/5)";
const SHORT = "(max-height: 300px)";
const GAP = 12;                          // between the pyramid and the park, the lines and the rest
// the lines (a slide of four beside a line of four, 29.7 apart: "10♥" shows whole) and the
// rest (five river cards 26.5 apart): 834 units with the pyramid, drawn at 0.79 of its size
// across the 657 px of a 667 × 375 screen (at 0.76 when the park was 40 units wider)
const LINES_W = 330, STRIPS_W = 200;
// a phone held sideways 301 to 340 px high (568 × 320; style.css's rules for it, the same): that
// board, 834 units in the 558 px of the column, was drawn at 0.67 (the park's lines, targets
// to slide onto, 21.4 px high, under WCAG 2.5.8's 24; its words 7.4 px).  Here river, pool
// and theme have their names above their cards (the label column, 56 units, goes), the slides
// and the strips are narrower (a slide of four 22.3 apart, a river of five 18.5): 724 units,
// drawn at 0.77 in a board 133 px high, the hand still on the first screen (style.css
// `--fold: hand`): lines 24.6 px, words 8.5 px (11 units, as at 844 × 390: 8.3)
const LOW = "(min-height: 301px) and (max-height: 340px)", LOW_LINES_W = 308, LOW_STRIPS_W = 112;
const OVER = 13;                         // a strip's name above its cards (LOW): its line's height

function base(code) { return code.split("=")[0].toUpperCase(); }

// A card in a move's words and the log: a joker is "Joker", and one declared as a suit
// (in a pool, SW-2.2) "★=♣" (the shared cardText reads a declaration as a rank: "★=C")
function cardLabel(code) {
  if (!code) return "";
  if (spoken()) return cardName(code);   // a line for the live region: the card in words (i18n.js speaking)
  const [b, decl] = code.split("=");
  if (b[0].toUpperCase() !== "X") return cardText(code);
  return decl ? `★=${SUIT_SYMBOL[decl] || rankText(decl)}` : t("seven_waters.joker");
}

// A card's index ("10♥", "Joker", "★=7") as one line of text at (x, y), for the top strip
// of a compact card or a tile, which is all of it that shows.  Given `room` (a width), the
// word "Joker" is set at JOKER_WORD and squeezed into that room where it is wider.
function index(code, x, y, size, anchor = "start", room = 0) {
  const [b, decl] = code.split("=");
  if (b[0] === "X") {   // the word in a smaller type: it is longer than a rank and a suit
    const attrs = { x, y, "font-size": decl ? size : Math.min(size, 11), fill: "#6a1b9a", "text-anchor": anchor };
    if (room && !decl) return fitText(cardLabel(code), room, { ...attrs, "font-size": JOKER_WORD });
    return s("text", attrs, cardLabel(code));
  }
  const suit = b.slice(-1), col = SUIT_COLOR[suit] || "#333";
  return s("text", { x, y, "font-size": size, fill: col, "text-anchor": anchor },
           s("tspan", { "font-weight": "bold" }, rankText(b.slice(0, -1))), SUIT_SYMBOL[suit] || suit);
}

// A joker whose word stands at its top: in the pyramid the next row covers a card's lower
// part, where the shared card drawing writes "Joker".  The word is all a covered joker
// shows: at 11 units it was 9 px on a 320 px phone (the board drawn at 0.82).
function joker(code, x, y, w, hgt) {
  const g = s("g", { transform: `translate(${x},${y})`, class: "card" });
  g.append(s("rect", { class: "hl", x: 1, y: 1, width: w - 2, height: hgt - 2, rx: 5, fill: "#fffdf7", stroke: "#555" }));
  g.append(index(code, w / 2, 15, w < 40 ? 11 : 12, "middle", w - 6));
  g.append(s("text", { x: w / 2, y: hgt / 2 + 12, "text-anchor": "middle", "font-size": 20, fill: "#6a1b9a" }, "★"));
  return g;
}

// A card of the compact pyramid: its index in the top strip (all of a covered card that
// shows), its suit large below (seen once it is free); a back's wave in the strip too.
function smallCard(code, x, y) {
  const { w, h: hgt } = PY;
  if (code[0].toUpperCase() === "X") return joker(code, x, y, w, hgt);
  const g = s("g", { transform: `translate(${x},${y})`, class: "card" });
  if (code === "##") {
    g.append(s("rect", { class: "hl", x: 1, y: 1, width: w - 2, height: hgt - 2, rx: 4, fill: "#3d8fc4", stroke: "#1d4f70" }));
    g.append(s("path", { d: `M6 11 q${(w - 12) / 4} -6 ${(w - 12) / 2} 0 t${(w - 12) / 2} 0`, stroke: "#cfe6f5", fill: "none", "stroke-width": 2 }));
    return g;
  }
  const suit = base(code).slice(-1);
  g.append(s("rect", { class: "hl", x: 1, y: 1, width: w - 2, height: hgt - 2, rx: 4, fill: "#fffdf7", stroke: "#555" }));
  g.append(index(code, 4, 15, 14));
  g.append(s("text", { x: w / 2, y: hgt - 9, "text-anchor": "middle", "font-size": 20, fill: SUIT_COLOR[suit] || "#333" },
             SUIT_SYMBOL[suit] || suit));
  return g;
}

// A card of the compact park: a tile with its index (a face-down theme: a back).
function tile(c, x, y) {
  // named as a card is spoken ("queen of hearts"): its index alone ("Q♥") read to a screen
  // reader as a letter and a symbol, and the other seat's park not at all (an unnamed picture)
  const g = s("g", { transform: `translate(${x},${y})`, class: "card", role: "img", "aria-label": cardName(c) });
  const back = c === "##";
  g.append(s("rect", { class: "hl", x: 1, y: 1, width: TW - 2, height: TH - 2, rx: 4,
                       fill: back ? "#3d8fc4" : "#fffdf7", stroke: back ? "#1d4f70" : "#555" }));
  if (back) g.append(s("path", { d: `M6 ${TH / 2} q6 -5 13 0 t13 0`, stroke: "#cfe6f5", fill: "none", "stroke-width": 2 }));
  else g.append(index(c, 3, TH / 2 + 5, 13));
  return back ? g : anim(g, `c:${base(c)}`);
}

function parkCard(c, x, y) {
  const node = c && c[0].toUpperCase() === "X" ? joker(c, x, y, SW, SH) : card(c, x, y, SW, SH);
  node.setAttribute("role", "img");   // as a tile is (tile): spoken by its name
  node.setAttribute("aria-label", cardName(c));
  return c && c !== "##" ? anim(node, `c:${base(c)}`) : node;
}

// a long slide or river closes up so that its last card stays within the width `right`
function step(x0, n, most, right, w) { return n > 1 ? Math.min(most, (right - x0 - w) / (n - 1)) : most; }

// A player's park: lines (with their slides), river, pool, theme.  Only your own lines
// are places to choose (a slide goes onto one).
function park(p, seatNo, mine, ui) {
  const g = s("g", {});
  const LX = 4 * 30 + CW + 8, SX = 4 * 30 + CW + 60, STRIP = 56;
  let y = 0;
  p.lines.forEach((line, k) => {
    const row = s("g", { transform: `translate(4,${y})` });
    row.append(s("rect", { class: "hl", x: -2, y: -2, width: 4 * 30 + CW + 4, height: SH + 4, rx: 4, fill: "#0000", stroke: "#0001" }));
    line.forEach((c, i) => row.append(parkCard(c, i * 30, 0)));
    row.append(s("text", { x: LX, y: 16, "font-size": 12 }, t("seven_waters.line", { k: k + 1 })));
    row.append(s("text", { x: LX, y: 32, "font-size": 12, "font-weight": "bold" }, `Σ ${p.line_sums[k]}`));
    const slide = p.slides[k];
    if (slide) {
      const dx = step(SX, slide.length, 30, PARK_W - 8, SW);
      slide.forEach((c, i) => row.append(parkCard(c, SX + i * dx, 0)));
    }
    g.append(mine ? ui.mark(row, `line:${k + 1}`) : lineGroup(row, k + 1, p.line_sums[k]));
    y += SH + 6;
  });
  for (const [label, cards, spoken] of strips(p)) {
    // the label's column ends where the cards begin (a longer word is squeezed to fit)
    const r = named(s("g", { transform: `translate(4,${y})` }, fitText(label, STRIP - 4, { x: 0, y: 24, "font-size": 12 })), spoken);
    const dx = step(STRIP, cards.length, 26, PARK_W - 8, SW);
    cards.forEach((c, i) => r.append(parkCard(c, STRIP + i * dx, 0)));
    g.append(r);
    y += SH + 6;
  }
  return [g, y];
}

// Another seat's line (not a choice, so no button's name): a group named in words, "line 2,
// sum 17"; its drawn label and sum ("Σ 17", the sign read as "sigma" or not at all) are
// hidden from a screen reader, its cards read one by one inside it.  A group, not a picture:
// the cards are pictures of their own
function lineGroup(row, k, sum) {
  return named(row, `${t("seven_waters.line", { k })}, ${t("seven_waters.sum", { n: sum })}`);
}

// A park's row (its label, then its cards) named for a screen reader where the label says
// too little aloud: the pool's "Pool ♣" is named "Pool ♣ (clubs)" (the visible words first,
// WCAG 2.5.3); the label drawn is then hidden from it.  A row without `spoken` stays as it is
function named(row, spoken) {
  if (!spoken) return row;
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", spoken);
  row.querySelectorAll(":scope > text").forEach((n) => n.setAttribute("aria-hidden", "true"));
  return row;
}

// the park's rows after the lines: river, pool (its suit beside its name) and theme, each
// [label, cards, the label's spoken words where its symbol needs them]
function strips(p) {
  const pool = `${t("seven_waters.pool")}${p.pool_suit ? " " + SUIT_SYMBOL[p.pool_suit] : ""}`;
  return [[t("seven_waters.river"), p.river],
          [pool, p.pool, p.pool_suit ? `${pool} (${t("suit_" + p.pool_suit)})` : null],
          [t("seven_waters.theme"), p.theme ? [p.theme] : (p.theme_placed ? ["##"] : [])]];
}

// The same park in tiles, `width` wide: a row per line (its name and sum, its cards, its
// slide), then river, pool and theme; with `hand`, beside the theme (one card at most,
// so the row has room), the cards left in hand: at the end, where they count (SW-5.2)
// and every seat's lie open (the view shows them, SW-5.1), face up as the theme is.
// With `beside` (a width), river, pool and theme stand in a column of that width to the
// right of the lines rather than below them: a park half as high (landscapeBoard).  There
// its rows are 34 apart and a line's frame 32 high (28 before: a line to slide onto, drawn
// at 0.79 across a 667 px screen, was a target of 22.1 px, under WCAG 2.5.8's 24); the park
// is still lower than the pyramid beside it, so the board is drawn as large as before.
function tinyPark(p, mine, ui, width = TINY_W, hand = false, beside = 0, over = false) {
  const g = s("g", {});
  const pitch = beside ? TROW + 4 : TROW, pad = beside ? 3 : 1;   // the rows' pitch, a frame's margin
  const SX = LBL + 3 * TP + TW + 10;   // the slides' column, after a line of four
  // a label, then its cards from the label column's end to `right`
  const row = (x, label, cards, spoken = null, right = width) => {
    const r = named(s("g", {}, fitText(label, LBL - 6, { x: x + 2, y: 17, "font-size": 11 })), spoken);
    const dx = step(x + LBL, cards.length, TP, right, TW);
    cards.forEach((c, i) => r.append(tile(c, x + LBL + i * dx, 0)));
    return r;
  };
  let y = 0;
  p.lines.forEach((line, k) => {
    const r = s("g", { transform: `translate(0,${y})` });
    r.append(s("rect", { class: "hl", x: -1, y: -pad, width: SX - 4, height: TH + 2 * pad, rx: 4, fill: "#0000", stroke: "#0001" }));
    r.append(s("text", { x: 2, y: 11, "font-size": 11 }, t("seven_waters.line", { k: k + 1 })));
    r.append(s("text", { x: 2, y: 23, "font-size": 11, "font-weight": "bold" }, `Σ ${p.line_sums[k]}`));
    line.forEach((c, i) => r.append(tile(c, LBL + i * TP, 0)));
    const slide = p.slides[k] || [];
    const dx = step(SX, slide.length, TP, width, TW);
    slide.forEach((c, i) => r.append(tile(c, SX + i * dx, 0)));
    g.append(mine ? ui.mark(r, `line:${k + 1}`) : lineGroup(r, k + 1, p.line_sums[k]));
    y += pitch;
  });
  const linesEnd = y;
  if (beside) y = 0;
  strips(p).forEach(([label, cards, spoken], k) => {
    const x = beside ? width + GAP : 0;
    if (over) {   // its name on a line above its cards, which take the column's whole width
      const r = named(s("g", { transform: `translate(${x},${y})` }, fitText(label, beside - 4, { x: 2, y: 10, "font-size": 11 })), spoken);
      const dx = step(0, cards.length, TP, beside, TW);
      cards.forEach((c, i) => r.append(tile(c, i * dx, OVER)));
      g.append(r);
      y += OVER + TROW;   // three such strips, 129 units, no higher than the lines (136)
      return;
    }
    const r = s("g", { transform: `translate(0,${y})` }, row(x, label, cards, spoken, x + (beside || width)));
    if (hand && k === 2) r.append(row(LBL + TW + 12, t("seven_waters.hand_row"), p.hand));
    g.append(r);
    y += pitch;
  });
  return [g, Math.max(y, linesEnd) - (pitch - TH) + pad - 1];
}

// "Platz 0 (du) · 4 abgeworfen" above a park, and how much lower the park stands for it:
// a line more when a long name does not leave room on one line for the count (squeezed to
// it, a 40-character name read at 78 %), the name on its first line, the count on the second
function parkTitle(view, seat, width, attrs) {
  const name = seatLabelFor(seat, view.seat), discarded = t("seven_waters.discarded", { n: view.players[seat].discard_count });
  const line = `${name} · ${discarded}`;
  if (textWidth(line, attrs) <= width) return [fitText(line, width, attrs), 0];
  return [fitText(`${name}\n${discarded}`, width, attrs, "down", 2), Math.ceil(1.15 * attrs["font-size"])];
}

function pyramid(view, ui) {
  const W = 7 * (CW + 4) + 8;
  const g = s("g", {});
  view.pyramid.forEach((row, r) => row.forEach((c, i) => {
    const x = (W - (r + 1) * (CW + 4)) / 2 + i * (CW + 4), y = 4 + r * CH * 0.72;
    const node = c && c[0].toUpperCase() === "X" ? joker(c, x, y, CW, CH) : card(c, x, y, CW, CH);
    if (!c) { g.append(node); return; }
    const marked = ui.mark(node, `pyr:${r + 1}-${i + 1}`);
    g.append(c === "##" ? marked : anim(marked, `c:${base(c)}`));
  }));
  return [g, W, 6 * (CH * 0.72) + CH + 8];
}

// The compact pyramid: no outlines where cards were taken (at this overlap they would
// cross the cards still there), 7 × 40 wide, as high as its rows still holding cards
// (SW-3.2: a row empties only after the rows below it, so these are the top rows; the
// room of the emptied ones goes to the park when the move buttons take more of the screen).
// A covered card shows its top strip only, 20 units: 12.9 to 20 px high on a phone (a
// target under WCAG 2.5.8's 24 px, right above the free cards a player taps); a strip of
// 24 px would need a pyramid 180 px high, more than a phone held sideways has above its
// hand.  It is no target for a finger or a pointer now: their tap on it is let go (it
// chose nothing: it brought the server's refusal, and a tap meant for the free card below
// it did so too); the arrow keys still reach it, its name says it is not free (name,
// below), and Enter on it (a click with no pointer, table.js keyboardHandler) tells why it
// cannot be taken.  It stays where a tap lands (not `pointer-events: none`): what lies
// under a point is how the tests find the part of a covered card in view.
function tinyPyramid(view, ui) {
  const W = 7 * PY.pitch;
  const g = s("g", {});
  let rows = 1;
  view.pyramid.forEach((row, r) => row.forEach((c, i) => {
    if (!c) return;
    rows = Math.max(rows, r + 1);
    const x = (W - (r + 1) * PY.pitch) / 2 + i * PY.pitch + 1;
    const marked = ui.mark(smallCard(c, x, r * PY.step), `pyr:${r + 1}-${i + 1}`);
    if (covered(view.pyramid, r, i)) {
      marked.classList.add("covered");
      // before the picker's own listener (on its way down to the card's face): a pointer's
      // click counts its clicks (`detail` 1 and up: a mouse's, a finger's), the keyboard's
      // (table.js keyboardHandler) none.  (Safari's click has no pointerType, which was asked
      // before: there a tap on a covered card was sent, and refused.)
      marked.addEventListener("click", (ev) => { if (ev.detail > 0) ev.stopPropagation(); }, true);
    }
    g.append(c === "##" ? marked : anim(marked, `c:${base(c)}`));
  }));
  return [g, W, (rows - 1) * PY.step + PY.h];
}

// SW-3.2: card (r, c) is covered while (r+1, c) or (r+1, c+1) is left (0-based here)
function covered(pyramid, r, i) {
  const next = pyramid[r + 1];
  return Boolean(next && (next[i] || next[i + 1]));
}

// The board of a narrow screen: the compact pyramid above the shown seat's tiled park,
// whose title (whose park, how many cards it discarded) stands in the top left corner,
// beside the pyramid's narrow top rows, rather than taking a line of the height.
function tinyBoard(view, shown, mine, ui) {
  const [pyr, PW, PH] = tinyPyramid(view, ui);
  const [park, MH] = tinyPark(view.players[shown], mine, ui);
  const top = PH + 8, corner = (TINY_W - 2 * PY.pitch) / 2 - 8;   // left of row 2
  const title = { x: 2, y: 13, "font-size": 13, "font-weight": "bold" };
  // the name on up to two lines (one line squeezed a 40-character name to 39 % on a phone),
  // the count on the line after it: three lines of 13 units end above the pyramid's third
  // row, which reaches further left (a longer name is set smaller, as fitTexts does)
  const board = svgRoot(TINY_W, top + MH,
    s("g", { transform: `translate(${(TINY_W - PW) / 2},0)` }, pyr),
    fitText(`${seatLabelFor(shown, view.seat)}\n${t("seven_waters.discarded", { n: view.players[shown].discard_count })}`,
            corner, title, "down", 3),
    s("g", { transform: `translate(0,${top})` }, park));
  // from the board's top: as its height changes (a row of the pyramid empties), the
  // pyramid stays where it is and the park moves up
  board.setAttribute("preserveAspectRatio", "xMidYMin meet");
  return board;
}

// A phone held sideways (style.css has the same query): a screen 560 to 760 px wide and at
// least 1.4 times as wide as high (568 × 320, 640 × 280, 740 × 360).  The narrow board,
// the pyramid above the park (about as high as wide), was squeezed into the room its short
// screen leaves: at 640 × 280 the cards to take were 22.7 px wide and their index 8.8 px
// high, at 740 × 360 10.4 px and 4.1 px.  Here the pyramid stands beside the park.  On a
// screen up to 300 px high the board is drawn across the column (style.css; the page
// scrolls down to the hand and the move bar): the park as on the narrow board, cards 34 px
// wide at 640 × 280.  On a taller one the board keeps to the room above the hand (the hand
// stays on the first screen) and the park's river, pool and theme stand beside its lines, a
// board no higher than the pyramid: cards 23.3 px wide (10.4 px before) in 7rem; with the
// move bar below the first screen (style.css `--fold`, table.js foldAtHand), a shorter
// hand and the park 834 units wide with the pyramid, 28.4 px at 667 × 375 and 29 px at
// 740 × 360.  A wider screen as short (844 × 390, the log beside the table) draws it too.
function landscapeBoard(view, shown, mine, ui) {
  const [pyr, PW, PH] = tinyPyramid(view, ui);
  const across = layoutMatches(SHORT), low = !across && layoutMatches(LANDSCAPE) && layoutMatches(LOW);
  const [linesW, stripsW] = low ? [LOW_LINES_W, LOW_STRIPS_W] : [LINES_W, STRIPS_W];
  const [park, MH] = across ? tinyPark(view.players[shown], mine, ui)
    : tinyPark(view.players[shown], mine, ui, linesW, false, stripsW, low);
  const parkW = across ? TINY_W : linesW + GAP + stripsW;
  // the park's title above it, as at the game's end: the pyramid's corner (92 units beside
  // its row 2) broke "0 abgeworfen" onto a third line that ran into row 3
  const [title, dy] = parkTitle(view, shown, parkW - 4, { x: 2, y: 14, "font-size": 13, "font-weight": "bold" });
  const board = svgRoot(PW + GAP + parkW, Math.max(PH, MH + 20 + dy), pyr,
    s("g", { transform: `translate(${PW + GAP},0)` }, title, s("g", { transform: `translate(0,${20 + dy})` }, park)));
  board.setAttribute("preserveAspectRatio", "xMidYMin meet");
  return board;
}

// The board at the game's end: the pyramid is gone (SW-5.1: the last card was taken),
// the parks are what was scored.  Both side by side where they fit, else the shown one.
function endBoard(view, shown, wide, ui) {
  const seats = wide ? view.players.map((_, seat) => seat) : [shown];
  const parts = seats.map((seat, k) => {
    const [g, MH] = tinyPark(view.players[seat], false, ui, TINY_W, true);
    const [title, dy] = parkTitle(view, seat, TINY_W - 4, { x: 2, y: 14, "font-size": 13, "font-weight": "bold" });
    return [s("g", { transform: `translate(${k * (TINY_W + 24)},0)` },
      title, s("g", { transform: `translate(0,${20 + dy})` }, g)), MH + 20 + dy];
  });
  return svgRoot(seats.length * TINY_W + (seats.length - 1) * 24, Math.max(...parts.map(([, hgt]) => hgt)),
                 parts.map(([g]) => g));
}

export default {
  keys(action) {
    const p = parse(action);
    if (p.verb === "take") return [`pyr:${p.pos}`];
    if (p.verb === "slide") return [`line:${p.line}`, ...p.cards.map((c) => `hand:${base(c)}`)];
    return (p.cards || []).map((c) => `hand:${base(c)}`);
  },

  // A line tapped after cards that do not fit it: their slide is sent, for the server to say
  // why not (no slides left, SW-4.4; the line has one; the sum, SW-4.3a), not "choose the
  // cards first", which they were.  A joker is declared 1: a line no value of it fits is not
  // lit for it either, and the first two reasons do not depend on it.
  // A card of the pyramid drawn inactive while cards of the hand are chosen is takeable as
  // such: sent, it was taken and the choice dropped, from a card drawn disabled (`explain`
  // says to clear the choice); with nothing chosen it is covered, and the server says so.
  guess(key, view, selected = []) {
    if (key.startsWith("pyr:")) return selected.length ? null : `take ${key.slice(4)}`;
    const cards = selected.filter((k) => k.startsWith("hand:")).map((k) => k.slice(5));
    if (!key.startsWith("line:") || !cards.length) return null;
    return `slide ${key.slice(5)} ${cards.map((c) => (c.startsWith("X") ? `${c}=1` : c)).join(" ")}`;
  },

  label(action, view) {
    const p = parse(action);
    const cards = (p.cards || []).map(cardLabel).join(" ");
    if (p.verb === "take") {
      const [r, c] = p.pos.split("-").map(Number);
      return t("seven_waters.take", { c: cardLabel(view?.pyramid?.[r - 1]?.[c - 1]) || p.pos });
    }
    if (p.verb === "discard") return cards ? t("seven_waters.discard", { c: cards }) : t("seven_waters.discard_none");
    if (p.verb === "slide") return t("seven_waters.slide", { k: p.line, c: cards });
    if (p.verb === "pass") return t("seven_waters.pass");
    if (p.verb === "theme" && !cards) return t("seven_waters.theme_hidden");  // another seat's: its card is secret
    return t(`seven_waters.${p.verb}_a`, { c: cards });
  },

  // a move button's name where its words hold cards by their symbols (app.js): "Discard
  // 8♣" / "Take 7♦" were read as signs; the visible words first, then the cards' names
  spoken(action, view) {
    const p = parse(action);
    let codes = p.cards || [];
    if (p.verb === "take") {
      const [r, c] = p.pos.split("-").map(Number);
      codes = [view?.pyramid?.[r - 1]?.[c - 1]].filter(Boolean);
    }
    const label = this.label(action, view);
    if (!codes.length || !/[♣♦♥♠★]/u.test(label)) return null;   // words already ("Discard Joker")
    return `${label} (${codes.map(cardName).join(", ")})`;
  },

  status(view) {
    return `${t("seven_waters.left", { n: view.pyramid_left })}${view.extra_action ? " · " + t("seven_waters.extra") : ""}`;
  },

  name(key, view) {
    const [kind, arg] = key.split(":");
    if (kind === "pyr") {
      const [r, c] = arg.split("-").map(Number);
      const code = view.pyramid[r - 1][c - 1];
      // SW-3.2: whether it is free (the view's `free`, as the terminal lists them) is what a
      // sighted player sees (nothing lies on it); off turn every card is disabled, and a
      // screen reader could not tell the free ones
      const free = (view.free || []).includes(arg);
      return t(free ? "seven_waters.name_pyr_free" : "seven_waters.name_pyr", { c: cardName(code), r, k: c });
    }
    if (kind === "line") {
      const me = view.players[view.seat ?? 0];
      const line = me.lines[+arg - 1] || [];
      return t("seven_waters.name_line", { k: arg, s: me.line_sums[+arg - 1], c: line.map(cardName).join(", ") || "–" });
    }
    return cardName(arg);
  },

  explain(key, view) {
    if (key.startsWith("pyr:")) return t("seven_waters.why_pyr_chosen");
    if (key.startsWith("line:")) return t("seven_waters.why_line");
    if (key.startsWith("hand:")) return t("seven_waters.why_hand");
    return null;
  },

  seatInfo(view, seat) {
    const p = view.players[seat];
    return `${t("cards_n", { n: p.hand_count })}`;
  },

  // SW-4.3d: a theme lies face down, so another seat's running score leaves its theme
  // points out (the server's scores_seen_by); the chip says that more may come
  seatScore(view, seat, msg) {
    const sc = (msg.scores || [])[seat];
    if (typeof sc !== "number") return view.totals ? view.totals[seat] : null;
    const p = view.players[seat];
    return p.theme_placed && p.theme === null && !view.over ? t("seven_waters.score_hidden_theme", { n: sc }) : sc;
  },

  lastKeys(view) {
    const e = (view.log || []).at(-1);
    if (!e) return [];
    if (e.kind === "take") return [`pyr:${e.action.split(" ")[1]}`];
    if (e.kind === "slide") return [`line:${e.action.split(" ")[1]}`];
    return [];
  },

  // SW-5.3: how the game was decided comes with the final view (`decided_by`, from the
  // rules); the client only words it
  tieBreak(view, msg) {
    const n = (view.totals || [])[0];
    if (view.decided_by === "draw") return t("seven_waters.draw", { n });
    // the winner the pool decides for is the page's own seat as the result's line says it
    if (view.decided_by === "pool") return t("seven_waters.by_pool", { n, who: seatInTextFor(view.winners[0], view.seat) });
    return null;
  },

  draw(view, ui) {
    const mySeat = view.seat ?? null;
    const shown = mySeat ?? (view.to_move?.[0] ?? 0);   // a spectator sees the player to move
    const wide = !layoutMatches("(max-width: 760px)");
    let board;
    const end = view.over && !view.pyramid_left;
    if (end) board = endBoard(view, shown, wide, ui);
    // a wider screen as short (844 × 390: a phone held sideways, the log beside the table)
    // drew the wide board, full cards beside a park of 420 units, in the 112 px above the
    // hand: cards to take 12.6 px wide; the sideways board, 23.3 px
    else if (!wide || (layoutMatches(SIDEWAYS) && !layoutMatches(SHORT))) {
      board = (layoutMatches(LANDSCAPE) || wide ? landscapeBoard : tinyBoard)(view, shown, mySeat === shown, ui);
    }
    else {
      const [pyr, PW, PH] = pyramid(view, ui);
      const [mine, MH] = park(view.players[shown], shown, mySeat === shown, ui);
      const [title, dy] = parkTitle(view, shown, PARK_W - 8, { x: 4, y: 14, "font-size": 14, "font-weight": "bold" });
      board = svgRoot(PW + PARK_W + 12, Math.max(PH, MH + 22 + dy), pyr,
        s("g", { transform: `translate(${PW + 12},0)` }, title, s("g", { transform: `translate(0,${22 + dy})` }, mine)));
    }
    // the other park, in tiles in the side column (at the end of a wide screen's game it is
    // on the board); beside the board the column is about SIDE_W wide: drawn at its size
    const side = view.players.map((p, seat) => seat === shown || (end && wide) ? null : (() => {
      const width = wide ? SIDE_W : TINY_W;
      const [g, height] = tinyPark(p, false, ui, width, end);
      // a group of named cards, not one picture: the other seat's lines, river, pool and
      // theme are read as a sighted player sees them (as a picture only its title was)
      const pic = svgRoot(width, height + 4, g);
      pic.setAttribute("role", "group");
      pic.setAttribute("aria-label", `${seatLabel(seat)}: ${t("seven_waters.park")}`);
      return [`park-${seat}`, `${seatLabel(seat)}: ${t("seven_waters.park")}`,
              h("div", { class: "park", "data-park": seat }, pic)];
    })()).filter(Boolean);
    let hand = null;
    const me = mySeat !== null ? view.players[mySeat] : null;
    if (me && me.hand && !end) {   // at the end the hand's cards are a row of the park (endBoard)
      // the cards stand in the middle of the picture (at least 300 wide, so that they keep
      // their size as the hand empties), not from its left edge
      const HW = Math.max(300, me.hand.length * 50 + 10), x0 = (HW - (me.hand.length * 50 - 4)) / 2;
      hand = svgRoot(HW, CH + 16,
        me.hand.map((c, i) => anim(ui.mark(card(c, x0 + i * 50, 8, 46, CH + 4), `hand:${base(c)}`), `c:${base(c)}`)));
    }
    return { board, hand, side };
  },

  // What happened, in the past tense, in the terminal's words (`seven_waters.event.*`,
  // render.describe_event; test_seven_waters_event_words.py holds the two sets of
  // entries to the same sentences) but naming each seat as the page does
  // (its player's or bot's name, else "seat 2") and each card as the board and the move
  // buttons draw it ("10♥", "Joker", "★=♣").  Only what the view tells: another seat's
  // discard is its count (SW-4.2) and its theme "a secret theme" (SW-4.3d) until shown.
  logLines(view) {
    // cards side by side on screen ("7♦ 7♥"); spoken, their names one after another with a
    // pause between them ("7 of diamonds, 7 of hearts")
    const list = (codes) => codes.map(cardLabel).join(spoken() ? ", " : " ");
    return (view.log || []).slice(-12).map((e) => {
      const words = e.action.trim().split(/\s+/), cards = list(words.slice(1));
      const x = e.extra ? t("seven_waters.extra_log") : "";
      const seat = e.seat;
      switch (e.kind) {
        case "take": {
          const r = e.revealed?.length ? " " + t("seven_waters.log.revealed", { c: list(e.revealed) }) : "";
          return say("seven_waters.log.take", { seat, c: cardLabel(e.card) || words[1], r, x });
        }
        case "slide": return say("seven_waters.log.slide", { seat, k: words[1], c: list(words.slice(2)), x });
        case "river": return say("seven_waters.log.river", { seat, c: cards, x });
        case "pool": return say("seven_waters.log.pool", { seat, c: cards, x });
        case "discard": return cards ? say("seven_waters.log.discard", { seat, c: cards, x })
          : say("seven_waters.log.discard_secret", { seat, n: e.count ?? 0, x });
        case "theme": return say(cards ? "seven_waters.log.theme" : "seven_waters.log.theme_secret", { seat, c: cards, x });
        case "pass": return say("seven_waters.log.pass", { seat, x });
        default: return say("seven_waters.log", { seat, a: this.label(e.action, null), x });   // a kind this client does not know yet
      }
    });
  },

  // the columns' heads are the seats, the page's own marked as its chip is ("Seat 1 (you)")
  breakdown(view) {
    const cats = ["slides", "river", "pool", "theme", "hand", "discards"];
    const scores = Array.isArray(view.scores) ? view.scores : [];
    return h("table", { class: "score" },
      h("tr", {}, h("td", {}, ""), scores.map((_, i) => h("th", { scope: "col", class: "name" }, seatLabelFor(i, view.seat)))),
      cats.map((c) => h("tr", {}, h("th", { scope: "row", class: "word" }, t(`seven_waters.cat.${c}`)), scores.map((x) => h("td", {}, x?.[c] ?? "")))),
      h("tr", {}, h("th", { scope: "row", class: "word" }, t("total")), (view.totals || []).map((x) => h("td", {}, h("b", {}, x)))));
  },
};
