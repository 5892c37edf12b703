// Watten: the trick table (four seats around it), your hand, trump, signals, tricks.
import { s, h, svgRoot, card, cardText, cardName, suitText, anim, fitText, textWidth, SUIT_SYMBOL } from "../svg.js";
import { t, say, seatLabel, seatLabelFor, seatInText } from "../i18n.js";
import { SIDEWAYS, layoutMatches } from "../table.js";

// WA-1.1: a team, the seats in it (partners sit opposite), as i18n.js say takes it
function team(seatOrTeam) { return seatOrTeam % 2 === 0 ? [0, 2] : [1, 3]; }
// a team named inside a sentence ("Team seat 0 + seat 2: 3 points", "team Anna + seat 2"),
// where it is never the reader's own (a spectator's line, the raising team to the answering one)
function teamName(seatOrTeam) { return team(seatOrTeam).map(seatInText).join(" + "); }

// A line that names a team is worded for the page's seat (say's reader): its own team is
// "your team" („dein Team"), as the table says "us : them", not its seats' words ("Team
// seat 0 + seat 2" read to seat 0 as if it were another's); a spectator reads the seats.
// A hand's points are said with their unit ("erhält 1 Punkt", not "erhält 1"): n is the points
function resultLine(r, view) {
  return say("watten.res", { h: r.hand, seats: { team: team(r.team) }, n: r.points, why: t(`watten.reason.${r.reason}`),
                             tricks: tricksWords(r.tricks_won, view), reader: view.seat });
}

// WA-4.1: each team's tricks, worded for the page's seat: its own team's first, said as
// "your team" ("tricks: 1 for your team, 3 for the others"), a spectator's by the teams'
// seats.  "tricks 3:1" was team 0 : team 1 whoever read it: seat 1 heard its own team's
// tricks second under "your team scores …", and a spectator could not tell whose were whose
function tricksWords(won, view) {
  if (view.seat === null || view.seat === undefined) {
    return t("watten.tricks_teams", { a: won[0], t0: teamName(0), b: won[1], t1: teamName(1) });
  }
  const ours = view.seat % 2;
  return t("watten.tricks_ours", { a: won[ours], b: won[1 - ours] });
}

// WA-4.2: each team's score on its own line, with its players' names and its unit
function standing(view) {
  return [0, 1].map((k) => say("watten.team_points", { seats: { team: team(k) }, n: view.scores[k], reader: view.seat }));
}

const SIGNALS = ["none", "weak", "medium", "strong"];

// The table on a phone held sideways (table.js SIDEWAYS), 580 × 120 units: the table of
// 400 × 320 was drawn in the 112 px such a screen leaves above the hand, what is said of
// the seats 3.8 px high and the cards of the trick 22 px.  Here it is drawn at 0.93 or
// more (556 px wide at 844 × 390), its smallest words (11 units) 10.3 px high: the side
// seats at the table's ends, the top seat's name and what is said of it on the top line,
// the player's own on the bottom line, the trick's cards (42 × 52) in a row between the side
// seats, each in its seat's order round the table (left, top, own, right) and the top
// seat's a little higher, the own a little lower; a trick taken or a raise on a line of
// its own below them and the side seats' texts; the last hand's end between those texts
// (`middle` wide), where the trick's cards will be.
// (`line`: the room of the name and of the rest on the own seat's line, down to the table's
// left end and up to its right; on the top seat's, between the trump and the tricks)
const WIDE = { W: 580, H: 120, mid: 290, cardW: 42, cardH: 52, sideRoom: 160, middle: 216,
               line: { 0: [272, 272], 2: [200, 184] },
               // own seat, left, top, right: a text's (x, y) and the trick card's
               text: [[290, 114], [12, 46], [290, 18], [568, 46]],
               trick: [[296, 34], [190, 30], [242, 26], [348, 30]], message: 100, lastHand: 52 };

// A seat's name on the sideways table (WIDE), at its size on up to `lines` lines upwards
// from `attrs.y`, broken at spaces, each within `room`; a name longer than that ends in "…".
// Squeezed to its room (svg.js fitText), a name of 24 characters ("Kreszentia Obermoserbau")
// was drawn at 84 % of its width, the own seat's of 40 at 76 %; its room is between the
// trick's cards and the table's end, or the middle of the table and its end.  The whole name
// is the tooltip and what a screen reader reads (the seat chips above the table show it too);
// the page's own seat keeps its "(you)" after the name shortened (`own`).
function shortName(label, own, room, attrs, lines = 1) {
  const you = own ? ` (${t("you")})` : "";
  const name = you && label.endsWith(you) ? label.slice(0, -you.length) : label;
  // a hair under the room: the canvas measures the page's font a little apart from the SVG
  // (fitText squeezes what is left, never visibly)
  const fits = (text) => textWidth(text, attrs) <= 0.98 * room;
  const rows = [];
  let rest = name.split(" ").filter(Boolean);
  while (rest.length && rows.length < lines - 1) {   // every line but the last: whole words
    let n = 0;
    while (n < rest.length && fits(rest.slice(0, n + 1).join(" "))) n++;
    if (!n) break;   // a word longer than a line: the last line shortens it
    rows.push(rest.slice(0, n).join(" "));
    rest = rest.slice(n);
  }
  let last = rest.join(" ");
  if (last && !fits(last + you)) {
    const chars = [...last];   // whole characters (an emoji is one)
    while (chars.length > 1 && !fits(chars.join("").trimEnd() + "…" + you)) chars.pop();
    last = chars.join("").trimEnd() + "…";
  }
  if (last || you) rows.push(last + you);
  const step = Math.round(1.15 * attrs["font-size"]);
  const texts = rows.map((row, i) => fitText(row, room, { ...attrs, y: attrs.y - (rows.length - 1 - i) * step }));
  if (rows.join(" ") === label) return s("g", {}, texts);
  return s("g", { role: "img", "aria-label": label, "data-short-name": "" }, s("title", {}, label), texts);
}

// The trump as a screen reader says it: the symbol drawn, and the suit's word the cards are
// named with ("Herz-Bube"): "Trumpf ♦" alone was read as a symbol, or not at all
function trumpSpoken(suit) { return t("watten.trump", { s: `${SUIT_SYMBOL[suit] || suit} (${t("suit_" + suit)})` }); }

function isCard(a) { return /^[2-9TJQKA][CDHS]$/i.test(a); }

export default {
  keys(action) { return isCard(action) ? [`hand:${action.toUpperCase()}`] : []; },
  guess(key, view) { return key.startsWith("hand:") && view.phase === "play" ? key.slice(5) : null; },
  label(action, view) {
    const [verb, arg] = action.split(" ");
    if (isCard(action)) return t("watten.play", { c: cardText(action) });
    if (verb === "trump") return t("watten.trump", { s: suitText(arg) });
    // WA-5: no signal is not a level of one ("Zwicken: keins")
    if (verb === "signal") return arg === "none" ? t("watten.signal_none") : t("watten.signal", { s: t(`watten.sig.${arg}`) });
    // WA-6: what is at stake: a raise accepted makes the hand worth one more; conceded,
    // the raising team scores what it was worth before the raise
    if (view && (verb === "raise" || verb === "accept")) return t(`watten.${verb}_to`, { n: view.value + 1 });
    if (view && verb === "concede" && view.raise?.pending != null) {
      return t("watten.concede_for", { team: teamName(view.raise.pending), n: view.value });
    }
    return t(`watten.${verb}`);
  },

  // a move button's name where its words are a symbol (app.js): the trump to call
  spoken(action) {
    const [verb, arg] = action.split(" ");
    return verb === "trump" && arg ? trumpSpoken(arg) : null;
  },

  status(view) {
    const head = `${t("watten.hand_no", { n: view.hand_no })} · ${t(`watten.phase.${view.phase}`)}`;
    const tail = ` · ${t("watten.value", { n: view.value })} · ${t("watten.target", { n: view.target })}`;
    if (!view.trump) return head + tail;
    // the trump as the table says it (trumpSpoken): "Trump ♦" was read as the symbol, or not at all
    return [`${head} · `, h("span", { role: "img", "aria-label": trumpSpoken(view.trump) },
                            t("watten.trump", { s: SUIT_SYMBOL[view.trump] })), tail];
  },

  name(key) { return cardName(key.slice(5)); },

  // asked only on the seat's own turn; in the play phase a card goes to the server
  // (guess), which names the suit to follow and the cards that follow it
  explain(key, view) {
    return view.phase !== "play" ? t("watten.why_phase", { p: t(`watten.phase.${view.phase}`) }) : null;
  },

  // what is said of a seat under its name, part by part
  seatParts(view, seat) {
    const sig = view.signals?.[seat];
    const parts = [];
    // WA-1.1: partners sit opposite; the board names the partner, as a player at the table knows it
    if (view.seat !== null && view.seat !== undefined && seat === (view.seat + 2) % 4) parts.push(t("watten.partner"));
    parts.push(t("cards_n", { n: view.hand_sizes[seat] }));
    // WA-5: a level alone ("schwach") said nothing; "none" is said as no signal
    if (sig) parts.push(sig === "none" ? t("watten.no_sig") : t("watten.sig_seat", { s: t(`watten.sig.${sig}`) }));
    if (seat === view.dealer) parts.push(t("watten.dealer"));
    // WA-1.3, WA-3.1: until the first card, who calls trump (and leads) is what the table looks to
    if (seat === view.caller && (view.phase === "trump" || view.phase === "signal")) parts.push(t("watten.calls"));
    return parts;
  },

  seatInfo(view, seat) {
    // a line too long for its room is split at a space (svg.js fitText): only after a
    // "·", never inside "5 Karten" nor before a "·" that would then start the next line
    return this.seatParts(view, seat).map((p) => p.replaceAll(" ", "\u00a0")).join("\u00a0· ");
  },

  // a side seat's narrow room takes three parts ("5 Karten · zwickt stark · sagt Trumpf an")
  // one a line: split in two, its first half was squeezed; the others take one line
  infoLines(view, seat, k) {
    const parts = this.seatParts(view, seat);
    if ((k === 1 || k === 3) && parts.length > 2) return parts;
    return [this.seatInfo(view, seat)];
  },

  seatInfoOnBoard: true,
  seatScore(view, seat) { return view.scores[seat % 2]; },

  lastKeys() { return []; },

  // a complete trick stays long enough to be seen going to its winner
  hold(view) { return !(view.trick || []).length && (view.tricks || []).length && view.phase === "play" ? 1900 : 650; },

  phaseNo(view) { return view.hand_no; },

  summary(before, view) {
    if ((view.results || []).length <= (before.results || []).length) return null;
    const r = view.results.at(-1);
    // the standing said aloud too (app.js): the log's line said who took the hand, not the score
    return { title: t("watten.hand_over", { n: r.hand }), lines: [resultLine(r, view), ...standing(view)], said: standing(view) };
  },

  tieBreak() { return null; },

  draw(view, ui, msg = {}) {
    const me = view.seat ?? 0;
    const wide = layoutMatches(SIDEWAYS) ? WIDE : null;
    const W = wide ? WIDE.W : 400, H = wide ? WIDE.H : 320;
    // seats around the table: me at the bottom, then clockwise left, top, right
    const spots = wide ? WIDE.text : [[200, 290], [8, 160], [200, 22], [392, 160]];
    // the width a seat's texts may take without running into the trick's cards or the
    // corner texts; they may wrap (the name upwards, what is said of the seat downwards)
    // except the top seat's, which has no line above it to wrap into
    const room = [380, 100, 190, 98];
    const trickSpots = wide ? WIDE.trick : [[178, 178], [112, 132], [178, 86], [244, 132]];
    const cardSize = wide ? [WIDE.cardW, WIDE.cardH] : [];
    // a complete trick stays on the table, with its winner named, until the next card is played
    const done = !(view.trick || []).length && (view.tricks || []).length && view.phase === "play" ? view.tricks.at(-1) : null;
    // with motion, the complete trick shows all four cards, then goes to its winner (once)
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const shown = done ? (still || msg.fresh ? done.cards : []) : (view.trick || []);
    const toWinner = done && msg.fresh && !still ? ["to-s", "to-w", "to-n", "to-e"][(done.winner - me + 4) % 4] : null;
    const played = Object.fromEntries(shown.map(([seat, c]) => [seat, c]));
    const g = svgRoot(W, H,
      // the cloth a shade darker than it was (#2e7d32): the seat to move's amber name on it
      // was 3.96:1, under the 4.5:1 of WCAG 1.4.3 for its 13 units drawn at 12 px on a phone
      s("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: wide ? 40 : 60, fill: "#276b2c", stroke: "#1b5e20", "stroke-width": 4 }));
    for (let k = 0; k < 4; k++) {
      const seat = (me + k) % 4;
      const [x, y] = spots[k];
      const turn = (view.to_move || []).includes(seat);
      if (wide) {
        this.wideSeat(g, view, seat, k, turn, x, y);
        if (played[seat]) g.append(this.trickCard(view, seat, played[seat], trickSpots[k], cardSize, toWinner));
        continue;
      }
      const anchor = k === 1 ? "start" : k === 3 ? "end" : "middle";
      const dy = k === 2 ? 0 : k === 0 ? 0 : -8;
      const name = seatLabelFor(seat, view.seat);
      // the seat to move: its name amber and underlined (amber and white alone looked alike
      // to a player without blue cones, and in greys)
      const nameAttrs = { x, y: y + dy, "text-anchor": anchor, "font-size": 13, fill: turn ? "#ffe082" : "white", "font-weight": "bold",
                          "text-decoration": turn ? "underline" : null };
      // the name's lines: the side seats' narrow rooms take up to four, upwards, into the
      // empty side of the table (in two a name of 40 characters was squeezed to 53 %;
      // "Kreszentia Aloisia Obermoserbauer-Lang" needs four), the bottom seat's two; the
      // top seat has no room above it, so a name too long for its one line takes a second
      // below it, and what is said of the seat moves down a line (one line squeezed such a
      // name to 58 %)
      const topTwo = k === 2 && textWidth(name, nameAttrs) > room[k];
      const nameText = k === 2 ? fitText(name, room[k], nameAttrs, topTwo ? "down" : null, topTwo ? 2 : 1)
        : fitText(name, room[k], nameAttrs, "up", k === 0 ? 2 : 4);
      const below = topTwo ? 15 : 0;
      g.append(s("g", { "data-origin": `tseat:${seat}` }, nameText,
        ...this.infoLines(view, seat, k).map((line, i) =>
          // the top seat's info may wrap downwards too: below it is the empty middle of the table
          fitText(line, room[k], { x, y: y + dy + below + 15 + 13 * i, "text-anchor": anchor, "font-size": 11, fill: "white" }, "down"))));
      if (played[seat]) g.append(this.trickCard(view, seat, played[seat], trickSpots[k], cardSize, toWinner));
    }
    // WA-6: a raise waiting for its answer is said on the table, not only in the log below.
    // Both lines name a seat (a name has up to 40 characters) and stay one line, fitted to
    // the table's width: between the trick's lowest card (to y 240) and the bottom seat's
    // name there is room for one
    if (view.raise?.pending != null && view.phase === "answer") {
      g.append(fitText(t("watten.raised", { who: seatLabel(view.raise.pending), n: view.value + 1 }), W - 20,
        { x: W / 2, y: wide ? WIDE.message : 255, "text-anchor": "middle", "font-size": 13, fill: "#ffe082", "font-weight": "bold", "data-raise": "" }));
    }
    if (done) {
      g.append(fitText(t("watten.took", { who: seatLabel(done.winner) }), W - 20,
        { x: W / 2, y: wide ? WIDE.message : 255, "text-anchor": "middle", "font-size": 13, fill: "#ffe082", "font-weight": "bold" }));
    }
    const corner = wide ? 18 : 26;
    g.append(s("text", { x: wide ? 16 : 20, y: corner, "font-size": 14, fill: "white", "data-trump": "",
                         role: view.trump ? "img" : null, "aria-label": view.trump ? trumpSpoken(view.trump) : null },
      view.trump ? t("watten.trump", { s: SUIT_SYMBOL[view.trump] }) : ""));
    // the tricks of the player's own team first, and said so: "0 : 2" read the same for
    // both teams (WA-4.1 counts a team's tricks)
    const seated = view.seat !== null && view.seat !== undefined;
    const ours = seated ? view.seat % 2 : 0;
    // a spectator's table has seat 0 at the bottom: the first number is the pair at the top
    // and bottom, the second the pair at the sides ("0 : 2" alone did not say whose was
    // whose); the teams' seats in words are its tooltip (and the results' lines).  The
    // corner has no room for four names of up to 40 characters
    const legend = t(seated ? "watten.us_them" : "watten.pairs");
    g.append(s("g", { "data-tricks-box": "" }, s("title", {}, tricksWords(view.tricks_won, view)),
      s("text", { x: W - (wide ? 16 : 20), y: corner, "text-anchor": "end", "font-size": 13, fill: "white", "data-tricks": "" },
        `${t("watten.tricks")} ${view.tricks_won[ours]} : ${view.tricks_won[1 - ours]}`),
      s("text", { x: W - (wide ? 16 : 20), y: corner + 15, "text-anchor": "end", "font-size": 11, fill: "white", "data-tricks-legend": "" }, legend)));
    // WA-4.1: a new hand's table says how the last one ended (its summary stands beside the
    // board on a desktop but below it, out of sight, on a phone); gone with the first card
    const last = (view.results || []).at(-1);
    if (last && !(view.trick || []).length && !(view.tricks || []).length && (view.phase === "trump" || view.phase === "signal")) {
      const head = seated ? t(last.team === ours ? "watten.last_us" : "watten.last_them", { h: last.hand, n: last.points })
        : t("watten.last_team", { h: last.hand, team: teamName(last.team), n: last.points });
      // sideways between the side seats' texts, where the trick's cards will be
      const [hx, hy, hw] = wide ? [WIDE.mid, WIDE.lastHand, WIDE.middle] : [W / 2, 86, 370];
      g.append(fitText(head, hw, { x: hx, y: hy, "text-anchor": "middle", "font-size": 13, fill: "#ffe082", "font-weight": "bold", "data-last-hand": "" }, "up"));
      const why = `${t(`watten.reason.${last.reason}`)} · ${t("watten.tricks")} ${last.tricks_won[ours]} : ${last.tricks_won[1 - ours]} ${legend}`;
      const whyAttrs = { x: hx, y: hy + 17, "text-anchor": "middle", "font-size": 11, fill: "white", "data-last-hand": "" };
      g.append(wide ? fitText(why, hw, whyAttrs, "down") : s("text", whyAttrs, why));
    }
    let hand = null;
    if (view.hand && view.seat !== null && view.seat !== undefined) {
      // the cards stand in the middle of the picture (at least 300 wide, so that they keep
      // their size as the hand empties), not from its left edge
      const HW = Math.max(300, view.hand.length * 58 + 10), x0 = (HW - (view.hand.length * 58 - 4)) / 2;
      hand = svgRoot(HW, 86,
        view.hand.map((c, i) => anim(ui.mark(card(c, x0 + i * 58, 8, 54, 74), `hand:${c}`), `c:${c}`)));
    }
    return { board: g, hand, side: [["results", t("watten.results"), this.breakdown(view)]] };
  },

  // A trick's card at `spot` (`size`: the sideways table's smaller cards), coming from its
  // seat; `toWinner` sends a complete trick to its winner.
  trickCard(view, seat, code, spot, size, toWinner) {
    const from = seat === view.seat ? null : `tseat:${seat}`;
    const c = anim(s("g", { role: "img", "aria-label": `${seatLabel(seat)}: ${cardName(code)}` }, card(code, ...spot, ...size)),
      `c:${code}`, from);
    if (toWinner) c.firstChild.classList.add("trick-away", toWinner);
    return c;
  },

  // A seat's name and what is said of it on the sideways table (WIDE): the own seat's and
  // the top seat's on one line, the name ending left of the middle and the rest beginning
  // right of it; a side seat's at its end of the table, the name on up to two lines upwards
  // (the right seat's on one: the tricks' legend stands above it) and each part said of it
  // on a line of its own below.  A name longer than its room ends in "…" (shortName).
  wideSeat(g, view, seat, k, turn, x, y) {
    const name = seatLabelFor(seat, view.seat);
    const nameAttrs = { y, "font-size": 13, fill: turn ? "#ffe082" : "white", "font-weight": "bold",
                        "text-decoration": turn ? "underline" : null };
    const info = { "font-size": 11, fill: "white" };
    if (k === 0 || k === 2) {
      g.append(s("g", { "data-origin": `tseat:${seat}` },
        shortName(name, view.seat === seat, WIDE.line[k][0], { ...nameAttrs, x: x - 6, "text-anchor": "end" }),
        fitText(this.seatInfo(view, seat), WIDE.line[k][1], { ...info, x: x + 6, y, "text-anchor": "start" })));
      return;
    }
    const anchor = k === 1 ? "start" : "end";
    g.append(s("g", { "data-origin": `tseat:${seat}` },
      shortName(name, view.seat === seat, WIDE.sideRoom, { ...nameAttrs, x, "text-anchor": anchor }, k === 1 ? 2 : 1),
      ...this.infoLines(view, seat, k).map((line, i) =>
        fitText(line, WIDE.sideRoom, { ...info, x, y: y + 13 * (i + 1), "text-anchor": anchor }, "down"))));
  },

  logLines(view) {
    return (view.log || []).slice(-12).map((e) => {
      switch (e.event) {
        // the dealer or the caller may be the seat hearing it: "you deal", "you call" (i18n.js say)
        case "deal": return say("watten.log.deal", { seats: { d: e.dealer, c: e.caller } });
        case "trump": return say("watten.log.trump", { seat: e.seat, s: t("suit_" + e.suit) });
        // the words of the seat's chip (sig_seat, no_sig): "zwickt stark", "zwickt nicht"
        case "signal": return !e.signal ? say("watten.log.signal_hidden", { seat: e.seat })
          : e.signal === "none" ? say("watten.log.signal_none", { seat: e.seat })
          : say("watten.log.signal", { seat: e.seat, s: t(`watten.sig.${e.signal}`) });
        case "play": return say("watten.log.play", { seat: e.seat, c: cardName(e.card) });
        case "trick": return say("watten.log.trick", { seat: e.winner });
        case "raise": return say("watten.log.raise", { seat: e.seat, n: e.value });
        case "accept": return say("watten.log.accept", { seat: e.seat, n: e.value });
        // a team line on screen too, worded for the page's seat ("The hand went to your team")
        case "hand": return say("watten.log.hand", { seats: { team: team(e.team) }, n: e.points, why: t(`watten.reason.${e.reason}`), reader: view.seat });
        case "game": return say("watten.log.game", { seats: { team: team(e.team) }, n: e.score, reader: view.seat });
        default: return say(`watten.log.${e.event}`, { seat: e.seat, team: e.team === undefined ? "" : teamName(e.team), n: e.score });
      }
    });
  },

  breakdown(view) {
    return h("div", {},
      ...standing(view).map((line) => h("p", {}, h("b", {}, line))),
      h("ul", {}, (view.results || []).map((r) => h("li", {}, resultLine(r, view)))));
  },
};
