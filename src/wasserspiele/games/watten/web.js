// Watten: the trick table (four seats around it), your hand, trump, signals, tricks.
import { s, h, svgRoot, card, cardText, SUIT_SYMBOL } from "../svg.js";
import { t } from "../i18n.js";

const SIGNALS = ["none", "weak", "medium", "strong"];

function isCard(a) { return /^[2-9TJQKA][CDHS]$/i.test(a); }

export default {
  title: { en: "Watten", de: "Watten" },
  strings: {
    en: { "watten.opt.target": "Points to win", "watten.opt.first_dealer": "First dealer", "watten.opt.raising": "Raising",
          "watten.opt.signals": "Signals", "watten.opt.signal_detection_p": "Chance a signal is caught",
          "watten.opt.jack_order": "Jack order", "watten.opt.follow": "Following", "watten.opt.caller": "Trump caller",
          "watten.opt.hand_value": "Points per hand",
          "watten.trump": "Trump {s}", "watten.signal": "Signal: {s}", "watten.raise": "Raise", "watten.accept": "Accept",
          "watten.concede": "Concede", "watten.play": "Play {c}",
          "watten.sig.none": "none", "watten.sig.weak": "weak", "watten.sig.medium": "medium", "watten.sig.strong": "strong",
          "watten.phase.trump": "naming trump", "watten.phase.signal": "signals", "watten.phase.play": "playing",
          "watten.phase.answer": "answering a raise", "watten.phase.over": "game over", "watten.value": "hand worth {n}",
          "watten.log.deal": "Hand dealt by seat {d}; seat {c} names trump", "watten.log.trump": "Seat {seat} names trump {s}",
          "watten.log.signal": "Seat {seat} signals", "watten.log.play": "Seat {seat} plays {c}",
          "watten.log.trick": "Seat {w} takes the trick", "watten.log.raise": "Seat {seat} raises",
          "watten.log.other": "{e}", "watten.tricks": "Tricks", "watten.hand": "Your hand",
          "watten.res": "Hand {n}: team {team} +{p} ({why})", "watten.target": "Target {n}" },
    de: { "watten.opt.target": "Punkte zum Sieg", "watten.opt.first_dealer": "Erster Geber", "watten.opt.raising": "Bieten",
          "watten.opt.signals": "Deuten", "watten.opt.signal_detection_p": "Chance, dass Deuten auffällt",
          "watten.opt.jack_order": "Reihenfolge der Buben", "watten.opt.follow": "Bedienen", "watten.opt.caller": "Wer sagt Trumpf an",
          "watten.opt.hand_value": "Punkte je Spiel",
          "watten.trump": "Trumpf {s}", "watten.signal": "Deuten: {s}", "watten.raise": "Bieten", "watten.accept": "Annehmen",
          "watten.concede": "Aufgeben", "watten.play": "{c} spielen",
          "watten.sig.none": "nichts", "watten.sig.weak": "schwach", "watten.sig.medium": "mittel", "watten.sig.strong": "stark",
          "watten.phase.trump": "Trumpf ansagen", "watten.phase.signal": "Deuten", "watten.phase.play": "Stechen",
          "watten.phase.answer": "Antwort aufs Bieten", "watten.phase.over": "Spielende", "watten.value": "Spiel zählt {n}",
          "watten.log.deal": "Platz {d} gibt; Platz {c} sagt Trumpf an", "watten.log.trump": "Platz {seat} sagt Trumpf {s} an",
          "watten.log.signal": "Platz {seat} deutet", "watten.log.play": "Platz {seat} spielt {c}",
          "watten.log.trick": "Platz {w} sticht", "watten.log.raise": "Platz {seat} bietet",
          "watten.log.other": "{e}", "watten.tricks": "Stiche", "watten.hand": "Deine Hand",
          "watten.res": "Spiel {n}: Team {team} +{p} ({why})", "watten.target": "Ziel {n}" },
  },

  keys(action) { return isCard(action) ? [`hand:${action.toUpperCase()}`] : []; },
  guess(key, view) { return key.startsWith("hand:") && view.phase === "play" ? key.slice(5) : null; },
  label(action) {
    const [verb, arg] = action.split(" ");
    if (isCard(action)) return t("watten.play", { c: cardText(action) });
    if (verb === "trump") return t("watten.trump", { s: SUIT_SYMBOL[arg] || arg });
    if (verb === "signal") return t("watten.signal", { s: t(`watten.sig.${arg}`) });
    return t(`watten.${verb}`);
  },

  status(view) {
    const trump = view.trump ? ` · ${t("watten.trump", { s: SUIT_SYMBOL[view.trump] })}` : "";
    return `${t("hand_no", { n: view.hand_no })} · ${t(`watten.phase.${view.phase}`)}${trump} · ${t("watten.value", { n: view.value })} · ${t("watten.target", { n: view.target })} · ${t("score")} ${view.scores.join(" : ")}`;
  },

  draw(view, ui) {
    const me = view.seat ?? 0;
    const W = 360, H = 300;
    // seats around the table: me at the bottom, then clockwise left, top, right
    const spots = [[180, 250], [45, 150], [180, 45], [315, 150]];
    const played = Object.fromEntries((view.trick || []).map(([seat, c]) => [seat, c]));
    const trickSpots = [[158, 160], [100, 118], [158, 76], [216, 118]];
    const g = svgRoot(W, H,
      s("rect", { x: 2, y: 2, width: 356, height: 296, rx: 60, fill: "#2e7d32", stroke: "#1b5e20", "stroke-width": 4 }));
    for (let k = 0; k < 4; k++) {
      const seat = (me + k) % 4;
      const [x, y] = spots[k];
      const turn = (view.to_move || []).includes(seat);
      const sig = view.signals?.[seat];
      const anchor = k === 1 ? "start" : k === 3 ? "end" : "middle";
      const lx = k === 1 ? 6 : k === 3 ? 354 : x;
      g.append(s("text", { x: lx, y: k === 0 ? y + 32 : k === 2 ? y - 8 : y, "text-anchor": anchor, "font-size": 12,
        fill: turn ? "#ffd54f" : "white", "font-weight": turn ? "bold" : null },
        `${t("seat", { n: seat })}${view.seat === seat ? " (" + t("you") + ")" : ""} · ${t("cards_n", { n: view.hand_sizes[seat] })}${sig ? " · " + t(`watten.sig.${sig}`) : ""}${seat === view.dealer ? " · D" : ""}`));
      if (played[seat]) g.append(card(played[seat], ...trickSpots[k]));
    }
    g.append(s("text", { x: 20, y: 24, "font-size": 14, fill: "white" },
      view.trump ? t("watten.trump", { s: SUIT_SYMBOL[view.trump] }) : ""));
    g.append(s("text", { x: 340, y: 24, "text-anchor": "end", "font-size": 13, fill: "white" },
      `${t("watten.tricks")} ${view.tricks_won.join(" : ")}`));
    const parts = [h("div", {}, g)];
    if (view.hand && view.seat !== null && view.seat !== undefined) {
      const width = Math.max(300, view.hand.length * 58 + 10);
      parts.push(h("h3", {}, t("watten.hand")), h("div", { class: "hand" },
        svgRoot(width, 86, view.hand.map((c, i) => ui.mark(card(c, 6 + i * 58, 8, 54, 74), `hand:${c}`)))));
    }
    return h("div", {}, parts);
  },

  logLines(view) {
    return (view.log || []).slice(-12).map((e) => {
      switch (e.event) {
        case "deal": return t("watten.log.deal", { d: e.dealer, c: e.caller });
        case "trump": return t("watten.log.trump", { seat: e.seat, s: SUIT_SYMBOL[e.suit] || "?" });
        case "signal": return t("watten.log.signal", { seat: e.seat }) + (e.signal ? `: ${t(`watten.sig.${e.signal}`)}` : "");
        case "play": return t("watten.log.play", { seat: e.seat, c: cardText(e.card) });
        case "trick": return t("watten.log.trick", { w: e.winner });
        case "raise": return t("watten.log.raise", { seat: e.seat });
        default: return Object.entries(e).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ");
      }
    });
  },

  breakdown(view) {
    return h("div", {},
      h("p", {}, h("b", {}, `${t("team", { n: "0+2" })} ${view.scores[0]} : ${view.scores[1]} ${t("team", { n: "1+3" })}`)),
      h("ul", {}, (view.results || []).map((r) => h("li", {},
        t("watten.res", { n: r.hand, team: r.team === 0 ? "0+2" : "1+3", p: r.points, why: `${r.reason}, ${r.tricks_won.join(":")}` })))));
  },
};
