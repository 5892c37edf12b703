// Wildwasser: the track with its river crossings, the animals of every team, podiums.
import { s, h, svgRoot, anim, fitText, seatShape, SEAT_COLORS, SEAT_INK } from "../svg.js";
import { t, say, seatLabel, seatLabelFor, seatInText, seatInTextFor, term } from "../i18n.js";
import { SIDEWAYS, layoutMatches } from "../table.js";

const SPECIES = ["cheetah", "zebra", "rhino", "meerkat", "turtle"];
// An animal is drawn by the initial of its name in the page's language (Gepard: G,
// cheetah: C; unique in both), as the terminal does: letters, not emoji, render on every
// system font
function initial(species) { return spName(species).charAt(0).toUpperCase(); }
const ICONS = { "+1": "+1", "+2": "+2", die: "⚀", marker: "⚑", cards: "▤", push: "⇶" };
const PER_ROW = 8, F = 44, PODIUM_ROW = 3;
const ICON_NAMES = { "+1": "wildwasser.icon.plus", "+2": "wildwasser.icon.plus", "+3": "wildwasser.icon.plus", die: "wildwasser.icon.die",
                     marker: "wildwasser.icon.marker", cards: "wildwasser.icon.cards", push: "wildwasser.icon.push" };

// The track's layout: fields per row, a field's width and height, the pitch of a row's
// fields and of the rows, the first row's top, an animal token's radius and its centre's
// height on its field.  UPRIGHT: rows of eight square fields, 4 units apart.  SIDEWAYS (a
// phone held sideways, table.js): two rows of fields 27.5 × 42 (37 fields: 19 and 18), 606.5
// × 120 units in all: the rows of eight, 400 × 362 units, were drawn in the 112 px such a
// screen leaves above the hand, the fields' numbers and icons 3.4 px high; in two rows they
// are drawn at 0.917 or more (556 px wide at 844 × 390), their words (11 units) 10 px high or
// more.  The fields stand 4 units apart, as upright (3.7 px; 1 unit, 0.9 px, ran them together
// into one strip), so they are narrower than the 35 units a number of two digits and "+2"
// take side by side: the icon stands under the number ("36" over "+2", which ran into each
// other on fields 30 wide) and the animal, a token of radius 7 with its letter at 11 units,
// in the field's lower right corner.
const UPRIGHT = { per: PER_ROW, fw: F, fh: F, pitch: F + 4, rowPitch: F + 18, top: 34, r: 13, tokenY: F / 2 + 4 };
function sidewaysLayout(fields) {
  // one slot more than the fields: the die stands in the one after the last field
  return { per: Math.ceil((fields + 1) / 2), fw: 27.5, fh: 42, pitch: 31.5, rowPitch: 48, top: 17, left: 6,
           r: 7, letter: 11, tokenX: 17.5, tokenY: 33, iconBelow: true, die: true };
}

function fieldXY(i, L = UPRIGHT) { // i: 0-based field index, laid out as a snake
  const row = Math.floor(i / L.per), col = i % L.per;
  const x = (L.left ?? 10) + (row % 2 === 0 ? col : L.per - 1 - col) * L.pitch;
  return [x, L.top + row * L.rowPitch];
}

// A team's animal: its seat's colour and shape (svg.js seatShape: the colours alone looked
// alike to many a colour-blind player), the species' initial on it (`letter`: its size where
// it is larger than the shape's radius allows, centred on it)
function animalToken(seat, species, x, y, r = 13, letter = null) {
  return s("g", { transform: `translate(${x},${y})` },
    seatShape(seat, r, { fill: SEAT_COLORS[seat % SEAT_COLORS.length], stroke: "white", "stroke-width": 2 }),
    s("text", { y: letter ? +(0.37 * letter).toFixed(1) : r / 2 - 1, "text-anchor": "middle", "font-size": letter || r + 1,
                "font-weight": "bold", fill: SEAT_INK[seat % SEAT_INK.length] },
      initial(species)));
}

function spName(sp) { return t(`wildwasser.sp.${sp}`); }

// A seat chip's symbol (⚑ holds the start marker, ✓ has picked): a player could not tell
// what it meant.  Its words are its name for a screen reader and its tooltip; the board's
// legend (draw) says them for everyone, beside the chips.
function chipSymbol(symbol, words) {
  return h("span", { class: "ww-symbol", role: "img", "aria-label": words, title: words }, symbol);
}

// A hand card's width and pitch.  Its name line (the card less 2 units a side) holds
// "Erdmännchen" and "Schildkröte", about 63 units at font size 9, at 89 % of their width
// at least: on cards 50 wide they were squeezed to 70 %.  A longer name is narrowed to fit
// (fitText) rather than spill over the edge.
const CARD_W = 60, CARD_PITCH = 66, NAME_WIDTH = CARD_W - 4;
// On a phone held sideways (SIDEWAYS) the hand is drawn in 72 px (0.95 of its 76 units), the
// names at 9 units 8.5 px high: there the cards are wider and their names set at 11 units
// (10.4 px; "Erdmännchen" at 93 % of its width).  The hand of five, 420 units, stays within
// the 556 px of the narrowest such column.
const WIDE_CARD = { w: 76, pitch: 82, name: 11 };

function animalCard(species, x, y, ui, key, hidden = false, wide = false) {
  const name = hidden ? "" : t(`wildwasser.sp.${species}`);
  const w = wide ? WIDE_CARD.w : CARD_W;
  const g = s("g", { transform: `translate(${x},${y})` },
    s("rect", { class: "hl", width: w, height: 66, rx: 6, fill: hidden ? "#8d6e63" : "#fff8e1", stroke: "#6d4c41" }),
    s("text", { x: w / 2, y: 34, "text-anchor": "middle", "font-size": 26 }, hidden ? "?" : initial(species)),
    fitText(name, w - 4, { x: w / 2, y: 58, "text-anchor": "middle", "font-size": wide ? WIDE_CARD.name : 9 }));
  return key ? ui.mark(g, key) : g;
}

export default {
  keys(action) {
    const [verb, arg] = action.trim().split(/\s+/);
    if (verb === "pick") return [`hand:${arg}`];
    if ((verb === "action" || verb === "marker") && arg !== undefined) return [`team:${arg}`];
    return [];
  },

  guess(key, view) { return key.startsWith("hand:") && view.phase === "pick" ? `pick ${key.slice(5)}` : null; },

  label(action, view) {
    const [verb, arg] = action.trim().split(/\s+/);
    const sp = arg ? t(`wildwasser.sp.${arg}`) : "";
    // "Move" and "Take the action" said nothing of what they do: the revealed card says
    // how far it moves and which action it has (WW-3.2)
    const card = view?.card;
    if (verb === "pick") return t("wildwasser.pick", { a: sp });
    if (verb === "move") return arg ? t("wildwasser.move_a", { a: sp })
      : card ? t("wildwasser.move_n", { a: spName(card), n: view.speeds?.[card] ?? "?" }) : t("wildwasser.move");
    // the team card the start marker goes to may be the player's own (WW-4.3; WW-3.2 where
    // the marker lies elsewhere): "Start marker to yourself", not the seat's word (i18n.js
    // say's reader), in the hint shown and heard alike (the move is chosen on a seat chip)
    if (verb === "action") return arg !== undefined ? say("wildwasser.action_s", { seats: { n: +arg }, reader: view?.seat })
      : card && card !== "cheetah" ? t(`wildwasser.act.${card}`) : t("wildwasser.action");
    if (verb === "sun") return t("wildwasser.sun", { a: sp });
    if (verb === "marker") return say("wildwasser.marker", { seats: { n: +arg }, reader: view?.seat });
    return action;
  },

  // WW-3.1: a pick once made is named by its animal ("Your choice: meerkat"), not by the
  // button's words ("Pick meerkat": "Du hast Gepard wählen gewählt")
  chosen(action, view) {
    const [verb, arg] = action.trim().split(/\s+/);
    return verb === "pick" && arg ? spName(arg) : this.label(action, view);
  },

  status(view) {
    const card = view.card && view.resolving !== null ? ` · ${t("wildwasser.card", { a: spName(view.card), n: seatInText(view.resolving) })}` : "";
    return `${t("wildwasser.round", { n: view.round })} · ${t(`wildwasser.ph.${view.phase}`)}${card} · ${t("wildwasser.stack", { n: view.stack })}`;
  },

  name(key, view) {
    const [kind, arg] = key.split(":");
    if (kind === "hand") return t("wildwasser.name_card", { a: spName(arg), sp: view.speeds?.[arg] ?? "?" });
    const st = view.seats[+arg];
    const waiting = SPECIES.filter((sp) => st.animals[sp]?.at === "team card").map(spName).join(", ") || "–";
    return t("wildwasser.name_team", { who: seatLabel(+arg), n: st.points, w: waiting });
  },

  explain(key, view) {
    if (key.startsWith("team:")) return t("wildwasser.why_team");
    if (view.phase !== "pick") return t("wildwasser.why_pick", { p: t(`wildwasser.ph.${view.phase}`) });
    return null;
  },

  seatKey(seat) { return `team:${seat}`; },

  // WW-3.2, WW-4.3: a seat chip is chosen only to put the start marker on that team card
  // (the cheetah's action, a start-marker field).  The hint line alone said so: while the
  // choice is open, the chip says what choosing it does, in its name (for a screen reader),
  // its tooltip and a visible cue on it.  Called by the picker (table.js) for a piece that
  // can be chosen now, with the moves it leads to.
  offer(node, key, view, actions) {
    if (!key.startsWith("team:")) return;
    // either move puts the marker on this seat's team card: one sentence says it for both
    if (!actions.some((a) => /^(marker|action) \d+$/.test(a.trim()))) return;
    // WW-4.3: the player's own team card may take it (or keep it): said as theirs, as the
    // hint says "Start marker to yourself"; "Choose this seat to give it the start marker"
    // read on their own chip as on any other seat's
    const own = view.seat !== null && view.seat !== undefined && key === `team:${view.seat}`;
    const says = t(!own ? "wildwasser.chip_choose" : view.start_marker === view.seat ? "wildwasser.chip_keep_own" : "wildwasser.chip_choose_own");
    node.setAttribute("title", says);
    node.setAttribute("aria-label", `${node.getAttribute("aria-label")}. ${says}`);
    node.append(h("span", { class: "ww-cue", "aria-hidden": "true", title: says }, t("wildwasser.chip_cue")));
  },

  seatInfo(view, seat) {
    const st = view.seats[seat];
    // how many animals still wait on the team card, yet to start, in words: their initials
    // ("wartend: GZNES") were a code to a player; which ones, the team cards' panel says.
    // Words no longer than the initials were: a chip on a phone or a screen held sideways
    // keeps them on its first line (test_browser_layouts.py)
    const waiting = SPECIES.filter((sp) => st.animals[sp]?.at === "team card").length;
    const parts = [];
    if (seat === view.start_marker) parts.push(chipSymbol("⚑", t("wildwasser.chip_marker")));
    if (st.picked) parts.push(chipSymbol("✓", t("wildwasser.chip_picked")));
    if (waiting) parts.push(t("wildwasser.waiting_n", { n: waiting }));
    return parts.length ? parts.flatMap((p, i) => (i ? [" ", p] : [p])) : "";
  },

  seatScore(view, seat) { return view.seats[seat].points; },

  lastKeys() { return []; },

  phaseNo(view) { return view.round; },

  summary(before, view) {
    if (before.round === view.round) return null;
    const moves = (view.log || []).filter((e) => e.event === "move" && before.log.every((b) => b.i !== e.i));
    return { title: t("wildwasser.round_over", { r: before.round }),
             // the page's own seat as its chip says it ("Seat 1 (you): 5 points")
             lines: view.seats.map((st) => t("wildwasser.round_line", { who: seatLabelFor(st.seat, view.seat), n: st.points })) };
  },

  tieBreak(view, msg) {
    const w = msg.winners || [];
    const best = Math.max(...view.scores);
    const tied = view.scores.map((p, seat) => [p, seat]).filter(([p]) => p === best).map(([, seat]) => seat);
    if (tied.length < 2) return null;
    if (w.length > 1) return t("wildwasser.shared", { n: best });
    for (const sp of ["turtle", "meerkat", "rhino", "zebra", "cheetah"]) {
      const places = tied.map((seat) => (view.podiums[sp] || []).indexOf(seat)).map((p) => (p < 0 ? 99 : p));
      // the winner the podium decides for is the page's own seat as the result's line says
      // it ("Won by: seat 0 (you)"): "… decides for seat 0" left a player to recall their seat
      if (new Set(places).size > 1) {
        return t("wildwasser.decided_by", { n: best, a: spName(sp), who: w.map((n) => seatInTextFor(n, view.seat)).join(", ") });
      }
    }
    return null;
  },

  draw(view, ui, msg = {}) {
    const L = layoutMatches(SIDEWAYS) ? sidewaysLayout(view.fields) : UPRIGHT;
    const rows = Math.ceil(view.fields / L.per);
    // + the icon legend below the last row
    const W = L === UPRIGHT ? 10 + PER_ROW * (F + 4) + 6 : 2 * L.left + (L.per - 1) * L.pitch + L.fw;
    const H = L === UPRIGHT ? 40 + rows * (F + 18) + 12 : L.top + (rows - 1) * L.rowPitch + L.fh + 13;
    const board = svgRoot(W, H, s("rect", { width: W, height: H, fill: "#dcedc8", rx: 10 }));
    const last = (view.log || []).at(-1);
    const moved = (view.log || []).filter((e) => e.event === "move").at(-1);
    view.track.forEach((f, i) => {
      const [x, y] = fieldXY(i, L);
      const water = f.crossing !== undefined;
      const ink = f.passable ? "#0b2a40" : "#fff";
      // each field says what it is when pointed at, and to a screen reader (its number and
      // a symbol, "22 ▤", were all it heard): its number and its icon's meaning
      const what = t(f.icon ? `wildwasser.field_icon.${f.icon}` : "wildwasser.field_n", { f: f.field });
      // WW-4.5: a crossing's field with no tile cannot be crossed (drawn deep blue)
      const says = !water ? what : t(f.passable ? "wildwasser.field_crossing" : "wildwasser.field_no_tile", { s: what, k: f.crossing });
      const field = s("g", { role: "img", "aria-label": says },
        s("title", {}, says),
        s("rect", { x, y, width: L.fw, height: L.fh, rx: 6, fill: water ? (f.passable ? "#4fa3d9" : "#1d4f70") : "#f5e6c8",
          // the field the last move ended on: dashed, in ink (style.css --last), apart from the
          // keyboard focus's solid purple ring and frame
          stroke: moved && moved.to === f.field ? "#1d2a33" : "#6d4c41", "stroke-width": moved && moved.to === f.field ? 3 : 1,
          "stroke-dasharray": moved && moved.to === f.field ? "6 3" : null }),
        water ? s("path", { d: L === UPRIGHT ? `M${x + 4} ${y + F - 8} q8 -6 18 0 t18 0` : `M${x + 3} ${y + L.fh - 5} q5 -4 11.5 0 t11.5 0`,
                            stroke: "#cfe6f5", fill: "none" }) : null,
        // ink on the field: dark on passable (light) water, white on deep water, 4.5:1 or more
        s("text", { x: x + 3, y: y + (L.iconBelow ? 10.5 : 11), "font-size": 11, fill: water ? ink : "#333" }, f.field),
        f.icon ? s("text", { ...(L.iconBelow ? { x: x + 3, y: y + 23.5 } : { x: x + L.fw - 3, y: y + 12, "text-anchor": "end" }),
                             "font-size": 11, fill: water ? ink : "#1d2a33" }, ICONS[f.icon] || f.icon) : null);
      board.append(water ? anim(field, `tile:${f.tile}:${f.column}`) : field);
      if (f.animal) board.append(anim(s("g", { role: "img", "aria-label": t("wildwasser.name_animal", { a: spName(f.animal[1]), who: seatLabel(f.animal[0]), f: f.field }) },
        animalToken(f.animal[0], f.animal[1], x + (L.tokenX ?? L.fw / 2), y + L.tokenY, L.r, L.letter)), `an:${f.animal[0]}:${f.animal[1]}`, `seat:${f.animal[0]}`));
    });
    const [fx, fy] = fieldXY(0, L);
    const above = L === UPRIGHT ? 8 : 5;
    board.append(s("text", { x: fx, y: fy - above, "font-size": 12 }, `▶ ${t("wildwasser.start")}`));
    // the symbols of the seat chips above the board and of its fields, in words: a player
    // cannot guess ⚑, ✓, ⚀, ▤ or ⇶ (the die, once rolled, stands at the top right)
    // (sideways the die stands in the slot after the last field: the legend takes the top right)
    board.append(fitText(t("wildwasser.legend_seats"), W - 130, { class: "ww-legend", x: W - (L.die ? 8 : 48), y: fy - above, "text-anchor": "end", "font-size": 12, fill: "#33691e" }));
    board.append(fitText(t("wildwasser.legend_icons"), W - 20, { class: "ww-legend", x: W / 2, y: H - (L.die ? 3 : 8), "text-anchor": "middle", "font-size": 12, fill: "#33691e" }));
    if (last && last.event === "roll") {
      // the die shows a number or the sun (a symbol; its word, from the catalogue, for screen readers)
      const [dx, dy] = L.die ? fieldXY(view.fields, L).map((v, k) => v + (k ? 6 : 1)) : [W - 40, 6];
      board.append(s("g", { transform: `translate(${dx},${dy})`, role: "img", "aria-label": term(last.face ?? "?", "wildwasser.face") },
        s("g", { class: msg.fresh ? "rolling" : null },
          s("rect", { width: 26, height: 26, rx: 5, fill: "#fff", stroke: "#333" }),
          s("text", { x: 13, y: 19, "text-anchor": "middle", "font-size": 16, "font-weight": "bold" }, last.face === "sun" ? "☀" : (last.face ?? "?")))));
    }

    // podiums: a box for each paid place and for each animal placed beyond them (4th to
    // 6th with four or more players: 0 points, but finished, and a tie-break counts it),
    // three boxes a row
    const places = Object.fromEntries(SPECIES.map((sp) =>
      [sp, Math.max((view.podium_points[sp] || []).length, (view.podiums[sp] || []).length)]));
    const podRows = SPECIES.map((sp) => Math.max(1, Math.ceil(places[sp] / PODIUM_ROW)));
    const pod = svgRoot(360, 40 + podRows.reduce((a, b) => a + b, 0) * 30);
    let py = 10;
    SPECIES.forEach((sp, k) => {
      pod.append(s("text", { x: 4, y: py + 18, "font-size": 14 }, spName(sp)));
      for (let place = 0; place < places[sp]; place++) {
        const x = 110 + (place % PODIUM_ROW) * 80, y = py + Math.floor(place / PODIUM_ROW) * 30;
        const pts = view.podium_points[sp]?.[place] ?? 0;
        pod.append(s("rect", { x, y, width: 76, height: 26, rx: 4, fill: "#fff", stroke: "#999" }));
        pod.append(s("text", { x: x + 4, y: y + 17, "font-size": 12 }, `${place + 1}. +${pts}`));
        const seat = view.podiums[sp]?.[place];
        // whose animal stands on the place, in words: its token's initial is all it shows
        if (seat !== undefined && seat !== null) {
          pod.append(s("g", { role: "img", "aria-label": seatLabel(seat) }, animalToken(seat, sp, x + 64, y + 13, 10)));
        }
      }
      py += podRows[k] * 30;
    });
    // a group read place by place ("Zebra 1. +6 Anna"), not a picture a screen reader
    // names "Podiums" and no more: which animals have finished, and whose, decides the race
    pod.setAttribute("role", "group");
    pod.setAttribute("aria-label", t("wildwasser.podiums"));

    // team cards in detail
    const teams = h("ul", { class: "plain" }, view.seats.map((st) => {
      const waiting = SPECIES.filter((sp) => st.animals[sp]?.at === "team card").map(spName);
      return h("li", {}, h("b", {}, seatLabel(st.seat)), `: ${t("wildwasser.points_n", { n: st.points })}`,
        st.seat === view.start_marker ? ` · ⚑ ${t("wildwasser.chip_marker")}` : "", ` · ${t("wildwasser.waiting")}: ${waiting.join(", ") || "–"}`,
        ` · ${t("wildwasser.cards")}: ${st.unrevealed.length}`,
        st.revealed.length ? ` · ${t("wildwasser.revealed")}: ${st.revealed.map(spName).join(", ")}` : "");
    }));

    let hand = null;
    const mine = view.seats.find((st) => st.seat === view.seat);
    if (mine && mine.hand) {
      // the cards stand in the middle of the picture (at least 300 wide, so that they keep
      // their size as the hand empties), not from its left edge
      const n = mine.hand.length, wide = L !== UPRIGHT;
      const [cw, pitch] = wide ? [WIDE_CARD.w, WIDE_CARD.pitch] : [CARD_W, CARD_PITCH];
      const HW = Math.max(300, n * pitch + 10), x0 = (HW - (n * pitch - (pitch - cw))) / 2;
      hand = svgRoot(HW, 76, mine.hand.map((sp, i) => animalCard(sp, x0 + i * pitch, 5, ui, `hand:${sp}`, false, wide)));
    }
    return { board, hand, side: [["podiums", t("wildwasser.podiums"), pod], ["teams", t("wildwasser.teams"), teams]] };
  },

  logLines(view) {
    return (view.log || []).filter((e) => e.event !== "decide" && e.event !== "pick").slice(-14).flatMap((e) => {
      const a = e.animal ? spName(e.animal) : (e.card ? spName(e.card) : "");
      // WW-5.1: the end names who got three animals across (several may, in one round)
      const finishers = e.event === "end" && e.why === "finish" && e.finishers?.length ? e.finishers : null;
      const key = e.event === "move" && !e.start ? "wildwasser.ev.enter"
        // how the marker moved (WW-3.2, WW-4.3) the view works out once, for the terminal too
        : e.event === "marker" ? `wildwasser.ev.marker_${e.how}` : finishers ? "wildwasser.ev.end_finish" : `wildwasser.ev.${e.event}`;
      // why a card or a roll did nothing (WW-3.3) and why the game ended (WW-5.1, WW-5.2), as the terminal says it
      const w = e.event === "nothing" ? term(e.why, "wildwasser.why") : e.event === "end" ? term(e.why, "wildwasser.end") : "";
      // a marker's line names the seat it went to (who2) and the one it came from (who3):
      // either may be the seat hearing it ("… gave you the start marker", i18n.js say)
      const text = say(key, { seat: e.seat ?? undefined, a, r: e.round, from: e.start, to: e.to, p: e.place, f: e.face ?? e.field,
                              i: ICON_NAMES[e.icon] ? t(ICON_NAMES[e.icon]) : e.icon, w,
                              // the finishers by the names the page gives them (the catalogue's term `seat`)
                              ...(finishers ? { finishers, n: finishers.length } : {}),
                              seats: e.event === "marker" ? { who2: e.to, who3: e.before } : {} });
      // a push names each animal it washes back to its team card (WW-4.4)
      const washed = e.event === "push" ? (e.washed || []).map(([seat, sp]) => say("wildwasser.ev.washed", { seat, a: spName(sp) })) : [];
      return [text === key ? say("wildwasser.ev.other", { seat: e.seat ?? undefined }) : text, ...washed];
    }).slice(-14);
  },

  // the rows' heads are the seats, the page's own marked as its chip is ("Seat 1 (you)")
  breakdown(view) {
    return h("table", { class: "score" },
      // a phone shows each species by its initial (style.css: .long/.short), the name stays for screen readers
      h("tr", {}, h("td", {}, ""), SPECIES.map((sp) => h("th", { scope: "col", title: spName(sp) },
        h("span", { class: "long" }, spName(sp)), h("span", { class: "short", "aria-hidden": "true" }, initial(sp)))),
        h("th", { scope: "col", class: "word" }, t("total"))),
      view.seats.map((st) => h("tr", {}, h("th", { scope: "row" }, seatLabelFor(st.seat, view.seat)),
        SPECIES.map((sp) => {
          const place = (view.podiums[sp] || []).indexOf(st.seat);
          return h("td", {}, place >= 0 ? `${place + 1}. (+${view.podium_points[sp]?.[place] ?? 0})` : "–");
        }),
        h("td", {}, h("b", {}, view.scores[st.seat])))));
  },
};
