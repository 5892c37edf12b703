// Small helpers to build SVG and HTML from view JSON (no framework, no build step).
import { t, term } from "./i18n.js";
const NS = "http://www.w3.org/2000/svg";

export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false)
    node.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  return node;
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false)
    node.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  return node;
}

// A text a board must keep within `max` units: a seat's name (players choose up to 40
// characters, and bots of one level carry their seat number) or what is said about the
// seat.  Once drawn (fitTexts, run by every redraw), a text wider than `max` is split at
// the space nearest its middle, the new line above (wrap "up") or below ("down") it,
// and a line still too wide is squeezed to `max`.
export function fitText(text, max, attrs, wrap = null) {
  return s("text", { ...attrs, "data-fit": max, "data-wrap": wrap }, text);
}

export function fitTexts(root) {
  for (const el of root.querySelectorAll("text[data-fit]")) {
    const max = +el.dataset.fit;
    el.removeAttribute("data-fit");
    if (el.getComputedTextLength() <= max) continue;
    const lines = [el];
    const text = el.textContent;
    const cut = el.dataset.wrap ? nearestSpace(text) : -1;
    if (cut > 0) {
      const other = el.cloneNode(false);
      const step = 1.15 * +(el.getAttribute("font-size") || 12);
      const up = el.dataset.wrap === "up";
      other.setAttribute("y", +el.getAttribute("y") + (up ? -step : step));
      other.textContent = up ? text.slice(0, cut) : text.slice(cut + 1);
      el.textContent = up ? text.slice(cut + 1) : text.slice(0, cut);
      el.after(other);
      lines.push(other);
    }
    for (const line of lines) {
      if (line.getComputedTextLength() > max) {
        line.setAttribute("textLength", max);
        line.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
  }
}

function nearestSpace(text) {
  const mid = text.length / 2;
  let best = -1;
  for (let i = text.indexOf(" "); i >= 0; i = text.indexOf(" ", i + 1)) {
    if (best < 0 || Math.abs(i - mid) < Math.abs(best - mid)) best = i;
  }
  return best;
}

export function svgRoot(w, hgt, ...children) {
  return s("svg", { viewBox: `0 0 ${w} ${hgt}`, role: "img", preserveAspectRatio: "xMidYMid meet" }, ...children);
}

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_COLOR = { C: "#1d2a33", S: "#1d2a33", D: "#c62828", H: "#c62828" };

// A rank as the cards of the language print it (German: B D K A for J Q K A), as the
// terminal and the rules pages write it; a ten is "10" in both.
export function rankText(r) { return r === "T" ? "10" : term(r, "card.rank"); }

// A playing card ("TH", "X1", "X1=7", "##" face down, null empty) at (x, y).
export function card(code, x, y, w = 44, hgt = 62) {
  const g = s("g", { transform: `translate(${x},${y})`, class: "card" });
  if (code === null || code === undefined) {
    g.append(s("rect", { class: "hl", x: 1, y: 1, width: w - 2, height: hgt - 2, rx: 5, fill: "none",
                        stroke: "#0002", "stroke-dasharray": "4 3" }));
    return g;
  }
  if (code === "##") {
    g.append(s("rect", { class: "hl", x: 1, y: 1, width: w - 2, height: hgt - 2, rx: 5, fill: "#3d8fc4", stroke: "#1d4f70" }));
    g.append(s("path", { d: `M6 ${hgt / 2} q${(w - 12) / 4} -8 ${(w - 12) / 2} 0 t${(w - 12) / 2} 0`, stroke: "#cfe6f5", fill: "none", "stroke-width": 2 }));
    return g;
  }
  g.append(s("rect", { class: "hl", x: 1, y: 1, width: w - 2, height: hgt - 2, rx: 5, fill: "#fffdf7", stroke: "#555" }));
  const [base, decl] = code.split("=");
  if (base[0] === "X") {
    g.append(s("text", { x: w / 2, y: hgt / 2 - 2, "text-anchor": "middle", "font-size": 18, fill: "#6a1b9a" }, "★"));
    g.append(s("text", { x: w / 2, y: hgt - 8, "text-anchor": "middle", "font-size": 11, fill: "#6a1b9a" },
      decl ? `=${rankText(decl)}` : "Joker"));
    return g;
  }
  const r = rankText(base.slice(0, -1)), suit = base.slice(-1);
  const col = SUIT_COLOR[suit] || "#333";
  g.append(s("text", { x: 5, y: 17, "font-size": 15, "font-weight": "bold", fill: col }, r));
  g.append(s("text", { x: w / 2, y: hgt / 2 + 13, "text-anchor": "middle", "font-size": 24, fill: col }, SUIT_SYMBOL[suit] || suit));
  return g;
}

export function cardText(code) {
  if (!code) return "";
  const [base, decl] = code.split("=");
  if (base[0] === "X") return `★${decl ? "=" + rankText(decl) : ""}`;
  return rankText(base.slice(0, -1)) + (SUIT_SYMBOL[base.slice(-1)] || base.slice(-1));
}

// A seat's colour, and the ink of a letter drawn on it (an animal's initial on its token):
// at least 4.5:1 against it (WCAG AA for text under 18.66 px bold).  The green is one shade
// darker than it was (white on #388e3c was 4.1:1); on the amber a white letter was 2:1,
// so its ink is dark.
export const SEAT_COLORS = ["#d32f2f", "#1976d2", "#2e7d32", "#f9a825", "#7b1fa2", "#00838f"];
export const SEAT_INK = ["#fff", "#fff", "#fff", "#1d2a33", "#fff", "#fff"];

// A card as a screen reader speaks it: "queen of hearts", "joker standing for 7".
export function cardName(code) {
  if (!code) return t("card_empty");
  if (code === "##") return t("card_hidden");
  const [base, decl] = code.split("=");
  if (base[0] === "X") return decl ? t("card_joker_as", { r: t("rank_" + decl) }) : t("card_joker");
  return t("card_name", { r: t("rank_" + base.slice(0, -1)), s: t("suit_" + base.slice(-1)) });
}

// Wraps a piece so it can glide from where it was (the wrapper has no transform of its own).
export function anim(node, id, from = null) {
  return s("g", { "data-anim": id, "data-from": from }, node);
}
