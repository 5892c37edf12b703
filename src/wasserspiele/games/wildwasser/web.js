// Wildwasser: the track with its river crossings, the animals of every team, podiums.
import { s, h, svgRoot, anim, SEAT_COLORS } from "../svg.js";
import { t, say, seatLabel } from "../i18n.js";

const SPECIES = ["cheetah", "zebra", "rhino", "meerkat", "turtle"];
// letters, not emoji: they render on every system font
const EMOJI = { cheetah: "C", zebra: "Z", rhino: "R", meerkat: "M", turtle: "T" };
const ICONS = { "+1": "+1", "+2": "+2", die: "⚀", marker: "⚑", cards: "▤", push: "⇶" };
const PER_ROW = 8, F = 44;
const ICON_NAMES = { "+1": "wildwasser.icon.plus", "+2": "wildwasser.icon.plus", "+3": "wildwasser.icon.plus", die: "wildwasser.icon.die",
                     marker: "wildwasser.icon.marker", cards: "wildwasser.icon.cards", push: "wildwasser.icon.push" };

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

function spName(sp) { return t(`wildwasser.sp.${sp}`); }

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
    en: { "wildwasser.help.players": "How many play (2–6).", "wildwasser.help.first_player": "Who holds the start marker at the start.", "wildwasser.help.river_flow": "forward: a push carries animals on the logs further along; back: it washes them back.", 
          "wildwasser.opt.players": "Players", "wildwasser.opt.first_player": "Start marker", "wildwasser.opt.river_flow": "River flow",
          "wildwasser.river_flow.forward": "forward", "wildwasser.river_flow.back": "back",
          "wildwasser.sp.cheetah": "cheetah", "wildwasser.sp.zebra": "zebra", "wildwasser.sp.rhino": "rhino",
          "wildwasser.sp.meerkat": "meerkat", "wildwasser.sp.turtle": "turtle",
          "wildwasser.pick": "Pick {a}", "wildwasser.move": "Move", "wildwasser.move_a": "Move the {a}",
          "wildwasser.action": "Take the action", "wildwasser.action_s": "Action against {n}", "wildwasser.sun": "Sun: {a}",
          "wildwasser.marker": "Start marker to {n}", "wildwasser.ph.pick": "everyone picks a card", "wildwasser.ph.resolve": "cards are resolved",
          "wildwasser.ph.sun": "sun: choose an animal", "wildwasser.ph.marker": "pass the start marker", "wildwasser.ph.over": "game over", "wildwasser.card": "card: {a} of {n}",
          "wildwasser.team": "Team card of {n}", "wildwasser.hand": "Your cards", "wildwasser.cards": "cards in hand", "wildwasser.revealed": "played", "wildwasser.podiums": "Podiums",
          "wildwasser.points": "points", "wildwasser.stack": "tiles left: {n}", "wildwasser.ev": "{e}",
          "wildwasser.ev.round": "Round {r} begins.", "wildwasser.ev.pick": "{who} picks a card.",
          "wildwasser.ev.reveal": "{who} reveals the {a}.", "wildwasser.ev.move": "{who}'s {a} moves from field {from} to {to}.", "wildwasser.ev.enter": "{who}'s {a} leaves the team card for field {to}.",
          "wildwasser.ev.finish": "{who}'s {a} reaches the goal in place {p}.", "wildwasser.ev.roll": "The die shows {f}.",
          "wildwasser.ev.icon": "{who} lands on {i} (field {f}).", "wildwasser.ev.push": "{who} pushes the river.",
          "wildwasser.ev.marker": "The start marker goes to {who2}.", "wildwasser.ev.blocked": "{who}'s {a} is blocked.",
          "wildwasser.ev.end": "The game ends.", "wildwasser.ev.nothing": "Nothing happens for {who}.", "wildwasser.ev.other": "{who} acts.",
          "wildwasser.icon.plus": "a bonus step", "wildwasser.icon.die": "the die", "wildwasser.icon.marker": "the start marker",
          "wildwasser.icon.cards": "the card icon", "wildwasser.icon.push": "the river push",
          "wildwasser.name_card": "{a} card (speed {sp})", "wildwasser.name_team": "{who}: {p} points; waiting on the team card: {w}",
          "wildwasser.name_animal": "{who}'s {a} on field {f}", "wildwasser.start": "start", "wildwasser.teams": "Team cards",
          "wildwasser.waiting": "waiting", "wildwasser.waiting_short": "waiting {w}",
          "wildwasser.why_team": "Team cards are chosen only when your action card or the start marker points at another team.",
          "wildwasser.why_pick": "Cards are picked at the start of a round (now: {p}).",
          "wildwasser.round_over": "Round {r} is over", "wildwasser.round_line": "{who}: {p} points",
          "wildwasser.shared": "A tie at {p} points that no podium breaks: the tied players share the win.",
          "wildwasser.decided_by": "A tie at {p} points: the better {a} place decides for {who}." },
    de: { "wildwasser.help.players": "Wie viele mitspielen (2–6).", "wildwasser.help.first_player": "Wer zu Beginn den Startmarker hat.", "wildwasser.help.river_flow": "vorwärts: Schieben trägt Tiere auf den Stämmen weiter; zurück: es spült sie zurück.", 
          "wildwasser.opt.players": "Spieler", "wildwasser.opt.first_player": "Startmarker", "wildwasser.opt.river_flow": "Fließrichtung",
          "wildwasser.river_flow.forward": "vorwärts", "wildwasser.river_flow.back": "zurück",
          "wildwasser.sp.cheetah": "Gepard", "wildwasser.sp.zebra": "Zebra", "wildwasser.sp.rhino": "Nashorn",
          "wildwasser.sp.meerkat": "Erdmännchen", "wildwasser.sp.turtle": "Schildkröte",
          "wildwasser.pick": "{a} wählen", "wildwasser.move": "Ziehen", "wildwasser.move_a": "{a} ziehen",
          "wildwasser.action": "Aktion ausführen", "wildwasser.action_s": "Aktion gegen {n}", "wildwasser.sun": "Sonne: {a}",
          "wildwasser.marker": "Startmarker an {n}", "wildwasser.ph.pick": "alle wählen eine Karte", "wildwasser.ph.resolve": "Karten werden ausgeführt",
          "wildwasser.ph.sun": "Sonne: wähle ein Tier", "wildwasser.ph.marker": "Startmarker weitergeben", "wildwasser.ph.over": "Spielende", "wildwasser.card": "Karte: {a} von {n}",
          "wildwasser.team": "Teamkarte von {n}", "wildwasser.hand": "Deine Karten", "wildwasser.cards": "Karten auf der Hand", "wildwasser.revealed": "gespielt", "wildwasser.podiums": "Siegertreppchen",
          "wildwasser.points": "Punkte", "wildwasser.stack": "Plättchen übrig: {n}", "wildwasser.ev": "{e}",
          "wildwasser.ev.round": "Runde {r} beginnt.", "wildwasser.ev.pick": "{who} wählt eine Karte.",
          "wildwasser.ev.reveal": "{who} deckt {a} auf.", "wildwasser.ev.move": "{a} von {who} zieht von Feld {from} nach {to}.", "wildwasser.ev.enter": "{a} von {who} verlässt die Teamkarte, Feld {to}.",
          "wildwasser.ev.finish": "{a} von {who} ist im Ziel, Platz {p}.", "wildwasser.ev.roll": "Der Würfel zeigt {f}.",
          "wildwasser.ev.icon": "{who} landet auf {i} (Feld {f}).", "wildwasser.ev.push": "{who} schiebt den Fluss.",
          "wildwasser.ev.marker": "Der Startmarker geht an {who2}.", "wildwasser.ev.blocked": "{a} von {who} ist blockiert.",
          "wildwasser.ev.end": "Das Spiel endet.", "wildwasser.ev.nothing": "Für {who} passiert nichts.", "wildwasser.ev.other": "{who} ist dran.",
          "wildwasser.icon.plus": "einen Bonusschritt", "wildwasser.icon.die": "den Würfel", "wildwasser.icon.marker": "den Startmarker",
          "wildwasser.icon.cards": "das Kartensymbol", "wildwasser.icon.push": "das Flussschieben",
          "wildwasser.name_card": "Karte {a} (Tempo {sp})", "wildwasser.name_team": "{who}: {p} Punkte; auf der Teamkarte: {w}",
          "wildwasser.name_animal": "{a} von {who} auf Feld {f}", "wildwasser.start": "Start", "wildwasser.teams": "Teamkarten",
          "wildwasser.waiting": "wartet", "wildwasser.waiting_short": "wartet {w}",
          "wildwasser.why_team": "Teamkarten wählst du nur, wenn deine Aktionskarte oder der Startmarker auf ein anderes Team zeigt.",
          "wildwasser.why_pick": "Karten werden zu Beginn einer Runde gewählt (jetzt: {p}).",
          "wildwasser.round_over": "Runde {r} ist vorbei", "wildwasser.round_line": "{who}: {p} Punkte",
          "wildwasser.shared": "Gleichstand bei {p} Punkten, den kein Treppchen bricht: die Gleichplatzierten teilen sich den Sieg.",
          "wildwasser.decided_by": "Gleichstand bei {p} Punkten: der bessere Platz {a} entscheidet für {who}." },
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
    if (verb === "action") return arg !== undefined ? t("wildwasser.action_s", { n: seatLabel(+arg) }) : t("wildwasser.action");
    if (verb === "sun") return t("wildwasser.sun", { a: sp });
    if (verb === "marker") return t("wildwasser.marker", { n: seatLabel(+arg) });
    return action;
  },

  status(view) {
    const card = view.card && view.resolving !== null ? ` · ${t("wildwasser.card", { a: spName(view.card), n: seatLabel(view.resolving) })}` : "";
    return `${t("round", { n: view.round })} · ${t(`wildwasser.ph.${view.phase}`)}${card} · ${t("wildwasser.stack", { n: view.stack })}`;
  },

  name(key, view) {
    const [kind, arg] = key.split(":");
    if (kind === "hand") return t("wildwasser.name_card", { a: spName(arg), sp: view.speeds?.[arg] ?? "?" });
    const st = view.seats[+arg];
    const waiting = SPECIES.filter((sp) => st.animals[sp]?.at === "team card").map(spName).join(", ") || "–";
    return t("wildwasser.name_team", { who: seatLabel(+arg), p: st.points, w: waiting });
  },

  explain(key, view) {
    if (key.startsWith("team:")) return t("wildwasser.why_team");
    if (view.phase !== "pick") return t("wildwasser.why_pick", { p: t(`wildwasser.ph.${view.phase}`) });
    return null;
  },

  seatKey(seat) { return `team:${seat}`; },

  seatInfo(view, seat) {
    const st = view.seats[seat];
    const waiting = SPECIES.filter((sp) => st.animals[sp]?.at === "team card").map((sp) => EMOJI[sp]).join("");
    return `${seat === view.start_marker ? "⚑ " : ""}${st.picked ? "✓ " : ""}${waiting ? t("wildwasser.waiting_short", { w: waiting }) : ""}`.trim();
  },

  seatScore(view, seat) { return view.seats[seat].points; },

  lastKeys() { return []; },

  phaseNo(view) { return view.round; },

  summary(before, view) {
    if (before.round === view.round) return null;
    const moves = (view.log || []).filter((e) => e.event === "move" && before.log.every((b) => b.i !== e.i));
    return { title: t("wildwasser.round_over", { r: before.round }),
             lines: view.seats.map((st) => t("wildwasser.round_line", { who: seatLabel(st.seat), p: st.points })) };
  },

  tieBreak(view, msg) {
    const w = msg.winners || [];
    const best = Math.max(...view.scores);
    const tied = view.scores.map((p, seat) => [p, seat]).filter(([p]) => p === best).map(([, seat]) => seat);
    if (tied.length < 2) return null;
    if (w.length > 1) return t("wildwasser.shared", { p: best });
    for (const sp of ["turtle", "meerkat", "rhino", "zebra", "cheetah"]) {
      const places = tied.map((seat) => (view.podiums[sp] || []).indexOf(seat)).map((p) => (p < 0 ? 99 : p));
      if (new Set(places).size > 1) return t("wildwasser.decided_by", { p: best, a: spName(sp), who: w.map(seatLabel).join(", ") });
    }
    return null;
  },

  draw(view, ui, msg = {}) {
    const rows = Math.ceil(view.fields / PER_ROW);
    const W = 10 + PER_ROW * (F + 4) + 6, H = 40 + rows * (F + 18);
    const board = svgRoot(W, H, s("rect", { width: W, height: H, fill: "#dcedc8", rx: 10 }));
    const last = (view.log || []).at(-1);
    const moved = (view.log || []).filter((e) => e.event === "move").at(-1);
    view.track.forEach((f, i) => {
      const [x, y] = fieldXY(i);
      const water = f.crossing !== undefined;
      const field = s("g", {},
        s("rect", { x, y, width: F, height: F, rx: 6, fill: water ? (f.passable ? "#4fa3d9" : "#1d4f70") : "#f5e6c8",
          stroke: moved && moved.to === f.field ? "#6a1b9a" : "#6d4c41", "stroke-width": moved && moved.to === f.field ? 3 : 1 }),
        water ? s("path", { d: `M${x + 4} ${y + F - 8} q8 -6 18 0 t18 0`, stroke: "#cfe6f5", fill: "none" }) : null,
        s("text", { x: x + 3, y: y + 11, "font-size": 10, fill: water ? "#fff" : "#333" }, f.field),
        f.icon ? s("text", { x: x + F - 3, y: y + 12, "text-anchor": "end", "font-size": 11, fill: water ? "#fff" : "#1d2a33" }, ICONS[f.icon] || f.icon) : null);
      board.append(water ? anim(field, `tile:${f.tile}:${f.column}`) : field);
      if (f.animal) board.append(anim(s("g", { role: "img", "aria-label": t("wildwasser.name_animal", { a: spName(f.animal[1]), who: seatLabel(f.animal[0]), f: f.field }) },
        animalToken(f.animal[0], f.animal[1], x + F / 2, y + F / 2 + 4)), `an:${f.animal[0]}:${f.animal[1]}`, `seat:${f.animal[0]}`));
    });
    const [fx, fy] = fieldXY(0);
    board.append(s("text", { x: fx, y: fy - 8, "font-size": 12 }, `▶ ${t("wildwasser.start")}`));
    if (last && last.event === "roll") {
      board.append(s("g", { transform: `translate(${W - 40},6)` },
        s("g", { class: msg.fresh ? "rolling" : null },
          s("rect", { width: 26, height: 26, rx: 5, fill: "#fff", stroke: "#333" }),
          s("text", { x: 13, y: 19, "text-anchor": "middle", "font-size": 16, "font-weight": "bold" }, last.face ?? "?"))));
    }

    // podiums
    const pod = svgRoot(360, 40 + SPECIES.length * 30);
    SPECIES.forEach((sp, k) => {
      const y = 10 + k * 30;
      pod.append(s("text", { x: 4, y: y + 18, "font-size": 14 }, spName(sp)));
      (view.podium_points[sp] || []).forEach((pts, place) => {
        pod.append(s("rect", { x: 110 + place * 80, y, width: 76, height: 26, rx: 4, fill: "#fff", stroke: "#999" }));
        pod.append(s("text", { x: 114 + place * 80, y: y + 17, "font-size": 12 }, `${place + 1}. ${pts} ${t("wildwasser.points")}`));
        const seat = view.podiums[sp]?.[place];
        if (seat !== undefined) pod.append(animalToken(seat, sp, 174 + place * 80, y + 13, 10));
      });
    });
    pod.setAttribute("aria-label", t("wildwasser.podiums"));

    // team cards in detail
    const teams = h("ul", { class: "plain" }, view.seats.map((st) => {
      const waiting = SPECIES.filter((sp) => st.animals[sp]?.at === "team card").map(spName);
      return h("li", {}, h("b", {}, seatLabel(st.seat)), `: ${st.points} ${t("wildwasser.points")}`,
        st.seat === view.start_marker ? " · ⚑" : "", ` · ${t("wildwasser.waiting")}: ${waiting.join(", ") || "–"}`,
        ` · ${t("wildwasser.cards")}: ${st.unrevealed.length}`,
        st.revealed.length ? ` · ${t("wildwasser.revealed")}: ${st.revealed.map(spName).join(", ")}` : "");
    }));

    let hand = null;
    const mine = view.seats.find((st) => st.seat === view.seat);
    if (mine && mine.hand) {
      hand = svgRoot(Math.max(300, mine.hand.length * 58 + 10), 76,
        mine.hand.map((sp, i) => animalCard(sp, 6 + i * 58, 5, ui, `hand:${sp}`)));
    }
    return { board, hand, side: [["podiums", t("wildwasser.podiums"), pod], ["teams", t("wildwasser.teams"), teams]] };
  },

  logLines(view) {
    return (view.log || []).filter((e) => e.event !== "decide" && e.event !== "pick").slice(-14).map((e) => {
      const a = e.animal ? spName(e.animal) : (e.card ? spName(e.card) : "");
      const key = e.event === "move" && !e.start ? "wildwasser.ev.enter" : `wildwasser.ev.${e.event}`;
      const text = say(key, { seat: e.seat ?? undefined, a, r: e.round, from: e.start, to: e.to, p: e.place, f: e.face ?? e.field,
                              i: ICON_NAMES[e.icon] ? t(ICON_NAMES[e.icon]) : e.icon, who2: e.to !== undefined && e.event === "marker" ? seatLabel(e.to) : "" });
      return text === key ? say("wildwasser.ev.other", { seat: e.seat ?? undefined }) : text;
    });
  },

  breakdown(view) {
    return h("table", { class: "score" },
      h("tr", {}, h("th", {}, ""), SPECIES.map((sp) => h("th", { scope: "col" }, spName(sp))), h("th", { scope: "col" }, t("total"))),
      view.seats.map((st) => h("tr", {}, h("th", { scope: "row" }, seatLabel(st.seat)),
        SPECIES.map((sp) => {
          const place = (view.podiums[sp] || []).indexOf(st.seat);
          return h("td", {}, place >= 0 ? `${place + 1}. (+${view.podium_points[sp][place]})` : "–");
        }),
        h("td", {}, h("b", {}, view.scores[st.seat])))));
  },
};
