// Seven Waters: the pyramid, both parks (lines, slides, river, pool, theme), your hand.
import { s, h, svgRoot, card, cardText, SUIT_SYMBOL } from "../svg.js";
import { t } from "../i18n.js";

const CW = 40, CH = 56;

function base(code) { return code.split("=")[0].toUpperCase(); }

function parse(action) {
  const words = action.trim().split(/\s+/);
  const verb = words[0].toLowerCase();
  if (verb === "take") return { verb, pos: words[1] };
  if (verb === "slide") return { verb, line: words[1], cards: words.slice(2) };
  return { verb, cards: words.slice(1) };
}

function park(p, seatNo, mine, ui, y0) {
  const g = s("g", { transform: `translate(0,${y0})` });
  g.append(s("text", { x: 4, y: 14, "font-size": 14, "font-weight": "bold" },
    `${t("seat", { n: seatNo })}${mine ? " (" + t("you") + ")" : ""} · ${t("cards_n", { n: p.hand_count })} · ${t("seven_waters.discards")} ${p.discard_count}`));
  let y = 22;
  p.lines.forEach((line, k) => {
    const row = s("g", { transform: `translate(4,${y})` });
    const frame = s("rect", { class: "hl", x: -2, y: -2, width: 4 * 30 + CW + 4, height: CH * 0.7 + 4, rx: 4, fill: "#0000", stroke: "#0001" });
    row.append(frame);
    line.forEach((c, i) => row.append(card(c, i * 30, 0, CW * 0.9, CH * 0.7)));
    row.append(s("text", { x: 4 * 30 + CW + 8, y: 24, "font-size": 12 }, `${t("seven_waters.line", { k: k + 1 })}: ${p.line_sums[k]}`));
    const slide = p.slides[k];
    if (slide) slide.forEach((c, i) => row.append(card(c, 4 * 30 + CW + 80 + i * 30, 0, CW * 0.9, CH * 0.7)));
    g.append(mine ? ui.mark(row, `line:${k + 1}`) : row);
    y += CH * 0.7 + 6;
  });
  const strip = (label, cards, yy) => {
    const r = s("g", { transform: `translate(4,${yy})` }, s("text", { x: 0, y: 24, "font-size": 12 }, label));
    cards.forEach((c, i) => r.append(card(c, 70 + i * 26, 0, CW * 0.9, CH * 0.7)));
    g.append(r);
  };
  strip(t("seven_waters.river"), p.river, y); y += CH * 0.7 + 6;
  strip(`${t("seven_waters.pool")}${p.pool_suit ? " " + SUIT_SYMBOL[p.pool_suit] : ""}`, p.pool, y); y += CH * 0.7 + 6;
  strip(t("seven_waters.theme"), p.theme ? [p.theme] : (p.theme_placed ? ["##"] : []), y); y += CH * 0.7 + 6;
  return [g, y];
}

export default {
  title: { en: "Seven Waters", de: "Sieben Wasser" },
  strings: {
    en: { "seven_waters.opt.first_player": "Start player", "seven_waters.opt.slide_limit": "Slides in all",
          "seven_waters.opt.final_turns": "Turns after the last take",
          "seven_waters.final_turns.both": "both", "seven_waters.final_turns.opponent_only": "opponent only", "seven_waters.final_turns.none": "none",
          "seven_waters.take": "Take {c}", "seven_waters.discard": "Discard {c}", "seven_waters.discard_none": "Discard nothing",
          "seven_waters.slide": "Slide on line {k}: {c}", "seven_waters.river_a": "River: {c}", "seven_waters.pool_a": "Pool: {c}",
          "seven_waters.theme_a": "Theme: {c}", "seven_waters.pass": "Pass",
          "seven_waters.line": "line {k}", "seven_waters.river": "River", "seven_waters.pool": "Pool", "seven_waters.theme": "Theme",
          "seven_waters.discards": "discards", "seven_waters.hand": "Your hand", "seven_waters.pyramid": "Pyramid",
          "seven_waters.left": "{n} cards left in the pyramid", "seven_waters.extra": "extra action",
          "seven_waters.log": "Seat {seat}: {a}",
          "seven_waters.cat.slides": "Slides", "seven_waters.cat.river": "River", "seven_waters.cat.pool": "Pool",
          "seven_waters.cat.theme": "Theme", "seven_waters.cat.hand": "Hand", "seven_waters.cat.discards": "Discards" },
    de: { "seven_waters.opt.first_player": "Startspieler", "seven_waters.opt.slide_limit": "Rutschen insgesamt",
          "seven_waters.opt.final_turns": "Züge nach der letzten Karte",
          "seven_waters.final_turns.both": "beide", "seven_waters.final_turns.opponent_only": "nur Gegner", "seven_waters.final_turns.none": "keine",
          "seven_waters.take": "{c} nehmen", "seven_waters.discard": "{c} abwerfen", "seven_waters.discard_none": "Nichts abwerfen",
          "seven_waters.slide": "Rutsche an Reihe {k}: {c}", "seven_waters.river_a": "Fluss: {c}", "seven_waters.pool_a": "Teich: {c}",
          "seven_waters.theme_a": "Thema: {c}", "seven_waters.pass": "Passen",
          "seven_waters.line": "Reihe {k}", "seven_waters.river": "Fluss", "seven_waters.pool": "Teich", "seven_waters.theme": "Thema",
          "seven_waters.discards": "abgeworfen", "seven_waters.hand": "Deine Hand", "seven_waters.pyramid": "Pyramide",
          "seven_waters.left": "{n} Karten in der Pyramide", "seven_waters.extra": "Zusatzaktion",
          "seven_waters.log": "Platz {seat}: {a}",
          "seven_waters.cat.slides": "Rutschen", "seven_waters.cat.river": "Fluss", "seven_waters.cat.pool": "Teich",
          "seven_waters.cat.theme": "Thema", "seven_waters.cat.hand": "Hand", "seven_waters.cat.discards": "Abwurf" },
  },

  keys(action) {
    const p = parse(action);
    if (p.verb === "take") return [`pyr:${p.pos}`];
    if (p.verb === "slide") return [`line:${p.line}`, ...p.cards.map((c) => `hand:${base(c)}`)];
    return (p.cards || []).map((c) => `hand:${base(c)}`);
  },

  guess(key) { return key.startsWith("pyr:") ? `take ${key.slice(4)}` : null; },

  label(action, view) {
    const p = parse(action);
    const cards = (p.cards || []).map(cardText).join(" ");
    if (p.verb === "take") {
      const [r, c] = p.pos.split("-").map(Number);
      return t("seven_waters.take", { c: cardText(view?.pyramid?.[r - 1]?.[c - 1]) || p.pos });
    }
    if (p.verb === "discard") return cards ? t("seven_waters.discard", { c: cards }) : t("seven_waters.discard_none");
    if (p.verb === "slide") return t("seven_waters.slide", { k: p.line, c: cards });
    if (p.verb === "pass") return t("seven_waters.pass");
    return t(`seven_waters.${p.verb}_a`, { c: cards });
  },

  status(view) {
    return `${t("seven_waters.left", { n: view.pyramid_left })}${view.extra_action ? " · " + t("seven_waters.extra") : ""}`;
  },

  draw(view, ui) {
    const W = 7 * (CW + 4) + 8;
    const pyr = svgRoot(W, 6 * (CH * 0.72) + CH + 8);
    view.pyramid.forEach((row, r) => row.forEach((c, i) => {
      const x = (W - (r + 1) * (CW + 4)) / 2 + i * (CW + 4);
      const node = card(c, x, 4 + r * CH * 0.72, CW, CH);
      pyr.append(c ? ui.mark(node, `pyr:${r + 1}-${i + 1}`) : node);
    }));
    const parts = [h("h3", {}, t("seven_waters.pyramid")), h("div", {}, pyr)];
    view.players.forEach((p, seat) => {
      const [g, height] = park(p, seat, seat === view.seat, ui, 0);
      parts.push(h("div", { class: "park", "data-park": seat }, svgRoot(420, height + 4, g)));
    });
    const me = view.seat !== null && view.seat !== undefined ? view.players[view.seat] : null;
    if (me && me.hand) {
      const width = Math.max(300, me.hand.length * 50 + 10);
      parts.push(h("h3", {}, t("seven_waters.hand")), h("div", { class: "hand" },
        svgRoot(width, CH + 16, me.hand.map((c, i) => ui.mark(card(c, 6 + i * 50, 8, 46, CH + 4), `hand:${base(c)}`)))));
    }
    return h("div", {}, parts);
  },

  logLines(view) {
    return (view.log || []).slice(-12).map((e) => {
      let a = e.action;
      if (e.kind === "take" && e.card) a = t("seven_waters.take", { c: cardText(e.card) });
      else if (e.kind === "discard" && e.count !== undefined && !e.action.includes(" ")) a = `${t("seven_waters.discard", { c: t("cards_n", { n: e.count }) })}`;
      else a = this.label(e.action, null);
      return t("seven_waters.log", { seat: e.seat, a });
    });
  },

  breakdown(view) {
    const cats = ["slides", "river", "pool", "theme", "hand", "discards"];
    const scores = Array.isArray(view.scores) ? view.scores : [];
    return h("table", { class: "score" },
      h("tr", {}, h("th", {}, ""), scores.map((_, i) => h("th", {}, t("seat", { n: i })))),
      cats.map((c) => h("tr", {}, h("th", {}, t(`seven_waters.cat.${c}`)), scores.map((x) => h("td", {}, x?.[c] ?? "")))),
      h("tr", {}, h("th", {}, t("total")), (view.totals || []).map((x) => h("td", {}, h("b", {}, x)))));
  },
};
