// Wasserloch: the waterhole (eight places in a circle), your hand, loot.
import { s, h, svgRoot, fitText, SEAT_COLORS } from "../svg.js";
import { t, say, seatLabel, seatLabelFor } from "../i18n.js";
import { SIDEWAYS, layoutMatches } from "../table.js";

const VALUES = ["A", "2", "3", "4", "5", "6", "7", "8"];
const ANIMALS = ["mouse", "flamingo", "zebra", "cheetah", "giraffe", "rhino", "elephant", "crocodile"];

function parse(action) {
  const [v, n] = action.toUpperCase().split("X");
  return { value: v === "1" ? "A" : v, count: parseInt(n, 10) };
}

// The seat whose play is the latest on the board: none once a new round has begun.
function lastMover(view) {
  const seat = view.last_mover;
  return seat !== null && view.last[seat] && (view.last[seat].round === view.round || view.over) ? seat : null;
}

function animalName(value) { return t(`wasserloch.animal.${ANIMALS[VALUES.indexOf(value)]}`); }

// A place: its value, its animal's name (`nameSize` units, no wider than the circle's top)
// and how many cards lie on it.
function place(value, count, cx, cy, ui, from, round, nameSize = 10) {
  const g = s("g", { transform: `translate(${cx},${cy})` },
    s("circle", { class: "hl", r: 34, fill: count ? "#cfe6f5" : "#e9f3f9", stroke: "#1f6fa3", "stroke-width": 2 }),
    s("text", { y: 6, "text-anchor": "middle", "font-size": 22, "font-weight": "bold" }, value),
    fitText(animalName(value), 58, { y: -14, "text-anchor": "middle", "font-size": nameSize, fill: "#0b3a5a" }),
    count ? s("g", { "data-anim": `pile:${round}:${value}:${count}`, "data-from": from },
      s("text", { y: 28, "text-anchor": "middle", "font-size": 13, fill: "#0b3a5a", "font-weight": "bold" }, `×${count}`))
      : s("text", { y: 28, "text-anchor": "middle", "font-size": 13, fill: "#0b3a5a" }, "–"));
  return ui.mark(g, `v:${value}`);
}

function handGroup(value, count, x, ui) {
  const g = s("g", { transform: `translate(${x},6)`, "data-origin": `hand:${value}` });
  for (let i = count - 1; i >= 0; i--) {
    g.append(s("rect", { class: i === 0 ? "hl" : null, x: i * 5, y: i * 3, width: 48, height: 66, rx: 5,
      fill: "#fffdf7", stroke: "#555" }));
  }
  g.append(s("text", { x: 24, y: 38, "text-anchor": "middle", "font-size": 24, "font-weight": "bold" }, value));
  // the animal's name at 12 units, squeezed to the card where longer ("Krokodil"): at 8 it
  // was 6.9 px high in the hand's 72 px on a phone held sideways, 9 px on one held upright
  g.append(fitText(animalName(value), 44, { x: 24, y: 15, "text-anchor": "middle", "font-size": 12 }));
  g.append(s("text", { x: 24, y: 58, "text-anchor": "middle", "font-size": 13 }, `×${count}`));
  return ui.mark(g, `v:${value}`);
}

export default {
  keys(action) { return [`v:${parse(action).value}`]; },
  guess(key) { return key.startsWith("v:") ? `${key.slice(2)}x1` : null; },
  // the hint names a play in its move button's words, the ones the player then finds and
  // presses (it said "play 2 × 3" beside a button "play two 3s", and was heard "play 2 3s")
  label(action) { return this.button(action); },
  // a move button's words, which are its accessible name (WCAG 2.5.3, label in name): the
  // count in words, no sign ("play two 3s", „zwei 3er ausspielen"): "play 2 × 3" was read
  // "play 2 times 3" (NVDA's symbol table), a product, and an aria-label in other words
  // than those shown would not answer a speech-input user saying what they see
  button(action) { const p = parse(action); return t("wasserloch.play_button", { n: p.count, v: p.value }); },

  status(view) {
    return `${t("wasserloch.round", { n: view.round })} / ${view.rounds} · ${t("pile", { n: view.pile })}`;
  },

  name(key, view) {
    const v = key.slice(2), i = VALUES.indexOf(v);
    const here = view.waterhole[i];
    // a spectator or a replay holds no hand: "0 in your hand" told them of a hand they have not
    if (!view.hand) return t("wasserloch.name_place", { v, a: animalName(v), n: here });
    return t("wasserloch.name", { v, a: animalName(v), n: here, m: view.hand[i] });
  },

  explain(key, view) {
    const v = key.slice(2), i = VALUES.indexOf(v);
    if (view.hand && !view.hand[i]) return t("wasserloch.why_none", { v });
    return null;
  },

  seatInfo(view, seat) { return t("cards_n", { n: view.hand_sizes[seat] }); },

  lastKeys(view) {
    const seat = lastMover(view);
    return seat === null ? [] : [`v:${parse(view.last[seat].play).value}`];
  },

  phaseNo(view) { return view.round; },

  summary(before, view) {
    if (before.round === view.round && !(view.over && !before.over)) return null;
    const r = before.round;
    const loot = view.loot[r - 1] || [];
    const title = t("wasserloch.round_over", { r });
    // the page's own seat as its chip says it, "Seat 1 (you)", also where the lines are heard
    const lines = loot.map((p, seat) => t("wasserloch.round_line", { who: seatLabelFor(seat, view.seat), p, total: view.scores[seat] }));
    // said aloud too (app.js): the plays heard before it name no round's points
    return { title, lines, said: [`${title}.`, ...lines] };
  },

  tieBreak(view, msg) {
    const w = msg.winners || [];
    return w.length > 1 ? t("wasserloch.shared", { n: view.scores[w[0]] }) : null;
  },

  draw(view, ui, msg = {}) {
    const mover = lastMover(view);
    const from = mover === null ? null : mover === view.seat ? `hand:${parse(view.last[mover].play).value}` : `seat:${mover}`;
    // On a phone held sideways (table.js SIDEWAYS) the eight places stand in a row, the pile
    // above them: the circle, 340 units high, was drawn in the 112 px its short screen leaves
    // above the hand, places 22.4 px wide and the animals' names 3.3 px high.  The row, 582 ×
    // 92 units, is drawn at 0.95 or more (556 px wide at 844 × 390): places of 65 px, the
    // names (11 units) 10.5 px.
    const sideways = layoutMatches(SIDEWAYS);
    const W = sideways ? 582 : 340, H = sideways ? 92 : 340, R = 120, C = 170;
    const at = (i) => {
      if (sideways) return [41 + 72 * i, 56];
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / 8;
      return [C + R * Math.cos(a), C + R * Math.sin(a)];
    };
    const hole = svgRoot(W, H,
      sideways ? s("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 40, fill: "#a7d3ee", stroke: "#1f6fa3", "stroke-width": 3 })
        : s("circle", { cx: C, cy: C, r: R + 40, fill: "#a7d3ee", stroke: "#1f6fa3", "stroke-width": 3 }),
      s("text", { x: W / 2, y: sideways ? 16 : C + 5, "text-anchor": "middle", "font-size": 14, fill: "#0b3a5a" },
        t("pile", { n: view.pile })),
      VALUES.map((v, i) => place(v, view.waterhole[i], ...at(i), ui, from, view.round, sideways ? 11 : 10)));
    // the cards just driven off go to their taker (drawn once, on the position that shows it)
    const e = mover === null ? null : view.last[mover];
    if (e && e.drove_off && msg.fresh) {
      const [x, y] = at(VALUES.indexOf(e.drove_off));
      hole.append(s("g", { "data-fly-to": `seat:${mover}`, "aria-hidden": "true" },
        s("g", { transform: `translate(${x - 22},${y - 30})` },
          s("rect", { width: 44, height: 60, rx: 5, fill: "#fffdf7", stroke: "#555" }),
          s("text", { x: 22, y: 38, "text-anchor": "middle", "font-size": 20, "font-weight": "bold" }, `${e.drove_off}×${e.loot}`))));
    }
    let hand = null;
    if (view.hand) {
      const groups = VALUES.map((v, i) => [v, view.hand[i]]).filter(([, n]) => n > 0);
      // the cards stand in the middle of the picture (it keeps at least the board's
      // width, so that the cards keep their size): they were drawn from its left edge,
      // off-centre under the board; a pile of n cards is 48 + 5 (n - 1) wide
      const HW = Math.max(340, groups.length * 66 + 10);
      const wide = groups.length ? (groups.length - 1) * 66 + 48 + 5 * (groups.at(-1)[1] - 1) : 0;
      const x0 = (HW - wide) / 2;
      hand = svgRoot(HW, 84, groups.map(([v, n], i) => handGroup(v, n, x0 + i * 66, ui)));
    }
    // the cards driven off this round, value × count on screen; a screen reader is given
    // the count in words ("two 3s", „zwei 3er"): "3×2" was read "3 times 2"
    const gone = VALUES.filter((_, i) => view.gone[i] > 0).map((v) => {
      const n = view.gone[VALUES.indexOf(v)];
      return h("span", {}, h("span", { "aria-hidden": "true" }, `${v}×${n}`),
               h("span", { class: "sr-only" }, t("wasserloch.cards_of", { n, v })));
    });
    return {
      board: hole,
      boardClass: "board-hole",
      hand,
      side: [["gone", t("wasserloch.gone"), h("p", {}, gone.length ? gone.flatMap((g, i) => (i ? [", ", g] : [g])) : "–")],
             ["scores", t("score"), this.breakdown(view)]],
    };
  },

  // The view's latest plays (`recent`), in the order they were made, the newest last: every
  // play since any seat's previous turn, so a seat that ended a round (WL-5.2) and plays
  // again first in the next (WL-5.5) has both plays told, and the round's end comes before
  // the new round's plays (WL-3.3).  (The terminal's describe_last tells the same plays.)
  logLines(view) {
    return view.recent.map((e) => {
      const seat = e.seat, p = parse(e.play);
      let line = say("wasserloch.log", { seat, n: p.count, v: p.value, a: animalName(p.value) });
      if (e.drove_off) line += " " + say("wasserloch.drove", { v: e.drove_off, a: animalName(e.drove_off), n: e.loot });
      return `${t("wasserloch.round", { n: e.round })}: ${line}`;
    });
  },

  // the columns' heads are the seats, the page's own marked as its chip is ("Seat 1 (you)")
  breakdown(view) {
    const rows = view.loot.map((r, i) => h("tr", {}, h("th", { scope: "row", class: "word" }, t("wasserloch.round", { n: i + 1 })), r.map((x) => h("td", {}, x))));
    return h("table", { class: "score" },
      h("tr", {}, h("td", {}, ""), view.scores.map((_, s2) => h("th", { scope: "col", class: "name" }, seatLabelFor(s2, view.seat)))),
      rows, h("tr", {}, h("th", { scope: "row", class: "word" }, t("total")), view.scores.map((x) => h("td", {}, h("b", {}, x)))));
  },
};
