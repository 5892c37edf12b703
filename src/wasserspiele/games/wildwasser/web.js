// Wildwasser: the track with its river crossings, the animals of every team, podiums.
import { s, h, svgRoot, SEAT_COLORS } from "../svg.js";
import { t } from "../i18n.js";

const SPECIES = ["cheetah", "zebra", "rhino", "meerkat", "turtle"];
// letters, not emoji: they render on every system font
const EMOJI = { cheetah: "C", zebra: "Z", rhino: "R", meerkat: "M", turtle: "T" };
const ICONS = { "+1": "+1", "+2": "+2", die: "⚀", marker: "⚑", cards: "▤", push: "⇶" };
const PER_ROW = 8, F = 44;

function fieldXY(i) { // i: 0-based field index, laid out as a snake
  const row = Math.floor(i / PER_ROW), col = i % PER_ROW;
  const x = 10 + (row % 2 === 0 ? col : PER_ROW - 1 - col) * (F + 4);
  return [x, 34 + row * (F + 18)];
}

function animalToken(seat, species, x, y, r = 13) {
  return s("g", { transform: `translate(${x},${y})` },
    s("circle", { r, fill: SEAT_COLORS[seat % SEAT_COLORS.length], stroke: "white", "stroke-width": 2 }),
    s("text", { y: r / 2 - 1, "text-anchor": "middle", "font-size": r + 1, "font-weight": "bold", fill: "white" }, EMOJI[species] || "?"));
}

function animalCard(species, x, y, ui, key, hidden = false) {
  const g = s("g", { transform: `translate(${x},${y})` },
    s("rect", { class: "hl", width: 50, height: 66, rx: 6, fill: hidden ? "#8d6e63" : "#fff8e1", stroke: "#6d4c41" }),
    s("text", { x: 25, y: 34, "text-anchor": "middle", "font-size": 26 }, hidden ? "?" : EMOJI[species]),
    s("text", { x: 25, y: 58, "text-anchor": "middle", "font-size": 9 }, hidden ? "" : t(`wildwasser.sp.${species}`)));
  return key ? ui.mark(g, key) : g;
}

export default {
  title: { en: "Wildwasser", de: "Wildwasser" },
  strings: {
    en: { "wildwasser.opt.players": "Players", "wildwasser.opt.first_player": "Start marker", "wildwasser.opt.river_flow": "River flow",
          "wildwasser.river_flow.forward": "forward", "wildwasser.river_flow.back": "back",
          "wildwasser.sp.cheetah": "cheetah", "wildwasser.sp.zebra": "zebra", "wildwasser.sp.rhino": "rhino",
          "wildwasser.sp.meerkat": "meerkat", "wildwasser.sp.turtle": "turtle",
          "wildwasser.pick": "Pick {a}", "wildwasser.move": "Move", "wildwasser.move_a": "Move the {a}",
          "wildwasser.action": "Take the action", "wildwasser.action_s": "Action on seat {n}", "wildwasser.sun": "Sun: {a}",
          "wildwasser.marker": "Start marker to seat {n}", "wildwasser.ph.pick": "everyone picks a card", "wildwasser.ph.resolve": "cards are resolved",
          "wildwasser.ph.sun": "sun: choose an animal", "wildwasser.ph.marker": "pass the start marker", "wildwasser.ph.over": "game over", "wildwasser.card": "card: {a} of seat {n}",
          "wildwasser.team": "Team card of seat {n}", "wildwasser.hand": "Your cards", "wildwasser.cards": "cards in hand", "wildwasser.revealed": "played", "wildwasser.podiums": "Podiums",
          "wildwasser.points": "points", "wildwasser.stack": "tiles left: {n}", "wildwasser.ev": "{e}",
          "wildwasser.ev.round": "Round {r} begins", "wildwasser.ev.pick": "Seat {seat} picks a card",
          "wildwasser.ev.reveal": "Seat {seat} reveals the {a}", "wildwasser.ev.move": "Seat {seat}'s {a}: {from} → {to}",
          "wildwasser.ev.finish": "Seat {seat}'s {a} finishes, place {p}", "wildwasser.ev.roll": "Die: {f}",
          "wildwasser.ev.icon": "Icon {i} on field {f}", "wildwasser.ev.push": "The river is pushed",
          "wildwasser.ev.marker": "Start marker to seat {to}", "wildwasser.ev.blocked": "Seat {seat}'s {a} is blocked",
          "wildwasser.ev.end": "The game ends", "wildwasser.ev.nothing": "Seat {seat}: nothing happens" },
    de: { "wildwasser.opt.players": "Spieler", "wildwasser.opt.first_player": "Startmarker", "wildwasser.opt.river_flow": "Fließrichtung",
          "wildwasser.river_flow.forward": "vorwärts", "wildwasser.river_flow.back": "zurück",
          "wildwasser.sp.cheetah": "Gepard", "wildwasser.sp.zebra": "Zebra", "wildwasser.sp.rhino": "Nashorn",
          "wildwasser.sp.meerkat": "Erdmännchen", "wildwasser.sp.turtle": "Schildkröte",
          "wildwasser.pick": "{a} wählen", "wildwasser.move": "Ziehen", "wildwasser.move_a": "{a} ziehen",
          "wildwasser.action": "Aktion ausführen", "wildwasser.action_s": "Aktion gegen Platz {n}", "wildwasser.sun": "Sonne: {a}",
          "wildwasser.marker": "Startmarker an Platz {n}", "wildwasser.ph.pick": "alle wählen eine Karte", "wildwasser.ph.resolve": "Karten werden ausgeführt",
          "wildwasser.ph.sun": "Sonne: wähle ein Tier", "wildwasser.ph.marker": "Startmarker weitergeben", "wildwasser.ph.over": "Spielende", "wildwasser.card": "Karte: {a} von Platz {n}",
          "wildwasser.team": "Teamkarte von Platz {n}", "wildwasser.hand": "Deine Karten", "wildwasser.cards": "Karten auf der Hand", "wildwasser.revealed": "gespielt", "wildwasser.podiums": "Siegertreppchen",
          "wildwasser.points": "Punkte", "wildwasser.stack": "Plättchen übrig: {n}", "wildwasser.ev": "{e}",
          "wildwasser.ev.round": "Runde {r} beginnt", "wildwasser.ev.pick": "Platz {seat} wählt eine Karte",
          "wildwasser.ev.reveal": "Platz {seat} deckt {a} auf", "wildwasser.ev.move": "{a} von Platz {seat}: {from} → {to}",
          "wildwasser.ev.finish": "{a} von Platz {seat} ist im Ziel, Platz {p}", "wildwasser.ev.roll": "Würfel: {f}",
          "wildwasser.ev.icon": "Symbol {i} auf Feld {f}", "wildwasser.ev.push": "Der Fluss wird geschoben",
          "wildwasser.ev.marker": "Startmarker an Platz {to}", "wildwasser.ev.blocked": "{a} von Platz {seat} ist blockiert",
          "wildwasser.ev.end": "Das Spiel endet", "wildwasser.ev.nothing": "Platz {seat}: nichts passiert" },
  },

  keys(action) {
    const [verb, arg] = action.trim().split(/\s+/);
    if (verb === "pick") return [`hand:${arg}`];
    if ((verb === "action" || verb === "marker") && arg !== undefined) return [`team:${arg}`];
    return [];
  },

  guess(key, view) { return key.startsWith("hand:") && view.phase === "pick" ? `pick ${key.slice(5)}` : null; },

  label(action) {
    const [verb, arg] = action.trim().split(/\s+/);
    const sp = arg ? t(`wildwasser.sp.${arg}`) : "";
    if (verb === "pick") return t("wildwasser.pick", { a: sp });
    if (verb === "move") return arg ? t("wildwasser.move_a", { a: sp }) : t("wildwasser.move");
    if (verb === "action") return arg !== undefined ? t("wildwasser.action_s", { n: arg }) : t("wildwasser.action");
    if (verb === "sun") return t("wildwasser.sun", { a: sp });
    if (verb === "marker") return t("wildwasser.marker", { n: arg });
    return action;
  },

  status(view) {
    const card = view.card && view.resolving !== null ? ` · ${t("wildwasser.card", { a: t(`wildwasser.sp.${view.card}`), n: view.resolving })}` : "";
    return `${t("round", { n: view.round })} · ${t(`wildwasser.ph.${view.phase}`)}${card} · ${t("wildwasser.stack", { n: view.stack })}`;
  },

  draw(view, ui) {
    const rows = Math.ceil(view.fields / PER_ROW);
    const W = 10 + PER_ROW * (F + 4) + 6, H = 40 + rows * (F + 18);
    const board = svgRoot(W, H, s("rect", { width: W, height: H, fill: "#dcedc8", rx: 10 }));
    view.track.forEach((f, i) => {
      const [x, y] = fieldXY(i);
      const water = f.crossing !== undefined;
      board.append(s("rect", { x, y, width: F, height: F, rx: 6, fill: water ? (f.passable ? "#4fa3d9" : "#1d4f70") : "#f5e6c8",
        stroke: "#6d4c41", "stroke-width": 1 }));
      if (water) board.append(s("path", { d: `M${x + 4} ${y + F - 8} q8 -6 18 0 t18 0`, stroke: "#cfe6f5", fill: "none" }));
      board.append(s("text", { x: x + 3, y: y + 11, "font-size": 9, fill: "#555" }, f.field));
      if (f.icon) board.append(s("text", { x: x + F - 3, y: y + 12, "text-anchor": "end", "font-size": 11 }, ICONS[f.icon] || f.icon));
      if (f.animal) board.append(animalToken(f.animal[0], f.animal[1], x + F / 2, y + F / 2 + 4));
    });
    const [fx, fy] = fieldXY(0);
    board.append(s("text", { x: fx, y: fy - 8, "font-size": 12 }, "▶ start"));
    const parts = [h("div", {}, board)];

    // podiums
    const pod = svgRoot(360, 40 + SPECIES.length * 30);
    pod.append(s("text", { x: 4, y: 18, "font-size": 14, "font-weight": "bold" }, t("wildwasser.podiums")));
    SPECIES.forEach((sp, k) => {
      const y = 30 + k * 30;
      pod.append(s("text", { x: 4, y: y + 18, "font-size": 18 }, EMOJI[sp]));
      (view.podium_points[sp] || []).forEach((pts, place) => {
        pod.append(s("rect", { x: 40 + place * 60, y, width: 56, height: 26, rx: 4, fill: "#fff", stroke: "#999" }));
        pod.append(s("text", { x: 44 + place * 60, y: y + 17, "font-size": 11 }, `${place + 1}. ${pts}`));
        const seat = view.podiums[sp]?.[place];
        if (seat !== undefined) pod.append(animalToken(seat, sp, 84 + place * 60, y + 13, 10));
      });
    });
    parts.push(h("div", {}, pod));

    // team cards: animals not yet on the track; the own hand
    view.seats.forEach((st) => {
      const mine = st.seat === view.seat;
      const waiting = SPECIES.filter((sp) => st.animals[sp]?.at === "team card");
      const g = svgRoot(360, 84,
        s("rect", { class: "hl", x: 1, y: 1, width: 358, height: 82, rx: 8, fill: "#fff", stroke: SEAT_COLORS[st.seat % SEAT_COLORS.length], "stroke-width": 3 }),
        s("text", { x: 10, y: 20, "font-size": 13, "font-weight": "bold" },
          `${t("wildwasser.team", { n: st.seat })}${mine ? " (" + t("you") + ")" : ""} · ${st.points} ${t("wildwasser.points")}${st.seat === view.start_marker ? " · ⚑" : ""}${st.picked ? " · ✓" : ""}`),
        waiting.map((sp, i) => animalToken(st.seat, sp, 24 + i * 32, 50)),
        s("text", { x: 190, y: 56, "font-size": 12 }, `${t("wildwasser.cards")}: ${st.unrevealed.length}${st.revealed.length ? " · " + t("wildwasser.revealed") + " " + st.revealed.map((sp) => EMOJI[sp]).join(" ") : ""}`));
      parts.push(h("div", { "data-team": st.seat }, ui.mark(g, `team:${st.seat}`)));
      if (mine && st.hand) {
        parts.push(h("h3", {}, t("wildwasser.hand")),
          h("div", { class: "hand" }, svgRoot(Math.max(300, st.hand.length * 58 + 10), 76,
            st.hand.map((sp, i) => animalCard(sp, 6 + i * 58, 5, ui, `hand:${sp}`)))));
      }
    });
    return h("div", {}, parts);
  },

  logLines(view) {
    return (view.log || []).slice(-14).map((e) => {
      const a = e.animal ? t(`wildwasser.sp.${e.animal}`) : (e.card ? t(`wildwasser.sp.${e.card}`) : "");
      const key = `wildwasser.ev.${e.event}`;
      const text = t(key, { seat: e.seat, a, r: e.round, from: e.start, to: e.to, p: e.place, f: e.face ?? e.field, i: e.icon });
      return text === key ? `${e.event}${e.seat !== null ? " (" + e.seat + ")" : ""}` : text;
    });
  },

  breakdown(view) {
    return h("table", { class: "score" },
      h("tr", {}, h("th", {}, ""), SPECIES.map((sp) => h("th", {}, EMOJI[sp])), h("th", {}, t("total"))),
      view.seats.map((st) => h("tr", {}, h("th", {}, t("seat", { n: st.seat })),
        SPECIES.map((sp) => {
          const place = (view.podiums[sp] || []).indexOf(st.seat);
          return h("td", {}, place >= 0 ? `${place + 1}. (+${view.podium_points[sp][place]})` : "–");
        }),
        h("td", {}, h("b", {}, view.scores[st.seat])))));
  },
};
