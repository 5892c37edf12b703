// Pebbles (test-only game): the prize, the pebbles placed this round, your hand.
import { s, h, svgRoot, SEAT_COLORS } from "../svg.js";
import { t } from "../i18n.js";

const pebbleOf = (action) => parseInt(action.split(/\s+/)[1], 10);

function pebble(n, x, ui) {
  const g = s("g", { transform: `translate(${x},8)` },
    s("circle", { class: "hl", cx: 22, cy: 22, r: 20, fill: "#d9d4c7", stroke: "#555" }),
    s("text", { x: 22, y: 29, "text-anchor": "middle", "font-size": 18, "font-weight": "bold" }, String(n)));
  return ui ? ui.mark(g, `p:${n}`) : g;
}

export default {
  title: { en: "Pebbles", de: "Kiesel" },
  strings: {
    en: { "pebbles.opt.players": "Players", "pebbles.opt.first_player": "Start player",
          "pebbles.play": "Place pebble {n}", "pebbles.prize": "Prize {n}", "pebbles.hand": "Your pebbles",
          "pebbles.took": "Seat {w} takes prize {p} with pebble {n}" },
    de: { "pebbles.opt.players": "Spieler", "pebbles.opt.first_player": "Startspieler",
          "pebbles.play": "Kiesel {n} legen", "pebbles.prize": "Preis {n}", "pebbles.hand": "Deine Kiesel",
          "pebbles.took": "Platz {w} nimmt Preis {p} mit Kiesel {n}" },
  },

  keys(action) { return [`p:${pebbleOf(action)}`]; },
  guess(key) { return key.startsWith("p:") ? `play ${key.slice(2)}` : null; },
  label(action) { return t("pebbles.play", { n: pebbleOf(action) }); },

  status(view) {
    return `${t("round", { n: view.round })} / ${view.rounds}${view.prize !== null ? " · " + t("pebbles.prize", { n: view.prize }) : ""}`;
  },

  draw(view, ui) {
    const placed = view.placed.map((n, seat) =>
      h("span", { class: "seat-chip", style: `border-left: 6px solid ${SEAT_COLORS[seat]}` },
        `${t("seat", { n: seat })}: ${n === null ? "–" : n} · ${t("score")} ${view.scores[seat]}`));
    const parts = [h("div", { class: "seats" }, placed)];
    if (view.hand) {
      parts.push(h("h3", {}, t("pebbles.hand")),
        h("div", { class: "hand" }, svgRoot(Math.max(120, view.hand.length * 52), 60,
          view.hand.map((n, i) => pebble(n, 4 + i * 52, ui)))));
    }
    return h("div", {}, parts);
  },

  logLines(view) {
    return view.last ? [t("pebbles.took", { w: view.last.winner, p: view.last.prize, n: view.last.pebble })] : [];
  },

  breakdown(view) {
    return h("table", { class: "score" },
      h("tr", {}, view.scores.map((_, seat) => h("th", {}, t("seat", { n: seat })))),
      h("tr", {}, view.scores.map((x) => h("td", {}, h("b", {}, x)))));
  },
};
