// Seven Waters: the pyramid, both parks (lines, slides, river, pool, theme), your hand.
import { s, h, svgRoot, card, cardText, cardName, anim, fitText, SUIT_SYMBOL } from "../svg.js";
import { t, say, seatLabel } from "../i18n.js";

const CW = 40, CH = 56;

function base(code) { return code.split("=")[0].toUpperCase(); }

function parse(action) {
  const words = action.trim().split(/\s+/);
  const verb = words[0].toLowerCase();
  if (verb === "take") return { verb, pos: words[1] };
  if (verb === "slide") return { verb, line: words[1], cards: words.slice(2) };
  return { verb, cards: words.slice(1) };
}

const SW = 0.9 * CW, SH = 0.7 * CH;   // a card in a park
const PARK_W = 420;                     // a park's width

function parkCard(c, x, y) {
  const node = card(c, x, y, SW, SH);
  return c && c !== "##" ? anim(node, `c:${base(c)}`) : node;
}

// A player's park: lines (with their slides), river, pool, theme.  Only your own lines
// are places to choose (a slide goes onto one).  `big`: the row labels in a larger type,
// for the board of a narrow screen, where the pyramid above the park leaves it so little
// height that the board is drawn at about 0.6 of its size (labels of 12 came out at 7 px);
// the columns of cards after the labels move right to make room.
function park(p, seatNo, mine, ui, big = false) {
  const g = s("g", {});
  const FS = big ? 17 : 12, LX = 4 * 30 + CW + 8, SX = big ? LX + 68 : 4 * 30 + CW + 60, STRIP = big ? 72 : 56;
  // a long slide or river closes up so that its last card stays in the park's width
  const step = (x0, n, most) => (n > 1 ? Math.min(most, (PARK_W - 8 - x0 - SW) / (n - 1)) : most);
  let y = 0;
  p.lines.forEach((line, k) => {
    const row = s("g", { transform: `translate(4,${y})` });
    row.append(s("rect", { class: "hl", x: -2, y: -2, width: 4 * 30 + CW + 4, height: SH + 4, rx: 4, fill: "#0000", stroke: "#0001" }));
    line.forEach((c, i) => row.append(parkCard(c, i * 30, 0)));
    row.append(s("text", { x: LX, y: big ? 15 : 16, "font-size": FS }, t("seven_waters.line", { k: k + 1 })));
    row.append(s("text", { x: LX, y: big ? 35 : 32, "font-size": FS, "font-weight": "bold" }, `Σ ${p.line_sums[k]}`));
    const slide = p.slides[k];
    if (slide) {
      const dx = step(SX, slide.length, 30);
      slide.forEach((c, i) => row.append(parkCard(c, SX + i * dx, 0)));
    }
    g.append(mine ? ui.mark(row, `line:${k + 1}`) : row);
    y += SH + 6;
  });
  const strip = (label, cards) => {
    // the label's column ends where the cards begin (a longer word is squeezed to fit)
    const r = s("g", { transform: `translate(4,${y})` }, fitText(label, STRIP - 4, { x: 0, y: big ? 26 : 24, "font-size": FS }));
    const dx = step(STRIP, cards.length, 26);
    cards.forEach((c, i) => r.append(parkCard(c, STRIP + i * dx, 0)));
    g.append(r);
    y += SH + 6;
  };
  strip(t("seven_waters.river"), p.river);
  strip(`${t("seven_waters.pool")}${p.pool_suit ? " " + SUIT_SYMBOL[p.pool_suit] : ""}`, p.pool);
  strip(t("seven_waters.theme"), p.theme ? [p.theme] : (p.theme_placed ? ["##"] : []));
  return [g, y];
}

function pyramid(view, ui) {
  const W = 7 * (CW + 4) + 8;
  const g = s("g", {});
  view.pyramid.forEach((row, r) => row.forEach((c, i) => {
    const x = (W - (r + 1) * (CW + 4)) / 2 + i * (CW + 4);
    const node = card(c, x, 4 + r * CH * 0.72, CW, CH);
    if (!c) { g.append(node); return; }
    const marked = ui.mark(node, `pyr:${r + 1}-${i + 1}`);
    g.append(c === "##" ? marked : anim(marked, `c:${base(c)}`));
  }));
  return [g, W, 6 * (CH * 0.72) + CH + 8];
}

export default {
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
    if (p.verb === "theme" && !cards) return t("seven_waters.theme_hidden");  // another seat's: its card is secret
    return t(`seven_waters.${p.verb}_a`, { c: cards });
  },

  status(view) {
    return `${t("seven_waters.left", { n: view.pyramid_left })}${view.extra_action ? " · " + t("seven_waters.extra") : ""}`;
  },

  name(key, view) {
    const [kind, arg] = key.split(":");
    if (kind === "pyr") {
      const [r, c] = arg.split("-").map(Number);
      const code = view.pyramid[r - 1][c - 1];
      return t("seven_waters.name_pyr", { c: cardName(code), r, k: c });
    }
    if (kind === "line") {
      const me = view.players[view.seat ?? 0];
      const line = me.lines[+arg - 1] || [];
      return t("seven_waters.name_line", { k: arg, s: me.line_sums[+arg - 1], c: line.map(cardName).join(", ") || "–" });
    }
    return cardName(arg);
  },

  explain(key, view) {
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

  tieBreak(view, msg) {
    const totals = view.totals || [];
    if (totals.length === 2 && totals[0] === totals[1]) {
      const pools = view.players.map((p) => p.pool.length);
      return pools[0] === pools[1] ? t("seven_waters.draw", { n: totals[0] })
        : t("seven_waters.by_pool", { n: totals[0], who: seatLabel(pools[0] > pools[1] ? 0 : 1) });
    }
    return null;
  },

  draw(view, ui) {
    const mySeat = view.seat ?? null;
    const shown = mySeat ?? (view.to_move?.[0] ?? 0);   // a spectator sees the player to move
    const [pyr, PW, PH] = pyramid(view, ui);
    const wide = window.innerWidth > 760;
    const [mine, MH] = park(view.players[shown], shown, mySeat === shown, ui, !wide);
    const MW = PARK_W;
    const W = wide ? PW + MW + 12 : Math.max(PW, MW), H = wide ? Math.max(PH, MH + 22) : PH + MH + 34;
    const mx = wide ? PW + 12 : 0, my = wide ? 0 : PH + 8;
    const board = svgRoot(W, H,
      s("g", { transform: `translate(${wide ? 0 : (W - PW) / 2},0)` }, pyr),
      s("g", { transform: `translate(${mx},${my})` },
        fitText(`${seatLabel(shown)}${mySeat === shown ? " (" + t("you") + ")" : ""} · ${t("seven_waters.discards")} ${view.players[shown].discard_count}`,
                MW - 8, { x: 4, y: wide ? 14 : 16, "font-size": wide ? 14 : 17, "font-weight": "bold" }),
        s("g", { transform: `translate(0,${wide ? 22 : 26})` }, mine)));
    const side = view.players.map((p, seat) => seat === shown ? null : (() => {
      const [g, height] = park(p, seat, false, ui);
      return [`park-${seat}`, `${seatLabel(seat)}: ${t("seven_waters.park")}`, h("div", { class: "park", "data-park": seat }, svgRoot(PARK_W, height + 4, g))];
    })()).filter(Boolean);
    let hand = null;
    const me = mySeat !== null ? view.players[mySeat] : null;
    if (me && me.hand) {
      // the cards stand in the middle of the picture (at least 300 wide, so that they keep
      // their size as the hand empties), not from its left edge
      const HW = Math.max(300, me.hand.length * 50 + 10), x0 = (HW - (me.hand.length * 50 - 4)) / 2;
      hand = svgRoot(HW, CH + 16,
        me.hand.map((c, i) => anim(ui.mark(card(c, x0 + i * 50, 8, 46, CH + 4), `hand:${base(c)}`), `c:${base(c)}`)));
    }
    return { board, hand, side };
  },

  logLines(view) {
    return (view.log || []).slice(-12).map((e) => {
      let a = e.action;
      if (e.kind === "take" && e.card) a = t("seven_waters.take", { c: cardText(e.card) });
      else if (e.kind === "discard" && e.count !== undefined && !e.action.includes(" ")) a = `${t("seven_waters.discard", { c: t("cards_n", { n: e.count }) })}`;
      else a = this.label(e.action, null);
      return say("seven_waters.log", { seat: e.seat, a, x: e.extra ? t("seven_waters.extra_log") : "" });
    });
  },

  breakdown(view) {
    const cats = ["slides", "river", "pool", "theme", "hand", "discards"];
    const scores = Array.isArray(view.scores) ? view.scores : [];
    return h("table", { class: "score" },
      h("tr", {}, h("th", {}, ""), scores.map((_, i) => h("th", { scope: "col" }, seatLabel(i)))),
      cats.map((c) => h("tr", {}, h("th", {}, t(`seven_waters.cat.${c}`)), scores.map((x) => h("td", {}, x?.[c] ?? "")))),
      h("tr", {}, h("th", {}, t("total")), (view.totals || []).map((x) => h("td", {}, h("b", {}, x)))));
  },
};
