// The message catalogue of one language (GET /api/messages/LANG, core/messages.py) and
// its template mini-language, the same as the server's: `{name}` prints a parameter;
// `{name:kind}` prints it as a term (entry `kind.value`, else the template `kind` with
// {value}, else the value); a list prints each item as a term joined as a list of the
// language ("8C, 9C and JC"), `{name:*kind}` joins with spaces; the built-in terms
// `card` (a card in the language's letters), `letter` (seat 2 → C), `option`
// (GAME.NAME → the option's label), `seat` (a seat as the page names it, `seatText`: its
// player's name, else the catalogue's `seat`, "seat 2") and `shown` (a value the user
// gave: text quoted by the term `quote`, anything else as JSON writes it); figures as the
// language writes them (Intl, the same CLDR data as the server's Babel): `grouped`
// (10,000 / 10.000), `decimal` (0.1 / 0,1; a number or the text of one), `percent` (a
// share: 48% / 48 %) and a numeric spec such as `{rate:.1f}` (2.5 / 2,5; a share takes
// `percent`), while a plain `{n}` prints as it is; a parameter that is itself a refusal
// (`{code, params}`) renders in the same language; `{{`/`}}` are braces.  An entry with
// plural forms is chosen by the parameter `n` with the plural rule the catalogue sends
// (a C expression in n, evaluated here without `eval`, which the page's content security
// policy forbids).
// No DOM here: tests import it as it is.

// -- the plural rule: a C expression in n (?: || && == != < > <= >= + - * / % ! and parentheses)
export function pluralRule(expr) {
  const tokens = (expr || "(n != 1)").match(/\d+|n|\|\||&&|[=!<>]=|[-+*/%()?:<>!]/g) || [];
  if (tokens.join("") !== (expr || "(n != 1)").replace(/\s+/g, "")) throw new Error(`plural rule not understood: ${expr}`);
  let i = 0;
  const peek = () => tokens[i];
  const take = (want) => { if (tokens[i] !== want) throw new Error(`plural rule: expected ${want} in ${expr}`); i++; };
  // precedence climbing over binary operators, lowest first
  const LEVELS = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];
  const OPS = { "||": (a, b) => +(a || b), "&&": (a, b) => +(a && b), "==": (a, b) => +(a === b), "!=": (a, b) => +(a !== b),
                "<": (a, b) => +(a < b), ">": (a, b) => +(a > b), "<=": (a, b) => +(a <= b), ">=": (a, b) => +(a >= b),
                "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b,
                "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b };
  function ternary() {
    const cond = binary(0);
    if (peek() !== "?") return cond;
    i++; const yes = ternary(); take(":"); const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  }
  function binary(level) {
    if (level === LEVELS.length) return unary();
    let left = binary(level + 1);
    while (LEVELS[level].includes(peek())) {
      const op = OPS[tokens[i++]], l = left, right = binary(level + 1);
      left = (n) => op(l(n), right(n));
    }
    return left;
  }
  function unary() {
    const tok = tokens[i++];
    if (tok === "!") { const inner = unary(); return (n) => +!inner(n); }
    if (tok === "-") { const inner = unary(); return (n) => -inner(n); }
    if (tok === "(") { const inner = ternary(); take(")"); return inner; }
    if (tok === "n") return (n) => n;
    if (/^\d+$/.test(tok || "")) { const v = +tok; return () => v; }
    throw new Error(`plural rule: unexpected ${tok} in ${expr}`);
  }
  const fn = ternary();
  if (i !== tokens.length) throw new Error(`plural rule: trailing ${tokens[i]} in ${expr}`);
  return (n) => Number(fn(Math.abs(Math.trunc(Number(n)))));
}

// The most characters (code points, as Python counts) of a value a message shows, as the
// server's core/messages.py SHOWN_MOST: a pasted value is shown by its start.
const SHOWN_MOST = 100;

function cut(text) {
  const chars = Array.from(text);
  return chars.length <= SHOWN_MOST ? text : chars.slice(0, SHOWN_MOST - 1).join("") + "…";
}

// A value as the server's json.dumps writes it (`{"x": 1}`, `[1, 2]`: a space after each
// comma and colon), so a refusal reads the same on the page and in the terminal.
export function jsonText(value) {
  if (Array.isArray(value)) return `[${value.map(jsonText).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${jsonText(v)}`).join(", ")}}`;
  }
  return value === undefined ? "null" : JSON.stringify(value);
}

// A parameter that is itself a refusal, as the server sends it: exactly {code, params}.
function isReason(value) {
  const plain = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  return plain(value) && typeof value.code === "string" && plain(value.params) && Object.keys(value).length === 2;
}

export class Catalogue {
  // json: {lang, plural, messages: {code: text | [forms]}}
  constructor(json) {
    this.lang = json.lang;
    this.messages = json.messages || {};
    this.plural = pluralRule(json.plural);
    this.lists = typeof Intl !== "undefined" && Intl.ListFormat ? new Intl.ListFormat(this.lang, { type: "conjunction" }) : null;
  }

  has(code) {
    const e = this.messages[code];
    return Array.isArray(e) ? e.length > 0 && e.every(Boolean) : Boolean(e);
  }

  // the template of `code` (its plural form for n), undefined if the catalogue lacks it
  text(code, n) {
    const e = this.messages[code];
    if (!e) return undefined;
    if (!Array.isArray(e)) return e;
    const form = this.plural(n === undefined || n === null ? 1 : n);
    return e[Math.min(form, e.length - 1)];
  }

  render(code, params = {}) {
    const template = this.text(code, params.n);
    return template === undefined ? undefined : this.format(template, params);
  }

  format(template, params = {}) {
    return template.replace(/\{\{|\}\}|\{([^{}:]+)(?::([^{}]*))?\}/g, (all, name, spec) => {
      if (all === "{{") return "{";
      if (all === "}}") return "}";
      if (!(name in params)) return all;  // a missing parameter shows itself, never nothing
      let value = params[name];
      // a refusal inside another (`{code, params}`, Reason.to_json) is said in this
      // language too, as the server's _Formatter does; a code this catalogue lacks, as itself
      if (isReason(value)) value = this.render(value.code, value.params) ?? value.code;
      if (spec && /^[A-Za-z*]/.test(spec)) return this.terms(value, spec);
      if (spec && typeof value === "number") return this.digits(value, spec);
      return String(value);
    });
  }

  terms(value, kind) {
    if (Array.isArray(value) && kind !== "shown") {  // `shown` shows a list whole, as JSON: [1]
      if (kind.startsWith("*")) return value.map((v) => this.term(v, kind.slice(1))).join(" ");
      const items = value.map((v) => this.term(v, kind));
      return this.lists ? this.lists.format(items) : items.join(", ");
    }
    return this.term(value, kind.replace(/^\*/, ""));
  }

  term(value, kind) {
    // text typed ('2.5') quoted, a JSON value (2.5, null, [3]) as JSON writes it, as the server does
    if (kind === "shown") return typeof value === "string" ? this.term(cut(value), "quote") : cut(jsonText(value));
    if (kind === "card") return this.card(String(value));
    if (kind === "grouped" || kind === "decimal") return this.number(value, { maximumFractionDigits: 3 });
    if (kind === "percent") return this.number(value, { style: "percent" });
    if (kind === "letter") return String.fromCharCode(65 + Number(value));
    // a seat a refusal names (`{seat:seat}`) as the page names it ("Anna"), where the
    // catalogue's "seat 1" named a player the page calls by name (core/messages.py say_seat)
    if (kind === "seat") { const named = this.seatText?.(Number(value)); if (named) return named; }
    if (kind === "option" || kind === "option_named") {  // GAME.NAME: the option's label on the game's pages, else its name
      const text = String(value), dot = text.lastIndexOf("."), name = text.slice(dot + 1);
      const label = dot > 0 ? this.text(`${text.slice(0, dot)}.web.opt.${name}`) : undefined;
      if (kind === "option") return label || name;
      // quoted, with the name a command line or a record spells beside the label (core/messages.py term)
      const quoted = this.term(label || name, "quote");
      return label && label !== name ? `${quoted} (${name})` : quoted;
    }
    const found = this.text(`${kind}.${value}`);
    if (found !== undefined) return found;
    const template = this.text(kind);
    if (template !== undefined) return this.format(template, { value });
    return String(value);
  }

  // a figure (a number, or the text of one as some refusals pass it) as the language writes it
  number(value, options) {
    const n = Number(value);
    if (typeof value === "boolean" || value === null || value === "" || !Number.isFinite(n)) return String(value);
    // half to even, as Babel rounds on the server (94.5 % → 94 %, not 95 %)
    return new Intl.NumberFormat(this.lang, { roundingMode: "halfEven", ...options }).format(n);
  }

  // a Python numeric spec (`.1f`, `,.2f`, `d`) with the language's separators, as
  // core/messages.py writes it (which refuses a spec it would word in English, `.0%`); a
  // spec this does not know prints the number as it is: a page never fails on its words
  digits(value, spec) {
    const m = spec.match(/^(,)?(?:\.(\d+))?([fd])?$/);
    if (!m) return String(value);
    const places = m[2] === undefined ? (m[3] === "f" ? 6 : undefined) : Number(m[2]);
    const options = { useGrouping: Boolean(m[1]) };
    if (places !== undefined) Object.assign(options, { minimumFractionDigits: places, maximumFractionDigits: places });
    return this.number(value, options);
  }

  // a card in the letters of the language: 'JC' → 'J♣' / 'B♣', 'X1' → 'Jk1', 'X1=H' → 'Jk1=♥'
  // (`rankText`, when given, words a rank first: the page's own way of writing it)
  card(name) {
    const [base, decl] = name.split("=");
    const rank = base.slice(0, -1);
    let text = base.startsWith("X") ? "Jk" + base.slice(1)
      : (this.rankText?.(rank) ?? this.term(rank, "card.rank")) + (this.text(`card.suit.${base.slice(-1)}`) ?? base.slice(-1));
    if (decl !== undefined) text += "=" + (this.text(`card.decl.${decl}`) ?? decl);
    return text;
  }
}
