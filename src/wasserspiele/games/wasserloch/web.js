// Wasserloch: the waterhole (eight places in a circle), your hand, loot.
import { s, h, svgRoot, SEAT_COLORS } from "../svg.js";
import { t } from "../i18n.js";

const VALUES = ["A", "2", "3", "4", "5", "6", "7", "8"];
const ANIMALS = ["mouse", "flamingo", "zebra", "cheetah", "giraffe", "rhino", "elephant", "crocodile"];

function parse(action) {
  const [v, n] = action.toUpperCase().split("X");
  return { value: v === "1" ? "A" : v, count: parseInt(n, 10) };
}

function place(value, count, cx, cy, ui) {
  const g = s("g", { transform: `translate(${cx},${cy})` },
    s("circle", { class: "hl", r: 34, fill: count ? "#cfe6f5" : "#e9f3f9", stroke: "#3d8fc4", "stroke-width": 2 }),
    s("text", { y: 6, "text-anchor": "middle", "font-size": 22, "font-weight": "bold" }, value),
    s("text", { y: -14, "text-anchor": "middle", "font-size": 9, fill: "#1d4f70" }, t(`wasserloch.animal.${ANIMALS[VALUES.indexOf(value)]}`)),
    s("text", { y: 28, "text-anchor": "middle", "font-size": 12, fill: "#1d4f70" }, count ? `×${count}` : "–"));
  return ui.mark(g, `v:${value}`);
}

function handGroup(value, count, x, ui) {
  const g = s("g", { transform: `translate(${x},6)` });
  for (let i = count - 1; i >= 0; i--) {
    g.append(s("rect", { class: i === 0 ? "hl" : null, x: i * 5, y: i * 3, width: 48, height: 66, rx: 5,
      fill: "#fffdf7", stroke: "#555" }));
  }
  g.append(s("text", { x: 24, y: 38, "text-anchor": "middle", "font-size": 24, "font-weight": "bold" }, value));
  g.append(s("text", { x: 24, y: 14, "text-anchor": "middle", "font-size": 8 }, t(`wasserloch.animal.${ANIMALS[VALUES.indexOf(value)]}`)));
  g.append(s("text", { x: 24, y: 58, "text-anchor": "middle", "font-size": 13 }, `×${count}`));
  return ui.mark(g, `v:${value}`);
}

export default {
  title: { en: "Wasserloch", de: "Wasserloch" },
  strings: {
    en: { "wasserloch.opt.players": "Players", "wasserloch.opt.rounds": "Rounds",
          "wasserloch.opt.first_player": "Start player", "wasserloch.opt.chase": "Driving off",
          "wasserloch.chase.nearest": "nearest", "wasserloch.chase.adjacent": "adjacent",
          "wasserloch.play": "play {n} × {v}", "wasserloch.log": "Seat {seat}: {n} × {v}",
          "wasserloch.drove": " — drove off the {v}s, +{loot}", "wasserloch.hand": "Your hand",
          "wasserloch.gone": "Driven off this round", "wasserloch.animal.mouse": "mouse", "wasserloch.animal.flamingo": "flamingo",
          "wasserloch.animal.zebra": "zebra", "wasserloch.animal.cheetah": "cheetah", "wasserloch.animal.giraffe": "giraffe",
          "wasserloch.animal.rhino": "rhino", "wasserloch.animal.elephant": "elephant", "wasserloch.animal.crocodile": "crocodile" },
    de: { "wasserloch.opt.players": "Spieler", "wasserloch.opt.rounds": "Durchgänge",
          "wasserloch.opt.first_player": "Startspieler", "wasserloch.opt.chase": "Vertreiben",
          "wasserloch.chase.nearest": "nächster", "wasserloch.chase.adjacent": "benachbarter",
          "wasserloch.play": "{n} × {v} ausspielen", "wasserloch.log": "Platz {seat}: {n} × {v}",
          "wasserloch.drove": " — vertreibt die {v}er, +{loot}", "wasserloch.hand": "Deine Hand",
          "wasserloch.gone": "In diesem Durchgang vertrieben", "wasserloch.animal.mouse": "Maus", "wasserloch.animal.flamingo": "Flamingo",
          "wasserloch.animal.zebra": "Zebra", "wasserloch.animal.cheetah": "Gepard", "wasserloch.animal.giraffe": "Giraffe",
          "wasserloch.animal.rhino": "Nashorn", "wasserloch.animal.elephant": "Elefant", "wasserloch.animal.crocodile": "Krokodil" },
  },

  keys(action) { return [`v:${parse(action).value}`]; },
  guess(key) { return key.startsWith("v:") ? `${key.slice(2)}x1` : null; },
  label(action) { const p = parse(action); return t("wasserloch.play", { n: p.count, v: p.value }); },

  status(view) {
    return `${t("round", { n: view.round })} / ${view.rounds} · ${t("pile", { n: view.pile })}`;
  },

  draw(view, ui) {
    const W = 340, R = 120, C = 170;
    const hole = svgRoot(W, W,
      s("circle", { cx: C, cy: C, r: R + 40, fill: "#a7d3ee", stroke: "#3d8fc4", "stroke-width": 3 }),
      s("text", { x: C, y: C + 5, "text-anchor": "middle", "font-size": 14, fill: "#1d4f70" },
        t("pile", { n: view.pile })),
      VALUES.map((v, i) => {
        const a = -Math.PI / 2 + (i * 2 * Math.PI) / 8;
        return place(v, view.waterhole[i], C + R * Math.cos(a), C + R * Math.sin(a), ui);
      }));
    const parts = [h("div", { class: "board-hole" }, hole)];
    if (view.hand) {
      const groups = VALUES.map((v, i) => [v, view.hand[i]]).filter(([, n]) => n > 0);
      const width = Math.max(340, groups.length * 66 + 10);
      parts.push(h("h3", {}, t("wasserloch.hand")),
        h("div", { class: "hand" }, svgRoot(width, 84, groups.map(([v, n], i) => handGroup(v, n, 6 + i * 66, ui)))));
    }
    const gone = VALUES.filter((_, i) => view.gone[i] > 0).map((v, i) => `${v}×${view.gone[VALUES.indexOf(v)]}`);
    parts.push(h("p", { class: "muted" }, `${t("wasserloch.gone")}: ${gone.join(", ") || "–"}`));
    parts.push(h("div", { class: "seats" }, view.hand_sizes.map((n, seat) =>
      h("span", { class: "seat-chip", style: `border-left: 6px solid ${SEAT_COLORS[seat]}` },
        `${t("seat", { n: seat })}: ${t("cards_n", { n })} · ${t("score")} ${view.scores[seat]}`))));
    return h("div", {}, parts);
  },

  logLines(view) {
    return view.last.map((e, seat) => [e, seat]).filter(([e]) => e).map(([e, seat]) => {
      const p = parse(e.play);
      let line = `${t("round", { n: e.round })} · ${t("wasserloch.log", { seat, n: p.count, v: p.value })}`;
      if (e.drove_off) line += t("wasserloch.drove", { v: e.drove_off, loot: e.loot });
      return line;
    });
  },

  breakdown(view) {
    const rows = view.loot.map((r, i) => h("tr", {}, h("th", {}, t("round", { n: i + 1 })), r.map((x) => h("td", {}, x))));
    return h("table", { class: "score" },
      h("tr", {}, h("th", {}, ""), view.scores.map((_, s2) => h("th", {}, t("seat", { n: s2 })))),
      rows, h("tr", {}, h("th", {}, t("total")), view.scores.map((x) => h("td", {}, h("b", {}, x)))));
  },
};
